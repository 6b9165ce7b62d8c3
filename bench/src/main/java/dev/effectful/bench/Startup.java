package dev.effectful.bench;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Start-up: an application of 5,000 small classes and 20 tool classes, timed from process launch
 * to the line its main prints last, with and without the agent, on JDK 17 and (when present) 25; and
 * on JDK 17 the same application creating a JDK {@code HttpClient} before it ends, which is when the
 * agent weaves its key header into the client ({@code instrumentation/jdk-http}).
 */
final class Startup {

    static final int CLASSES = 5_000;
    static final int TOOLS = 20;
    /** Pairs (without, with) per JDK: at least 20, for a median of paired differences. */
    static final int PAIRS = 20;
    static final int QUICK_PAIRS = 5;
    /** Bumped when the generated application changes, so a jar left in target/ by an older bench is not reused. */
    private static final int APP_SHAPE = 2;

    private final Settings settings;
    private final Path appDir;

    Startup(Settings settings) {
        this.settings = settings;
        this.appDir = settings.out().resolve("startup-app");
    }

    /** jdk17|jdk25 -> without|with (median ms), added (median of paired differences, ms), pairs. */
    Map<String, Map<String, Double>> run() throws IOException, InterruptedException {
        Path jar = buildApp();
        Map<String, Map<String, Double>> out = new LinkedHashMap<>();
        out.put("jdk17", measure(Settings.java17(), jar, List.of(), false));
        out.put("jdk17_httpclient", measure(Settings.java17(), jar, List.of(), true));
        if (settings.jdk25Home() != null && Files.isExecutable(settings.jdk25Home().resolve("bin/java"))) {
            out.put("jdk25", measure(settings.jdk25Home().resolve("bin/java"), jar,
                    List.of("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"), false));
        } else {
            System.out.println("== startup: no JDK 25 at " + settings.jdk25Home() + "; skipped");
        }
        return out;
    }

    /**
     * Runs without and with the agent alternately (ABAB), one pair after another, so a load that
     * changes during the run weighs on both sides alike; the agent's cost is the median of the
     * paired differences, not the difference of two medians taken minutes apart.
     */
    private Map<String, Double> measure(Path javaBin, Path appJar, List<String> jdkFlags, boolean http)
            throws IOException, InterruptedException {
        int pairs = settings.quick() ? QUICK_PAIRS : PAIRS;
        List<Double> without = new ArrayList<>();
        List<Double> with = new ArrayList<>();
        List<Double> added = new ArrayList<>();
        for (int i = 0; i <= pairs; i++) { // pair 0 warms the page cache and is not counted
            double a = runOnce(javaBin, appJar, jdkFlags, false, http, i);
            double b = runOnce(javaBin, appJar, jdkFlags, true, http, i);
            if (i > 0) {
                without.add(a);
                with.add(b);
                added.add(b - a);
            }
        }
        Map<String, Double> out = new LinkedHashMap<>();
        out.put("without", median(without));
        out.put("with", median(with));
        out.put("added", median(added));
        out.put("pairs", (double) pairs);
        String label = javaBin.getParent().getParent().getFileName().toString() + (http ? " + HttpClient" : "");
        System.out.printf("== startup %-30s without %.1f ms, with %.1f ms (medians); added %.1f ms (median of %d"
                + " paired differences %s)%n", label, out.get("without"), out.get("with"), out.get("added"), pairs, added);
        return out;
    }

    private double runOnce(Path javaBin, Path appJar, List<String> jdkFlags, boolean agent, boolean http, int i)
            throws IOException, InterruptedException {
        Path journal = settings.work().resolve("startup-journal-" + i);
        List<String> cmd = new ArrayList<>(List.of(javaBin.toString()));
        cmd.addAll(jdkFlags);
        if (agent) {
            cmd.add("-javaagent:" + settings.agentJar());
            cmd.add("-Deffectful.journal.dir=" + journal);
        }
        cmd.addAll(List.of("-cp", appJar + java.io.File.pathSeparator + settings.annotationsJar(), "app.Main"));
        if (http) {
            cmd.add("http");
        }
        try {
            return timeToLine(cmd, "MAIN-END");
        } finally {
            Dirs.delete(journal);
        }
    }

    /** Wall time from launching the process to it printing {@code line}; the process is then awaited. */
    static double timeToLine(List<String> cmd, String line) throws IOException, InterruptedException {
        ChildLine found = ChildLine.run(cmd, line);
        if (found.line() == null) {
            throw new IOException("never printed " + line + ": " + cmd + "\n" + found.output());
        }
        return found.atMs();
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    /** Generates and compiles the application once; reused while its jar exists. */
    private Path buildApp() throws IOException {
        Path jar = appDir.resolve("startup-app-" + APP_SHAPE + ".jar");
        if (Files.exists(jar)) {
            return jar;
        }
        Path src = appDir.resolve("src/app");
        Path classes = appDir.resolve("classes");
        Files.createDirectories(src);
        Files.createDirectories(classes);
        List<String> files = new ArrayList<>();
        for (int i = 0; i < CLASSES; i++) {
            String name = String.format("C%04d", i);
            files.add(write(src, name, "package app;\npublic class " + name + " {\n"
                    + "    static final int SEED = " + i + ";\n"
                    + "    public static int touch(int x) { return x * 31 + SEED; }\n}\n"));
        }
        StringBuilder tools = new StringBuilder();
        for (int i = 0; i < TOOLS; i++) {
            String name = String.format("Tool%02d", i);
            files.add(write(src, name, "package app;\nimport dev.effectful.*;\npublic class " + name + " {\n"
                    + "    @EffectfulTool(kind = EffectKind.SEND, name = \"tool_" + i + "\")\n"
                    + "    public String call(@IntentKey String target, String text) { return \"ok:\" + target; }\n}\n"));
            tools.append("        sink += new ").append(name).append("().hashCode() & 1;\n");
        }
        files.add(write(src, "Main", "package app;\npublic class Main {\n"
                + "    public static void main(String[] args) throws Exception {\n"
                + "        long sink = 0;\n"
                + "        for (int i = 0; i < " + CLASSES + "; i++) {\n"
                + "            Class<?> c = Class.forName(String.format(\"app.C%04d\", i));\n"
                + "            sink += c.getName().length();\n"
                + "        }\n"
                + tools
                + "        if (args.length > 0 && args[0].equals(\"http\")) {\n"
                + "            sink += java.net.http.HttpClient.newHttpClient().hashCode() & 1;\n"
                + "        }\n"
                + "        System.out.println(\"MAIN-END \" + sink);\n"
                + "    }\n}\n"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        List<String> args = new ArrayList<>(Arrays.asList("--release", "17", "-parameters", "-nowarn", "-d",
                classes.toString(), "-cp", settings.annotationsJar().toString()));
        args.addAll(files);
        if (javac.run(null, null, System.err, args.toArray(String[]::new)) != 0) {
            throw new IOException("javac failed on the generated start-up application");
        }
        java.util.spi.ToolProvider jarTool = java.util.spi.ToolProvider.findFirst("jar")
                .orElseThrow(() -> new IOException("no jar tool in this JDK"));
        if (jarTool.run(System.out, System.err, "--create", "--file", jar.toString(), "-C", classes.toString(), ".") != 0) {
            throw new IOException("jar failed");
        }
        return jar;
    }

    private static String write(Path dir, String name, String source) throws IOException {
        Path f = dir.resolve(name + ".java");
        Files.writeString(f, source);
        return f.toString();
    }
}

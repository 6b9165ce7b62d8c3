package dev.effectful;

import org.junit.jupiter.api.Test;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java example a user reads compiles against this module: the {@code ```java} blocks of
 * README.md, bench/README.md and docs/*.md, and the {@code <pre>{@code ...}</pre>} blocks in this
 * module's Javadoc; a {@code ```xml} block marked as an excerpt is checked against its file.
 *
 * <p>Convention: the line before each block is a marker saying how to wrap it,
 * {@code <!-- compile: members -->} (fields, methods, nested types: wrapped in a class) or
 * {@code <!-- compile: statements -->} (wrapped in a method), optionally followed by
 * {@code | given: JAVA} naming what the example takes for granted (declared in the wrapping class).
 * A body written {@code { ... }} stands for "your code". The wrapper imports {@code dev.effectful.*},
 * {@code java.util.*} and {@code java.time.*}. A block without a marker fails, so a new example
 * cannot slip in unchecked.
 */
class ExamplesCompileTest {

    private static final Pattern MARKER = Pattern.compile("<!--\\s*compile:\\s*(members|statements)\\s*(?:\\|\\s*given:(.*?))?-->");
    /**
     * An example of a module this one cannot compile against (the test kit): it must be an excerpt of
     * a file that is compiled and run elsewhere in the build, so it cannot drift from working code.
     */
    private static final Pattern EXCERPT = Pattern.compile("<!--\\s*excerpt of:\\s*(\\S+)\\s*-->");
    private static final String IMPORTS = "package examples; import dev.effectful.*; import java.util.*; import java.time.*;";

    /** One example: where it is, how to wrap it, its lines as written. */
    record Block(String where, int firstLine, String kind, String given, List<String> lines) {

        String name() {
            return "Example_" + where.replaceAll("[^A-Za-z0-9]", "_") + "_" + firstLine;
        }

        /** The compilable unit; the block's first line is {@link #offset()} + 1 of it. */
        String source() {
            StringBuilder sb = new StringBuilder(IMPORTS).append('\n');
            sb.append("class ").append(name()).append(" { ").append(given == null ? "" : given).append('\n');
            if (kind.equals("statements")) {
                sb.append("void example() throws Exception {\n");
            }
            for (String l : lines) {
                sb.append(l.replace("{ ... }", "{ throw new UnsupportedOperationException(); }")).append('\n');
            }
            sb.append(kind.equals("statements") ? "}}\n" : "}\n");
            return sb.toString();
        }

        int offset() {
            return kind.equals("statements") ? 3 : 2;
        }
    }

    static Path root() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.exists(p.resolve("README.md"))) {
            p = p.getParent();
        }
        if (p == null) {
            throw new IllegalStateException("README.md not found above " + Path.of("").toAbsolutePath());
        }
        return p;
    }

    /** What a user reads: the README, every page under docs/, and the benchmarks' README. */
    static List<Path> userDocs(Path root) throws IOException {
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("bench/README.md")));
        try (Stream<Path> pages = Files.list(root.resolve("docs"))) {
            pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        return docs;
    }

    /**
     * The {@code ```java} blocks of one Markdown file, and its {@code ```xml} blocks that say they are an
     * excerpt of a file (a build snippet a user copies must be the one a test builds).
     */
    static List<Block> markdownBlocks(Path root, Path markdown) throws IOException {
        String where = root.relativize(markdown).toString();
        List<String> lines = Files.readAllLines(markdown, StandardCharsets.UTF_8);
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String fence = lines.get(i);
            boolean xmlExcerpt = fence.trim().equals("```xml") && i > 0 && EXCERPT.matcher(lines.get(i - 1).trim()).matches();
            if (!fence.trim().equals("```java") && !xmlExcerpt) {
                continue;
            }
            int indent = fence.indexOf('`');
            List<String> body = new ArrayList<>();
            int j = i + 1;
            for (; j < lines.size() && !lines.get(j).trim().equals("```"); j++) {
                String l = lines.get(j);
                body.add(l.length() >= indent && l.substring(0, indent).isBlank() ? l.substring(indent) : l.stripLeading());
            }
            blocks.add(block(where, i + 2, i == 0 ? "" : lines.get(i - 1), body));
            i = j;
        }
        return blocks;
    }

    static List<Block> javadocBlocks(Path sourceDir) throws IOException {
        List<Block> blocks = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(sourceDir)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                if (!lines.get(i).contains("<pre>{@code")) {
                    continue;
                }
                List<String> body = new ArrayList<>();
                int j = i + 1;
                for (; j < lines.size() && !lines.get(j).contains("}</pre>"); j++) {
                    body.add(lines.get(j).replaceFirst("^\\s*\\*( |$)", ""));
                }
                String where = f.getFileName().toString();
                blocks.add(block(where, i + 2, i == 0 ? "" : lines.get(i - 1).replaceFirst("^\\s*\\*\\s?", ""), body));
                i = j;
            }
        }
        return blocks;
    }

    private static Block block(String where, int firstLine, String markerLine, List<String> body) {
        Matcher e = EXCERPT.matcher(markerLine.trim());
        if (e.matches()) {
            return new Block(where, firstLine, "excerpt", e.group(1), body);
        }
        Matcher m = MARKER.matcher(markerLine.trim());
        if (!m.matches()) {
            return new Block(where, firstLine, "missing", null, body);
        }
        return new Block(where, firstLine, m.group(1), m.group(2) == null ? null : m.group(2).trim(), body);
    }

    @Test
    void everyJavaExampleCompiles() throws IOException {
        Path root = root();
        List<Block> blocks = new ArrayList<>();
        for (Path doc : userDocs(root)) {
            blocks.addAll(markdownBlocks(root, doc));
        }
        blocks.addAll(javadocBlocks(root.resolve("annotations/src/main/java/dev/effectful")));
        assertThat(blocks).as("examples found").hasSizeGreaterThanOrEqualTo(6);

        List<String> problems = new ArrayList<>();
        for (Block b : blocks) {
            if (b.kind().equals("missing")) {
                problems.add(b.where() + ":" + (b.firstLine() - 1) + ": no <!-- compile: members|statements --> marker"
                        + " (or <!-- excerpt of: FILE -->) on the line before the block");
                continue;
            }
            if (b.kind().equals("excerpt")) {
                problems.addAll(excerptProblems(root, b));
                continue;
            }
            problems.addAll(compile(b));
        }
        assertThat(problems).as("examples that do not compile (file:line of the example's own text)").isEmpty();
    }

    /** Every non-blank line of the block appears, in order, in the file it says it is taken from. */
    private static List<String> excerptProblems(Path root, Block b) throws IOException {
        Path file = root.resolve(b.given());
        if (!Files.isRegularFile(file)) {
            return List.of(b.where() + ":" + b.firstLine() + ": the excerpt's file " + b.given() + " does not exist");
        }
        List<String> source = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .map(ExamplesCompileTest::withoutComment).toList();
        int at = 0;
        for (int i = 0; i < b.lines().size(); i++) {
            String line = withoutComment(b.lines().get(i));
            if (line.isEmpty()) {
                continue;
            }
            int found = source.subList(at, source.size()).indexOf(line);
            if (found < 0) {
                return List.of(b.where() + ":" + (b.firstLine() + i) + ": not in " + b.given() + " (after its line "
                        + at + "): " + line);
            }
            at += found + 1;
        }
        return List.of();
    }

    /** A line as code: an explaining {@code // comment} at its end (after white space) is not part of it. */
    private static String withoutComment(String line) {
        return line.replaceFirst("\\s+//\\s.*$", "").strip();
    }

    /** A probe an example names is there, with the tool's parameter types: the example would run as written. */
    private static List<String> probesNamedExist(Block b, Path classes) throws IOException {
        List<String> problems = new ArrayList<>();
        try (java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {classes.toUri().toURL()},
                ExamplesCompileTest.class.getClassLoader())) {
            Class<?> example = loader.loadClass("examples." + b.name());
            for (java.lang.reflect.Method m : example.getDeclaredMethods()) {
                EffectfulTool tool = m.getAnnotation(EffectfulTool.class);
                if (tool == null || tool.probe().isEmpty()) {
                    continue;
                }
                try {
                    example.getDeclaredMethod(tool.probe(), m.getParameterTypes());
                } catch (NoSuchMethodException e) {
                    problems.add(b.where() + ":" + b.firstLine() + ": " + m.getName() + " names probe " + tool.probe()
                            + ", which the example does not declare with the same parameter types");
                }
            }
        } catch (ClassNotFoundException e) {
            problems.add(b.where() + ":" + b.firstLine() + ": compiled class not found: " + e.getMessage());
        }
        return problems;
    }

    /** Compiles one block against the classes of this module only; problems as "file:line: message". */
    private static List<String> compile(Block b) throws IOException {
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK's compiler (the tests run on a JDK)").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path out = Files.createTempDirectory("examples");
        String api = Path.of(Task.class.getProtectionDomain().getCodeSource().getLocation().getPath()).toString();
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            JavaFileObject unit = new SimpleJavaFileObject(URI.create("string:///examples/" + b.name() + ".java"),
                    JavaFileObject.Kind.SOURCE) {
                @Override
                public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                    return b.source();
                }
            };
            boolean ok = javac.getTask(null, files, diagnostics, List.of("-proc:none", "-Xlint:none", "--release", "17",
                    "-classpath", api, "-d", out.toString()), null, List.of(unit)).call();
            List<String> problems = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
                if (d.getKind() == Diagnostic.Kind.ERROR) {
                    long line = b.firstLine() + d.getLineNumber() - 1 - b.offset();
                    problems.add(b.where() + ":" + line + ": " + d.getMessage(null).lines().findFirst().orElse(""));
                }
            }
            if (!ok && problems.isEmpty()) {
                problems.add(b.where() + ":" + b.firstLine() + ": does not compile");
            }
            if (ok) {
                problems.addAll(probesNamedExist(b, out));
            }
            return problems;
        } finally {
            try (Stream<Path> s = Files.walk(out)) {
                s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}

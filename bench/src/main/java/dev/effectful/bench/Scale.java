package dev.effectful.bench;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.CookieManager;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The journal as it grows: for each size (1, 3 and 10 million attempts by default) a journal as a busy host
 * leaves it over thirty days ({@link JournalGenerator#generateMixed}: 5 % unknown outcomes, 4 of the 5 settled by
 * a probe at the next call and 1 held for a person; 1 % approvals, half of those still waiting), then, each from a
 * fresh JVM, the time a user waits for: the agent's restart to its first call served without an index snapshot
 * (the first start) and with one, the console from launch to its first page with the journal read, {@code journal
 * unresolved}, {@code journal show KEY}, {@code journal verify} and
 * {@code journal export} (every record). The CLI is timed after the agent's restarts, as on a host where the agent
 * has run: with the index snapshot the first start left, which {@code unresolved} and the console's desk read
 * instead of the whole journal. Also heap per remembered key and disk per attempt. Writes
 * {@code scale.png}, each time against the journal's size.
 */
final class Scale {

    static final List<Integer> DEFAULT_SIZES = List.of(1_000_000, 3_000_000, 10_000_000);
    private static final long SPAN_MILLIS = TimeUnit.DAYS.toMillis(30);

    /** The figures of one size; times in seconds. */
    record Point(int attempts, long records, double generateS, double restartColdS, double restartS, double consoleS,
                 double unresolvedS, double showS, double verifyS, double exportS, double heapBytesPerKey,
                 double diskBytesPerAttempt) {

        /** The times by their name in the table and the plot. */
        Map<String, Double> times() {
            Map<String, Double> m = new LinkedHashMap<>();
            m.put("restart, no snapshot", restartColdS);
            m.put("restart, snapshot", restartS);
            m.put("console first page", consoleS);
            m.put("journal unresolved", unresolvedS);
            m.put("journal show KEY", showS);
            m.put("journal verify", verifyS);
            m.put("journal export", exportS);
            return m;
        }
    }

    private final Settings settings;
    private final List<Integer> sizes;

    /** The sizes named as {@code 1000000,3000000}; the defaults when {@code spec} is null or blank. */
    static List<Integer> sizes(String spec) {
        if (spec == null || spec.isBlank()) {
            return DEFAULT_SIZES;
        }
        return java.util.Arrays.stream(spec.split(",")).map(String::trim).map(Integer::valueOf).sorted().toList();
    }

    Scale(Settings settings, List<Integer> sizes) {
        this.settings = settings;
        this.sizes = sizes;
    }

    List<Point> run() throws IOException, InterruptedException {
        List<Point> points = new ArrayList<>();
        Recovery recovery = new Recovery(settings);
        Path empty = settings.work().resolve("scale-empty");
        Recovery.Probe base = recovery.probe(empty, false, null);
        Dirs.delete(empty);
        for (int n : sizes) {
            Path dir = settings.work().resolve("scale-" + n);
            Dirs.delete(dir);
            try {
                JournalGenerator.Written w = JournalGenerator.generateMixed(dir, n, SPAN_MILLIS);
                double disk = allocated(dir) / (double) n;
                System.out.printf("== scale %,d: wrote %,d records in %.1f s, %.0f bytes/attempt on disk%n", n, w.records(),
                        w.seconds(), disk);
                Path snapshot = dir.resolve("index.snapshot");
                Recovery.Probe cold = recovery.probe(dir, false, snapshot);
                Recovery.Probe warm = recovery.probe(dir, false, null);
                // after the first start: the CLI reads the index snapshot it left, as on any host the agent ran on
                double console = console(dir);
                double unresolved = cli(dir, 3, "unresolved");
                String key = JournalGenerator.keyOf(n / 2);
                double show = cli(dir, 0, "show", key);
                double verify = cli(dir, -1, "verify");
                double export = cli(dir, 0, "export");
                Point p = new Point(n, w.records(), w.seconds(), cold.wallMs() / 1000, warm.wallMs() / 1000, console,
                        unresolved, show, verify, export, (double) (warm.heapUsed() - base.heapUsed()) / n, disk);
                System.out.printf("== scale %,d: %s; heap %.0f bytes/key%n", n, p.times(), p.heapBytesPerKey());
                points.add(p);
            } finally {
                Dirs.delete(dir);
            }
        }
        plot(points, settings.out().resolve("scale.png"));
        return points;
    }

    private static long allocated(Path dir) throws IOException, InterruptedException {
        long sum = 0;
        try (var files = Files.list(dir)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                sum += Dirs.allocatedBytes(p);
            }
        }
        return sum;
    }

    /** Seconds from launch to exit of {@code journal --dir DIR args}; {@code expectExit} -1: any. */
    private double cli(Path dir, int expectExit, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Settings.java17().toString(), "-jar", settings.agentJar().toString(),
                "journal", "--dir", dir.toString()));
        cmd.addAll(List.of(args));
        Path out = settings.work().resolve("scale-cli.out");
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IOException("did not end within 30 minutes: " + cmd);
        }
        double s = (System.nanoTime() - t0) / 1e9;
        if (expectExit >= 0 && p.exitValue() != expectExit) {
            throw new IOException(cmd + " exited " + p.exitValue() + ", not " + expectExit + ": " + head(out));
        }
        Files.deleteIfExists(out);
        return s;
    }

    /** Seconds from the console's launch to its first page with the journal read (signed in with the printed URL). */
    private double console(Path dir) throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = List.of(Settings.java17().toString(), "-jar", settings.agentJar().toString(), "journal",
                "--dir", dir.toString(), "console", "--port", Integer.toString(port));
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String url = null;
            for (String l = r.readLine(); l != null && url == null; l = r.readLine()) {
                int at = l.indexOf("http://");
                url = at >= 0 ? l.substring(at).trim() : null;
            }
            if (url == null) {
                throw new IOException("the console printed no URL: " + cmd);
            }
            HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
                    .followRedirects(HttpClient.Redirect.NORMAL).build();
            long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMinutes(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            while (page.body().contains("Reading the journal")) {
                if (System.nanoTime() > until) {
                    throw new IOException("the console was still reading the journal after 30 minutes");
                }
                Thread.sleep(20);
                page = http.send(HttpRequest.newBuilder(URI.create(url.substring(0, url.indexOf('/', 7)) + "/"))
                        .timeout(Duration.ofMinutes(5)).build(), HttpResponse.BodyHandlers.ofString());
            }
            if (page.statusCode() != 200) {
                throw new IOException("the console's first page answered " + page.statusCode());
            }
            return (System.nanoTime() - t0) / 1e9;
        } finally {
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static String head(Path out) throws IOException {
        String s = Files.readString(out);
        return s.length() > 2000 ? s.substring(0, 2000) : s;
    }

    /** The table of {@code bench/target/results.md}: one row a size, one column a time (seconds). */
    static String markdown(List<Point> points) {
        StringBuilder b = new StringBuilder("## The journal as it grows (seconds; scale.png)\n\n| attempts | records |");
        List<String> names = points.isEmpty() ? List.of() : new ArrayList<>(points.get(0).times().keySet());
        names.forEach(n -> b.append(' ').append(n).append(" |"));
        b.append(" heap/key | disk/attempt |\n|---:|---:|");
        names.forEach(n -> b.append("---:|"));
        b.append("---:|---:|\n");
        for (Point p : points) {
            b.append(String.format("| %,d | %,d |", p.attempts(), p.records()));
            p.times().values().forEach(v -> b.append(String.format(" %.2f |", v)));
            b.append(String.format(" %.0f B | %.0f B |%n", p.heapBytesPerKey() + 0.0, p.diskBytesPerAttempt())); // no "-0"
        }
        return b.append('\n').toString();
    }

    /** Each time against the journal's size, one line each, on a log-scaled size axis. */
    static void plot(List<Point> points, Path png) throws IOException {
        if (points.isEmpty()) {
            return;
        }
        int w = 900;
        int h = 560;
        int left = 70;
        int right = 250;
        int top = 40;
        int bottom = 60;
        var img = new java.awt.image.BufferedImage(w, h, java.awt.image.BufferedImage.TYPE_INT_RGB);
        var g = img.createGraphics();
        g.setRenderingHint(java.awt.RenderingHints.KEY_ANTIALIASING, java.awt.RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(java.awt.Color.WHITE);
        g.fillRect(0, 0, w, h);
        double maxS = points.stream().flatMap(p -> p.times().values().stream()).mapToDouble(Double::doubleValue).max().orElse(1);
        double minN = Math.log10(points.get(0).attempts());
        double maxN = Math.log10(points.get(points.size() - 1).attempts());
        double spanN = Math.max(maxN - minN, 0.1);
        int plotW = w - left - right;
        int plotH = h - top - bottom;
        g.setColor(java.awt.Color.BLACK);
        g.drawLine(left, top + plotH, left + plotW, top + plotH);
        g.drawLine(left, top, left, top + plotH);
        g.drawString("seconds", 10, top - 10);
        g.drawString("attempts in the journal (log scale)", left + plotW / 2 - 90, h - 15);
        for (int i = 0; i <= 4; i++) {
            double v = maxS * i / 4;
            int y = top + plotH - (int) (plotH * i / 4.0);
            g.drawString(String.format("%.1f", v), 25, y + 4);
        }
        for (Point p : points) {
            int x = left + (int) (plotW * (Math.log10(p.attempts()) - minN) / spanN);
            g.drawString(String.format("%,d", p.attempts()), x - 30, top + plotH + 20);
        }
        java.awt.Color[] colors = {new java.awt.Color(0x1f77b4), new java.awt.Color(0xff7f0e), new java.awt.Color(0x2ca02c),
                new java.awt.Color(0xd62728), new java.awt.Color(0x9467bd), new java.awt.Color(0x8c564b), new java.awt.Color(0xe377c2)};
        List<String> names = new ArrayList<>(points.get(0).times().keySet());
        g.setStroke(new java.awt.BasicStroke(2f));
        for (int k = 0; k < names.size(); k++) {
            g.setColor(colors[k % colors.length]);
            int px = -1;
            int py = -1;
            for (Point p : points) {
                int x = left + (int) (plotW * (Math.log10(p.attempts()) - minN) / spanN);
                int y = top + plotH - (int) (plotH * p.times().get(names.get(k)) / maxS);
                g.fillOval(x - 3, y - 3, 6, 6);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            g.fillRect(w - right + 15, top + 20 * k, 12, 12);
            g.setColor(java.awt.Color.BLACK);
            g.drawString(names.get(k), w - right + 32, top + 20 * k + 11);
        }
        g.dispose();
        Files.createDirectories(png.getParent());
        javax.imageio.ImageIO.write(img, "png", new File(png.toString()));
    }
}

package dev.effectful.agent.e2e;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.RecordType;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP service on loopback that keeps its own ledger of effects, so no test passes on the
 * agent's word alone. It lives in the test JVM and survives the kill -9 of the application.
 *
 * <pre>
 * POST /effect/VERB?key=K        apply an effect (counted per VERB and K), 200 "done:VERB:K"
 * GET  /effect/VERB?key=K        probe: 200 "done:VERB:K" when applied, 404 otherwise
 * POST /status/CODE?key=K        answer CODE (Retry-After: 30 on 429 and 503), counting hits
 * POST /slow/MS?key=K            apply, then answer after MS milliseconds
 * POST /apply-then-hang?key=K    apply, then never answer (until the ledger stops)
 * POST /hang                     never answer
 * POST /error-body?key=K         200 whose body says the operation failed; nothing applied
 * </pre>
 */
public final class EffectLedger implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();
    private final Map<String, AtomicInteger> effects = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
    private final Map<String, Boolean> intentSeenFirst = new ConcurrentHashMap<>();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private volatile Path journalDir;

    public EffectLedger() throws IOException {
        this(InetAddress.getLoopbackAddress());
    }

    /** Listening on {@code bind}: the wildcard address lets hosts in other network namespaces reach it. */
    public EffectLedger(InetAddress bind) throws IOException {
        server = HttpServer.create(new InetSocketAddress(bind, 0), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /** With a journal directory, each effect also records whether its intent was already journaled. */
    public EffectLedger watchJournal(Path dir) {
        this.journalDir = dir;
        return this;
    }

    public String url() {
        return urlVia("127.0.0.1");
    }

    /** The ledger as a process reaches it through {@code address} (another namespace's gateway). */
    public String urlVia(String address) {
        return "http://" + address + ":" + server.getAddress().getPort();
    }

    public int effects(String verb, String key) {
        AtomicInteger n = effects.get(verb + "|" + key);
        return n == null ? 0 : n.get();
    }

    /** Effects applied under {@code verb}, whatever their keys. */
    public int effectsOf(String verb) {
        return effects.entrySet().stream().filter(e -> e.getKey().startsWith(verb + "|")).mapToInt(e -> e.getValue().get()).sum();
    }

    public int totalEffects() {
        return effects.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public int hits(String path) {
        AtomicInteger n = hits.get(path);
        return n == null ? 0 : n.get();
    }

    /** For effects whose key was an intent key: was the intent in the journal before the effect? */
    public Boolean intentSeenBeforeEffect(String key) {
        return intentSeenFirst.get(key);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            URI uri = ex.getRequestURI();
            String path = uri.getPath();
            String key = query(uri, "key");
            hits.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
            String[] parts = path.split("/");
            String head = parts.length > 1 ? parts[1] : "";
            switch (head) {
                case "effect" -> {
                    String verb = parts[2];
                    if ("GET".equals(ex.getRequestMethod())) {
                        if (effects(verb, key) > 0) {
                            reply(ex, 200, "done:" + verb + ":" + key);
                        } else {
                            reply(ex, 404, "not found");
                        }
                        return;
                    }
                    apply(verb, key);
                    reply(ex, 200, "done:" + verb + ":" + key);
                }
                case "status" -> {
                    int code = Integer.parseInt(parts[2]);
                    if (code == 429 || code == 503) {
                        ex.getResponseHeaders().add("Retry-After", "30");
                    }
                    reply(ex, code, code >= 400 ? "error " + code : "ok");
                }
                case "slow" -> {
                    long ms = Long.parseLong(parts[2]);
                    apply("slow", key);
                    sleep(ms);
                    reply(ex, 200, "done:slow:" + key);
                }
                case "apply-then-hang" -> {
                    apply(parts.length > 2 ? parts[2] : "hang", key);
                    awaitStop();
                }
                case "hang" -> awaitStop();
                case "error-body" -> reply(ex, 200, "{\"status\":\"error\",\"reason\":\"card declined\"}");
                default -> reply(ex, 404, "no such endpoint");
            }
        }
    }

    private void apply(String verb, String key) {
        if (journalDir != null && key != null) {
            intentSeenFirst.put(key, intentJournaled(key));
        }
        effects.computeIfAbsent(verb + "|" + key, k -> new AtomicInteger()).incrementAndGet();
    }

    private boolean intentJournaled(String key) {
        try (ChronicleJournal j = ChronicleJournal.openReader(journalDir)) {
            boolean[] seen = {false};
            j.replay((i, r) -> seen[0] |= r.type() == RecordType.INTENT && key.equals(r.intentKey()));
            return seen[0];
        } catch (IOException e) {
            return false;
        }
    }

    private void awaitStop() {
        try {
            stopping.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void reply(HttpExchange ex, int code, String body) throws IOException {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, b.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(b);
        }
    }

    private static String query(URI uri, String name) {
        String q = uri.getRawQuery();
        if (q == null) {
            return null;
        }
        for (String kv : q.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0 && kv.substring(0, eq).equals(name)) {
                return java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    @Override
    public void close() {
        stopping.countDown();
        server.stop(0);
        pool.shutdownNow();
    }
}

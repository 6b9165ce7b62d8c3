package dev.effectful.agent.e2e;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback payment service that deduplicates on {@code Idempotency-Key}, as Stripe's retry guide
 * describes: a request whose key it has seen gets the first response again and charges nothing; a new
 * key (or none) charges. It lives in the test JVM, so what it counts survives the application's kill -9.
 *
 * <pre>
 * POST /charge/NAME          charge (unless the key was seen), answer 200 "charged:NAME#n"
 * POST /charge/NAME?lose=1   charge, then never answer in time: the caller's answer is lost
 * </pre>
 */
public final class DedupLedger implements AutoCloseable {

    /** What {@link #keys} holds for a request that carried no key. */
    public static final String NONE = "<none>";

    private final LoopbackServer server;
    private final Map<String, String> firstResponse = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
    private final Map<String, List<String>> keys = new ConcurrentHashMap<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    public DedupLedger() throws IOException {
        server = new LoopbackServer("/charge/", this::handle);
    }

    public String url() {
        return server.url();
    }

    /** How many times {@code name} was really charged (deduplicated requests not counted). */
    public int charges(String name) {
        AtomicInteger n = charges.get(name);
        return n == null ? 0 : n.get();
    }

    /** The key of every request for {@code name}, in arrival order ({@link #NONE} when it carried none). */
    public List<String> keys(String name) {
        return List.copyOf(keys.getOrDefault(name, List.of()));
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String name = ex.getRequestURI().getPath().substring("/charge/".length());
            ex.getRequestBody().readAllBytes();
            String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
            String response;
            // one lock: a retry racing its first attempt must still charge once
            synchronized (this) {
                keys.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(key == null ? NONE : key);
                response = key == null ? null : firstResponse.get(key);
                if (response == null) {
                    int n = charges.computeIfAbsent(name, x -> new AtomicInteger()).incrementAndGet();
                    response = "charged:" + name + "#" + n;
                    if (key != null) {
                        firstResponse.put(key, response);
                    }
                } else {
                    response = response + " (replayed for " + key.substring(0, 8) + ")";
                }
            }
            if ("lose=1".equals(ex.getRequestURI().getQuery())) {
                try {
                    closing.await(60, TimeUnit.SECONDS); // charged; the answer never comes in time
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return;
            }
            byte[] body = response.getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        closing.countDown();
        server.stop();
    }
}

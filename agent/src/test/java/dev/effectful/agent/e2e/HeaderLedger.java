package dev.effectful.agent.e2e;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback service that records, per name, the value of one request header on every request it gets,
 * as a service that deduplicates on an idempotency header would see them. It lives in the test JVM.
 *
 * <pre>
 * POST /record/NAME          record the header, answer 200 "recorded:NAME"
 * POST /record/NAME?fail=1   record the header, answer 500 (the outcome is then unknown to the caller)
 * </pre>
 */
public final class HeaderLedger implements AutoCloseable {

    /** What {@link #seen} holds for a request that carried no such header. */
    public static final String NONE = "<none>";

    private final String header;
    private final LoopbackServer server;
    private final Map<String, List<String>> seen = new ConcurrentHashMap<>();

    public HeaderLedger(String header) throws IOException {
        this.header = header;
        server = new LoopbackServer("/record/", this::handle);
    }

    public String url() {
        return server.url();
    }

    /** The header's value on each request to {@code /record/NAME}, in arrival order ({@link #NONE} when absent). */
    public List<String> seen(String name) {
        return List.copyOf(seen.getOrDefault(name, List.of()));
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String name = ex.getRequestURI().getPath().substring("/record/".length());
            ex.getRequestBody().readAllBytes();
            String value = ex.getRequestHeaders().getFirst(header);
            seen.computeIfAbsent(name, n -> new CopyOnWriteArrayList<>()).add(value == null ? NONE : value);
            boolean fail = "fail=1".equals(ex.getRequestURI().getQuery());
            byte[] body = (fail ? "failed:" : "recorded:").concat(name).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(fail ? 500 : 200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        server.stop();
    }
}

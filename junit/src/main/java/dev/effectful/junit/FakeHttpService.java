package dev.effectful.junit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A loopback HTTP service for tools that speak HTTP (JDK {@code HttpClient}, {@code HttpURLConnection},
 * OkHttp...). The user's {@link Handler} plays the receiver; the kit puts one fault in front of the next
 * effect request (by default every request that is not GET or HEAD, so probes are answered as is).
 */
public final class FakeHttpService extends ArmedFaultPoint implements AutoCloseable {

    /** The receiver's behaviour, written by the user: apply the effect, answer. */
    @FunctionalInterface
    public interface Handler {
        Response handle(Request request) throws Exception;
    }

    /** A request as the receiver saw it. {@code query} holds the decoded query parameters (first value). */
    public record Request(String method, String path, Map<String, String> query, Map<String, List<String>> headers,
                          String body) {

        /** A header's first value, case-insensitively. */
        public Optional<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).findFirst();
        }

        public Optional<String> query(String name) {
            return Optional.ofNullable(query.get(name));
        }
    }

    /** An answer: status, body (JSON by default), extra headers. */
    public record Response(int status, String body, Map<String, String> headers) {

        public static Response json(int status, String body) {
            return new Response(status, body, Map.of("Content-Type", "application/json"));
        }

        public static Response ok(String jsonBody) {
            return json(200, jsonBody);
        }

        public static Response status(int status) {
            return new Response(status, "", Map.of());
        }
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final Handler handler;
    private final KeyRelay keys;
    /** The next request of any method meets the armed fault (a READ tool's GET), not only an effect request. */
    private volatile boolean faultAnyRequest;
    private volatile String lastEffectRequest;
    private volatile Predicate<Request> effectRequests = r -> !r.method().equals("GET") && !r.method().equals("HEAD");
    private volatile String errorAnswer;

    FakeHttpService(Handler handler, KeyRelay keys) throws IOException {
        this.handler = handler;
        this.keys = keys;
        this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        this.threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "effectful-kit-fake-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::serve);
        server.start();
    }

    /** The service's base address, e.g. {@code http://127.0.0.1:41234/}. */
    public URI uri() {
        return URI.create("http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/");
    }

    /** The body of a 200 that reports a failure, as this receiver would send it (the "200 with an error" check). */
    public FakeHttpService errorAnswer(String body) {
        this.errorAnswer = body;
        return this;
    }

    /** Which requests carry the effect and meet the faults; the default is every request but GET and HEAD. */
    public FakeHttpService effectRequests(Predicate<Request> which) {
        this.effectRequests = which;
        return this;
    }

    @Override
    public void disarm() {
        super.disarm();
        faultAnyRequest = false;
    }

    /** Arms {@code fault} for the next request whatever its method: a READ tool's requests are all GETs. */
    void armAnyRequest(Fault fault) {
        faultAnyRequest = true;
        arm(fault);
    }

    /** The last effect request, as "METHOD /path", or null before any. */
    String lastEffectRequest() {
        return lastEffectRequest;
    }

    @Override
    public boolean answersErrorsInSuccess() {
        return errorAnswer != null;
    }

    private void serve(HttpExchange ex) throws IOException {
        serving.incrementAndGet();
        try {
            Request raw = read(ex);
            boolean effect = effectRequests.test(raw);
            Request req = keys.onRequest(raw, effect);
            Fault fault = null;
            if (effect) {
                lastEffectRequest = req.method() + " /" + req.path().replaceFirst("^/", "");
                fault = effectRequest();
            } else if (faultAnyRequest) {
                fault = takeFault();
            }
            if (fault instanceof Fault.RateLimit r) {
                send(ex, new Response(429, "{\"error\":\"rate limited\"}",
                        Map.of("Retry-After", Long.toString(r.retryAfterSeconds()), "Content-Type", "application/json")));
                return;
            }
            if (fault instanceof Fault.ErrorAnswer && errorAnswer != null) {
                send(ex, Response.ok(errorAnswer));
                return;
            }
            if (fault instanceof Fault.Delay d) {
                try {
                    TimeUnit.NANOSECONDS.sleep(d.delay().toNanos());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            Response answer;
            try {
                answer = handler.handle(req);
            } catch (Exception e) {
                answer = Response.json(500, "{\"error\":\"the fake's handler threw: " + e.getClass().getSimpleName() + "\"}");
            }
            if (fault instanceof Fault.DropAfterEffect drop) {
                drop.afterEffect().run();
                // no status line, no body: closing the exchange before its headers closes the connection
                return;
            }
            send(ex, answer);
        } finally {
            ex.close();
            serving.decrementAndGet();
        }
    }

    private static Request read(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        Map<String, String> query = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
                query.putIfAbsent(k, v);
            }
        }
        return new Request(ex.getRequestMethod(), ex.getRequestURI().getPath(), Map.copyOf(query),
                Map.copyOf(ex.getRequestHeaders()), body);
    }

    private static void send(HttpExchange ex, Response r) throws IOException {
        byte[] bytes = r.body() == null ? new byte[0] : r.body().getBytes(StandardCharsets.UTF_8);
        r.headers().forEach((k, v) -> ex.getResponseHeaders().set(k, v));
        ex.sendResponseHeaders(r.status(), bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}

package dev.effectful.it.events.apps;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.effectful.Task;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An application run under the OpenTelemetry Java agent, with the OpenTelemetry API only (no SDK):
 * a loopback JDK HTTP server whose {@code /agent} handler runs a task calling a guarded tool twice
 * (new, dedup); the tool's body POSTs to {@code /ledger} with the JDK HTTP client. The agent makes
 * the server and client spans; Effectful's span must sit between them.
 */
public final class AgentApp {

    private AgentApp() {
    }

    public static void main(String[] args) throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        AtomicInteger effects = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        server.setExecutor(pool);
        String base = "http://127.0.0.1:" + server.getAddress().getPort();
        ObservedTools tools = new ObservedTools(Path.of(args[0]), what -> post(client, base + "/ledger"));
        server.createContext("/ledger", ex -> {
            effects.incrementAndGet();
            reply(ex, "applied");
        });
        server.createContext("/agent", ex -> {
            String answer;
            try (Task t = Task.open("agent-task", Duration.ofSeconds(60))) {
                answer = tools.sendEmail("ord-1", ObservedTools.SECRET, "Hello") + ","
                        + tools.sendEmail("ord-1", ObservedTools.SECRET, "Hello again");
            }
            reply(ex, answer);
        });
        server.start();
        try {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base + "/agent")).build(),
                    HttpResponse.BodyHandlers.ofString());
            System.out.println("RESULT answer " + r.body());
            System.out.println("RESULT effects " + effects.get());
        } finally {
            server.stop(0);
            pool.shutdown();
        }
    }

    private static void post(HttpClient client, String url) {
        try {
            client.send(HttpRequest.newBuilder(URI.create(url)).POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void reply(HttpExchange ex, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(200, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }
}

package dev.effectful.it.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model on loopback, played offline inside the forked application: the HTTP half of every scripted
 * model the framework tests use, the API's JSON left to a {@link WireFormat}. Set the system property
 * {@code scripted.debug} to print each request and answer on stderr (what a framework really sends is
 * the first thing to look at when a new version changes its wire format).
 */
public final class ScriptedModel implements AutoCloseable {

    /** The Jackson every format builds its JSON with (the framework's own, on the application's path). */
    public static final ObjectMapper JSON = new ObjectMapper();

    private final WireFormat format;
    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "scripted-model");
        t.setDaemon(true);
        return t;
    });
    private final AtomicInteger requests = new AtomicInteger();

    /** Starts serving {@code format} on an ephemeral loopback port. */
    public ScriptedModel(WireFormat format) throws IOException {
        this.format = format;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL to give the framework's client. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + format.basePath();
    }

    /** The requests served so far (rejected ones included), for the application's report. */
    public int requests() {
        return requests.get();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            requests.incrementAndGet();
            byte[] body = exchange.getRequestBody().readAllBytes();
            // a GET (a client asking for its model's metadata) has no body; its format answers it all the same
            JsonNode request = body.length == 0 ? MissingNode.getInstance() : JSON.readTree(body);
            WireFormat.Reply reply = format.answer(exchange.getRequestURI().getPath(), request);
            if (Boolean.getBoolean("scripted.debug")) {
                System.err.println("REQ " + exchange.getRequestURI() + " " + request + "\nANS " + new String(reply.body()));
            }
            for (Map.Entry<String, String> h : reply.headers().entrySet()) {
                exchange.getResponseHeaders().add(h.getKey(), h.getValue());
            }
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), reply.body().length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(reply.body());
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        pool.shutdownNow();
    }
}

package dev.effectful.agent.e2e;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The JDK's HTTP server on an ephemeral loopback port, a thread per exchange, one context: what the test
 * JVM's loopback services (the ledgers) are served by.
 */
public final class LoopbackServer {

    private final HttpServer server;
    private final ExecutorService pool = Executors.newCachedThreadPool();

    /** Serves {@code path} (and below) with {@code handler}, started. */
    public LoopbackServer(String path, HttpHandler handler) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(pool);
        server.createContext(path, handler);
        server.start();
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Stops at once and waits (at most 5 s) for the exchanges under way to end. */
    public void stop() throws InterruptedException {
        server.stop(0);
        pool.shutdownNow();
        pool.awaitTermination(5, TimeUnit.SECONDS);
    }
}

package dev.effectful.cli.console;

import com.sun.net.httpserver.HttpExchange;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static dev.effectful.cli.console.Exchanges.form;
import static dev.effectful.cli.console.Exchanges.text;

/**
 * The console's live updates: a Server-Sent Events stream per open page, polling the data's version and
 * telling the page when it moved. At most {@value #MAX_LIVE_CLIENTS} at once, each on a thread of its own.
 */
final class LiveEvents {

    private static final int MAX_LIVE_CLIENTS = 32;
    private static final long LIVE_POLL_MILLIS = 250;

    private final ConsoleData data;
    private final BooleanSupplier closed;
    private final AtomicInteger liveClients = new AtomicInteger();

    LiveEvents(ConsoleData data, BooleanSupplier closed) {
        this.data = data;
        this.closed = closed;
    }

    /** Server-Sent Events: one "changed" event whenever the data moved, so the page can reload itself. */
    void stream(HttpExchange ex) throws IOException {
        // the page says which version it was rendered from: a change between its render and this stream's
        // start is sent at once instead of being missed (the page would stay stale until the next change)
        long seen = since(form(ex.getRequestURI().getRawQuery()).get("since"));
        if (liveClients.incrementAndGet() > MAX_LIVE_CLIENTS) {
            liveClients.decrementAndGet();
            text(ex, 503, "too many live pages open");
            return;
        }
        ex.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        ex.sendResponseHeaders(200, 0);
        OutputStream out = ex.getResponseBody();
        long lastWrite = System.nanoTime();
        try {
            out.write(("retry: 2000\nevent: hello\ndata: " + seen + "\n\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            boolean first = true;
            while (!closed.getAsBoolean()) {
                if (!first) {
                    TimeUnit.MILLISECONDS.sleep(LIVE_POLL_MILLIS);
                }
                first = false;
                long v = data.version();
                if (v != seen) {
                    seen = v;
                    out.write(("event: changed\ndata: " + v + "\n\n").getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = System.nanoTime();
                } else if (System.nanoTime() - lastWrite > TimeUnit.SECONDS.toNanos(5)) {
                    // a page that went away is noticed only by writing to it
                    out.write(": still here\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    lastWrite = System.nanoTime();
                }
            }
        } catch (IOException | InterruptedException gone) {
            // the page went away, or the console stops
        } finally {
            liveClients.decrementAndGet();
        }
    }

    /** The version a page was rendered from, or now when it says none (a page from an older console). */
    private long since(String given) {
        try {
            return given == null ? data.version() : Long.parseLong(given);
        } catch (NumberFormatException e) {
            return data.version();
        }
    }
}

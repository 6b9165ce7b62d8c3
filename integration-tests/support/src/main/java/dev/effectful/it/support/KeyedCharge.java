package dev.effectful.it.support;

import dev.effectful.Task;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The body of a {@code charge_card} tool, run in the forked application: a charge posted to the
 * {@code DedupLedger} at the system property {@code ledger}. The tool itself (its annotations, its SDK's
 * shape) stays in the framework's test; it calls {@link #charge}, and the agent puts its key on this
 * request's {@code Idempotency-Key} header. The first charge of the process loses its answer when the
 * system property {@code lose} is set (its value: how long the answer is waited for, in ms).
 */
public final class KeyedCharge {

    private static final HttpClient CLIENT = HttpClient.newHttpClient();
    private static final AtomicBoolean LOST = new AtomicBoolean(System.getProperty("lose") == null);
    /** One entry per body that ran: {@code task@thread}. */
    public static final List<String> BODIES = new CopyOnWriteArrayList<>();

    private KeyedCharge() {
    }

    /** Charges {@code orderId}; the service's answer, or an unchecked failure when there is none. */
    public static String charge(String orderId, String amount) {
        BODIES.add(Task.current().map(Task::id).orElse("none") + "@" + Thread.currentThread().getName());
        boolean lose = LOST.compareAndSet(false, true);
        String url = System.getProperty("ledger") + "/charge/" + orderId + (lose ? "?lose=1" : "");
        Duration wait = Duration.ofMillis(lose ? Long.getLong("lose") : 10_000);
        try {
            HttpResponse<String> r = CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(wait)
                    .POST(HttpRequest.BodyPublishers.ofString(amount)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException("HTTP " + r.statusCode());
            }
            return r.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The body of the framework tests' {@code charge_card} tools: a charge at the loopback ledger whose answer
 * is lost the first time it runs in a task (the ledger applies it and never answers, so the call ends in
 * a read timeout after the effect), and the probe that finds it. Each framework's tool class keeps only
 * its own annotations and hands the body here.
 */
public final class FirstAnswerLost {

    private final Duration lose;
    private final Set<String> lostIn = ConcurrentHashMap.newKeySet();
    private final List<String> bodies = new CopyOnWriteArrayList<>();

    /** @param lose how long the lost first answer is waited for before the read times out */
    public FirstAnswerLost(Duration lose) {
        this.lose = lose;
    }

    /** Charges {@code orderId}, recording the body as {@code seen} (e.g. {@link #taskAtThread()}). */
    public String charge(String orderId, String seen) throws IOException, InterruptedException {
        bodies.add(seen);
        if (lostIn.add(Task.current().map(Task::id).orElse("none"))) {
            Http.post("/apply-then-hang/charge", orderId, lose); // applied, then no answer: HttpTimeoutException
            throw new IllegalStateException("the ledger answered an apply-then-hang");
        }
        return Http.effect("charge", orderId);
    }

    /** The probe: the processor's record of a charge for this order; null when there is none. */
    public static String find(String orderId) throws IOException, InterruptedException {
        HttpResponse<String> r = Http.get("/effect/charge", orderId);
        return r.statusCode() == 200 ? r.body() : null;
    }

    /** How a body is usually recorded: {@code task@thread}. */
    public static String taskAtThread() {
        return Task.current().map(Task::id).orElse("none") + "@" + Thread.currentThread().getName();
    }

    /** One entry per body that ran, in order. */
    public List<String> bodies() {
        return bodies;
    }
}

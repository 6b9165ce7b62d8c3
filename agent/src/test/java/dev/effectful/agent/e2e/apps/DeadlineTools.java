package dev.effectful.agent.e2e.apps;

import dev.effectful.Attempt;
import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Task;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Tools for the deadline and propagation tests: plain annotated methods, as an application writes them. */
public class DeadlineTools {

    static String key() {
        return Attempt.current().map(Attempt::intentKey).orElse("no-attempt");
    }

    /**
     * What a tool sees of its task: "ID DEADLINE_NANOS" (deadline on this JVM's nanoTime clock, so a
     * caller on another thread can compare it with its own), or "none".
     */
    @EffectfulTool(kind = EffectKind.READ, name = "where_am_i")
    public String whereAmI(@IntentKey String via) {
        return Task.current().map(t -> t.id() + " " + (System.nanoTime() + t.remaining().toNanos())).orElse("none");
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_with_floor", floorMillis = 5000)
    public String sendWithFloor(@IntentKey String to) throws IOException, InterruptedException {
        return Http.effect("send_with_floor", key());
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "send_small_floor", floorMillis = 100)
    public String sendSmallFloor(@IntentKey String to) throws IOException, InterruptedException {
        return Http.effect("send_small_floor", key());
    }

    /** Applies its effect, then sleeps far past any deadline: only the interrupt ends it. */
    @EffectfulTool(kind = EffectKind.SEND, name = "sleepy_send")
    public String sleepySend(@IntentKey String to) throws IOException, InterruptedException {
        String done = Http.effect("sleepy_send", key());
        Thread.sleep(60_000);
        return done;
    }

    @EffectfulTool(kind = EffectKind.READ, name = "sleepy_read")
    public String sleepyRead(@IntentKey String what) throws InterruptedException {
        Thread.sleep(60_000);
        return "read:" + what;
    }

    /**
     * Applies its effect, then ignores the interrupt at its per-attempt timeout and keeps running for
     * {@code holdMillis}: the engine must not let anything run this intent again meanwhile.
     */
    @EffectfulTool(kind = EffectKind.SEND, name = "stubborn_send", timeoutMillis = 400)
    public String stubbornSend(@IntentKey String to, long holdMillis) throws IOException, InterruptedException {
        String done = Http.effect("stubborn_send", key());
        long end = System.nanoTime() + Duration.ofMillis(holdMillis).toNanos();
        boolean interrupted = false;
        while (System.nanoTime() < end) {
            try {
                Thread.sleep(Math.max(1, (end - System.nanoTime()) / 1_000_000));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            throw new InterruptedException("interrupted while holding");
        }
        return done;
    }

    /** Whether the last {@link #justInTime} body returned normally, and whether that was before its deadline. */
    public static volatile boolean lastReturned;
    public static volatile boolean lastInTime;

    /** Applies its effect and returns 1 ms before the task's deadline. */
    @EffectfulTool(kind = EffectKind.SEND, name = "just_in_time")
    public String justInTime(@IntentKey String to) throws IOException, InterruptedException {
        lastReturned = false;
        lastInTime = false;
        String done = Http.effect("just_in_time", key());
        Task task = Task.current().orElseThrow();
        long deadline = System.nanoTime() + task.remaining().toNanos();
        long returnAt = deadline - 1_000_000;
        long sleepMs = (returnAt - System.nanoTime()) / 1_000_000 - 150; // then spin: sleep can overshoot on a busy machine
        if (sleepMs > 0) {
            Thread.sleep(sleepMs);
        }
        while (System.nanoTime() < returnAt) {
            Thread.onSpinWait();
        }
        lastInTime = System.nanoTime() < deadline;
        lastReturned = true;
        return done;
    }

    @EffectfulTool(kind = EffectKind.SEND, name = "busy_service")
    public HttpResponse<String> busyService(@IntentKey String id) throws IOException, InterruptedException {
        return Http.post("/status/503", id, Duration.ofSeconds(5));
    }
}

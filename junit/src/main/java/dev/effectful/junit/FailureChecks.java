package dev.effectful.junit;

import dev.effectful.EffectApplied;
import dev.effectful.EffectfulTool;
import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * What the six failure checks share: the user's settings, the simulated application each scenario runs in (an
 * engine over a scratch journal and the user's tool, guarded), and the bounded waits. The checks themselves are
 * {@link RepeatChecks} (the same intent again: duplicate delivery, a lost answer, an error in a 200, a read) and
 * {@link FaultChecks} (a kill mid-call, a slow success, a rate limit, a partial batch); {@link ToolCheck} decides
 * which apply to the tool's kind.
 */
class FailureChecks<T> {

    /** What the user said of the tool, as {@link ToolCheck}'s builder collected it. */
    record Settings<T>(EffectfulKit kit, Class<T> type, Supplier<? extends T> factory, ToolCall<T> call,
                       ToolCall<T> rephrased, IntSupplier effects, FaultPoint faults, String invalidItem,
                       boolean heldIsAcceptable, Duration taskBudget) {
    }

    final EffectfulKit kit;
    final Class<T> type;
    final Supplier<? extends T> factory;
    final ToolCall<T> call;
    final ToolCall<T> rephrased;
    final IntSupplier effects;
    final FaultPoint faults;
    final String invalidItem;
    final boolean heldIsAcceptable;
    final Duration taskBudget;

    FailureChecks(Settings<T> s) {
        this.kit = s.kit();
        this.type = s.type();
        this.factory = s.factory();
        this.call = s.call();
        this.rephrased = s.rephrased();
        this.effects = s.effects();
        this.faults = s.faults();
        this.invalidItem = s.invalidItem();
        this.heldIsAcceptable = s.heldIsAcceptable();
        this.taskBudget = s.taskBudget();
    }
    static String brief(String key) {
        return key.length() <= 12 ? key : key.substring(0, 12) + "...";
    }

    /** Waits, at most {@code bound}, until no request is being served at the fault point (a late one has landed). */
    void awaitIdle(Duration bound) {
        long until = System.nanoTime() + bound.toNanos();
        while (!idle(faults) && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static boolean idle(FaultPoint point) {
        if (point instanceof FakeHttpService http) {
            return http.idle();
        }
        return !(point instanceof FakeHooks hooks) || hooks.idle();
    }

    /** The call's answer, or null when it has not returned by {@code deadlineNanos}. */
    static Seen within(Future<Seen> f, long deadlineNanos) throws InterruptedException, ExecutionException {
        try {
            return f.get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException stillRunning) {
            return null;
        }
    }

    /** Waits until no body of {@code log} runs, at most until {@code deadlineNanos}. */
    static void awaitBodies(CallLog log, long deadlineNanos) {
        while (log.running() > 0 && System.nanoTime() < deadlineNanos) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    static String brief(List<Outcome.Item> items) {
        return items.stream().map(i -> i.id() + "=" + i.applied().word()).toList().toString();
    }

    static int size(Object[] args) {
        for (Object a : args) {
            if (a instanceof Collection<?> c) {
                return c.size();
            }
        }
        return 0;
    }

    ToolCall<T> retry() {
        return rephrased != null ? rephrased : call;
    }

    /** One simulated application: a process (engine over a scratch journal) and the user's tool, guarded. */
    final class Scenario {
        final String taskId = "kit-" + UUID.randomUUID().toString().substring(0, 8);
        final AtomicReference<KitProcess> process = new AtomicReference<>();
        final CallLog log = new CallLog();
        /** The receiver's counts when the scenario began: each check counts only what its own calls did. */
        private final int effects0 = effects.getAsInt();
        private final int requests0 = faults.requests();
        T target;
        T view;

        Scenario() {
            Path dir = kit.scratchDir(taskId);
            process.set(kit.register(KitProcess.start(dir)));
            newTool();
        }

        private void newTool() {
            target = factory.get();
            view = GuardedViews.guard(target, process::get, log, kit.keys());
        }

        /** Effects that landed at the receiver since this scenario began. */
        int effects() {
            return effects.getAsInt() - effects0;
        }

        /** Effect requests that reached the receiver since this scenario began, faulted or not. */
        int requests() {
            return faults.requests() - requests0;
        }

        /** The check's call, then {@code second}, in the scenario's one task, as a run calling the tool twice would. */
        TwoCalls callThen(ToolCall<T> second) {
            try (Task t = Task.open(taskId, taskBudget)) {
                Seen first = Seen.of(call, view);
                return new TwoCalls(first, Seen.of(second, view));
            }
        }

        /** The process died: a new one over the same journal, with the application's tool built anew. */
        void restart() {
            process.set(kit.register(process.get().restart()));
            newTool();
        }

        List<JournalRecord> records(RecordType type) {
            return process.get().journal().all().stream().filter(r -> r.type() == type).toList();
        }

        String firstMethodName() {
            List<CallLog.Entry> e = log.entries();
            return e.isEmpty() ? "Effect" : e.get(0).method().getName();
        }
    }

    /** What the two calls of {@link Scenario#callThen} gave their caller, in order. */
    record TwoCalls(Seen first, Seen second) {
    }

    /** The call answered effect no (retryable or permanent) although the receiver counted an effect. */
    static boolean deniesEffect(Seen seen, int landed) {
        return landed > 0 && seen.outcome().map(o -> o.effectApplied() == EffectApplied.NO && !o.isOk()).orElse(false);
    }

    static String deniedAdvice(EffectfulTool spec) {
        List<String> declared = new ArrayList<>();
        for (Class<?> c : spec.retryableOn()) {
            declared.add("retryableOn " + c.getSimpleName());
        }
        for (Class<?> c : spec.permanentOn()) {
            declared.add("permanentOn " + c.getSimpleName());
        }
        return "an outcome of effect no is a lie the next call acts on: it runs the body again, a duplicate."
                + (declared.isEmpty() ? " The tool reported effect no itself (an Outcome or ToolOutcomeException):"
                + " report Outcome.unknown(...) when the request may have reached the receiver;"
                : " The exception matched " + declared + ":")
                + " don't declare this exception retryableOn/permanentOn, or let it through as unknown (a lost answer"
                + " is unknown, and the probe or the key settles it)";
    }
}

package dev.effectful.junit;

import static dev.effectful.junit.ToolCheck.OUTLIVED_AFTER;
import static dev.effectful.junit.ToolCheck.RATE_LIMIT_SECONDS;
import static dev.effectful.junit.ToolCheck.SLOW_BUDGET;
import static dev.effectful.junit.ToolCheck.SLOW_DELAY;
import static dev.effectful.junit.ToolCheck.STRAGGLER_WAIT;

import dev.effectful.EffectApplied;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.Task;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The checks that break the call itself: a kill in the middle of it, a success slower than the deadline, a
 * rate limit with Retry-After, and a batch the receiver takes in part.
 */
final class FaultChecks<T> extends FailureChecks<T> {

    FaultChecks(Settings<T> s) {
        super(s);
    }

    Verdict killMidCall(String tool, EffectfulTool spec) {
        Verdict lost = lostAnswer(tool, spec);
        if (lost.failed()) {
            return lost;
        }
        Scenario s = new Scenario();
        int k0 = kit.keys().mark();
        boolean crashed = false;
        Seen before = null;
        faults.arm(new Fault.DropAfterEffect(() -> s.process.get().kill()));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            try {
                before = Seen.of(call, s.view);
            } catch (SimulatedCrash died) {
                crashed = true;
            }
        } finally {
            faults.disarm();
        }
        // a call lambda may wrap what it catches (reflection, a helper): the process is dead all the same
        crashed |= s.process.get().dead();
        if (!crashed) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, "no effect request reached the fault point ("
                    + s.requests() + " request(s)); the call " + before.describe(),
                    "point .faultsAt(...) at the receiver this tool calls (for the kit's fake service: the effect"
                            + " requests are those that are not GET or HEAD unless effectRequests(...) says otherwise)");
        }
        awaitIdle(STRAGGLER_WAIT);
        int landed = s.effects();
        s.restart();
        Seen after;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            after = Seen.of(retry(), s.view);
        }
        awaitIdle(STRAGGLER_WAIT);
        int total = s.effects();
        List<KeyRelay.Sent> keyed = kit.keys().since(k0);
        List<String> keys = keyed.stream().map(KeyRelay.Sent::key).distinct().toList();
        ProbeResult probe = s.records(RecordType.PROBE).stream().map(JournalRecord::probe).filter(Objects::nonNull)
                .findFirst().orElse(null);
        String happened = "the effect landed (" + landed + "), the process died before its outcome was written;"
                + " after a restart the rephrased retry " + after.describe() + (probe == null ? "" : ", probe "
                + probe.word()) + "; " + total + " effect(s) in all"
                + (keyed.isEmpty() ? "" : "; " + keyed.size() + " effect request(s) carried " + keyed.get(0).header()
                + (keys.size() == 1 ? " " + brief(keys.get(0)) + " each time" : " different values " + keys.stream()
                .map(FailureChecks::brief).toList()));
        if (total > 1) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, repeatAdvice(spec, keyed, keys));
        }
        if (!spec.keyable() && keyed.stream().anyMatch(KeyRelay.Sent::setByApplication)) {
            // the kit journaled the key as sent; the agent would not have, for a value that is not the key
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "the requests carried " + spec.keyHeader()
                    + " values the application set, not the intent key, so under the agent nothing records a key"
                    + " going out and an unknown outcome is held for a person: set the header to"
                    + " Attempt.current().orElseThrow().requestKey() (Stripe: RequestOptions.setIdempotencyKey), or"
                    + " leave it unset so the agent sets it");
        }
        if (after.ok() && total == 1) {
            return Verdict.pass(Check.KILL_MID_CALL, tool, happened);
        }
        if (after.status() == Status.UNKNOWN && spec.probe().isEmpty()) {
            return heldVerdict(tool, spec, s, happened);
        }
        if (probe == ProbeResult.FAILED || after.status() == Status.UNKNOWN) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "the probe could not answer: make "
                    + spec.probe() + " return the effect when present and null / empty when absent, without throwing");
        }
        return Verdict.fail(Check.KILL_MID_CALL, tool, happened, "after a crash the retry must end ok with the one"
                + " effect: probe it (probe = ...) so the engine can settle it");
    }

    /** What to change when the retry after a crash applied the effect again, by what the tool declares. */
    private static String repeatAdvice(EffectfulTool spec, List<KeyRelay.Sent> keyed, List<String> keys) {
        return !spec.probe().isEmpty()
                ? "probe " + spec.probe() + " answered absent although the receiver had the effect, so the body ran"
                + " again: make it look the effect up by what the body sent (the @IntentKey arguments, or the key"
                + " passed from Attempt.current().orElseThrow().requestKey())"
                : !spec.keyHeader().isEmpty() ? keyHeaderAdvice(spec, keyed, keys)
                : spec.keyable() ? "keyable = true, but the receiver applied the retry again: send"
                + " Attempt.current().orElseThrow().requestKey() as the receiver's idempotency key (the same on"
                + " every attempt, never a random one), or add a probe"
                : "the retry ran the body again: add probe = \"...\" to look the effect up before a second attempt";
    }

    /** An unknown outcome held for a person: acceptable when the test says so, else a probe is what is missing. */
    private Verdict heldVerdict(String tool, EffectfulTool spec, Scenario s, String happened) {
        String held = happened + ": held for a person";
        if (heldIsAcceptable) {
            return Verdict.pass(Check.KILL_MID_CALL, tool, held + " (accepted for this tool)");
        }
        return Verdict.fail(Check.KILL_MID_CALL, tool, held + ", because " + spec.kind()
                + " tools without a probe cannot tell whether the first attempt landed", "add probe = \"find"
                + Character.toUpperCase(s.firstMethodName().charAt(0)) + s.firstMethodName().substring(1)
                + "\" to @EffectfulTool: a method with the same parameters that looks the effect up at the receiver"
                + " (null / empty Optional / false when absent)");
    }

    /** Why a key-header tool's re-run applied again, judged by the keys the service saw. */
    private static String keyHeaderAdvice(EffectfulTool spec, List<KeyRelay.Sent> keyed, List<String> keys) {
        String header = spec.keyHeader();
        if (keyed.isEmpty()) {
            return "keyHeader = \"" + header + "\" puts the key on HTTP requests the body sends, but no request of this"
                    + " tool reached the kit's HTTP service: pass Attempt.current().orElseThrow().requestKey() to the"
                    + " receiver yourself and declare keyable = true, or add probe = \"...\"";
        }
        if (keys.size() > 1 || keyed.stream().anyMatch(KeyRelay.Sent::setByApplication)) {
            return "the requests carried " + header + " values set by the application or its library, not the intent"
                    + " key, and they changed between attempts: set the header to"
                    + " Attempt.current().orElseThrow().requestKey() (Stripe: RequestOptions.setIdempotencyKey), or leave"
                    + " it unset so the agent sets it";
        }
        return "both requests carried " + header + " " + brief(keys.get(0)) + " and the receiver applied both: it does not"
                + " deduplicate on " + header + " (make your fake answer a repeated key with its first response, as"
                + " the real service does), or add probe = \"...\"";
    }

    Verdict slowSuccess(String tool) {
        Scenario s = new Scenario();
        Seen first = null;
        Seen second = null;
        String unfinished = null;
        ExecutorService pool = Executors.newFixedThreadPool(2, r -> {
            Thread th = new Thread(r, "effectful-kit-slow-success");
            th.setDaemon(true);
            return th;
        });
        long started = System.nanoTime();
        // a body past its deadline gets this long to end before it is judged (and its late request to land)
        long judgeAt = started + SLOW_BUDGET.toNanos() + STRAGGLER_WAIT.toNanos();
        faults.arm(new Fault.Delay(SLOW_DELAY));
        try (Task t = Task.open(s.taskId, SLOW_BUDGET)) {
            Future<Seen> f1 = pool.submit(Task.wrap(() -> Seen.of(call, s.view)));
            long until = System.nanoTime() + SLOW_BUDGET.toNanos();
            while (s.requests() == 0 && System.nanoTime() < until && !f1.isDone()) {
                Thread.sleep(5);
            }
            // the model, tired of waiting, retries while the first is still at the receiver
            Future<Seen> f2 = pool.submit(Task.wrap(() -> Seen.of(retry(), s.view)));
            first = within(f1, judgeAt);
            second = within(f2, judgeAt);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            unfinished = "the kit's thread was interrupted";
        } catch (ExecutionException e) {
            unfinished = "the call failed in the kit: " + e.getCause();
        } finally {
            faults.disarm();
            pool.shutdownNow();
        }
        // counted once the bodies have ended and the receiver has answered every request (bounded): an effect
        // that lands after its caller gave up is still an effect
        awaitBodies(s.log, judgeAt);
        awaitIdle(Duration.ofNanos(Math.max(0, judgeAt - System.nanoTime())).plus(SLOW_DELAY));
        int delta = s.effects();
        int requests = s.requests();
        String happened = "the effect landed " + SLOW_DELAY.toMillis() + " ms into a " + SLOW_BUDGET.toMillis()
                + " ms budget while a rephrased retry came in: " + requests + " request(s), " + delta + " effect(s);"
                + " first " + (first == null ? "had not returned" : first.describe()) + "; retry "
                + (second == null ? "had not returned" : second.describe());
        Optional<CallLog.Body> late = s.log.latestPastDeadline()
                .filter(b -> b.overshootNanos() > OUTLIVED_AFTER.toNanos());
        if (late.isPresent()) {
            CallLog.Body b = late.get();
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened + "; a body " + (b.ended() ? "ended "
                    + TimeUnit.NANOSECONDS.toMillis(b.overshootNanos()) + " ms after its deadline" : "was still running "
                    + TimeUnit.NANOSECONDS.toMillis(b.overshootNanos()) + " ms after its deadline") + ", although the"
                    + " engine interrupted it there", "a body that outlives its deadline can still apply an effect after"
                    + " the caller was told unknown: let InterruptedException end the body, or check"
                    + " Thread.interrupted() in its loop (do not catch and carry on)");
        }
        if (unfinished != null || first == null || second == null) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened + (unfinished == null ? "" : "; " + unfinished),
                    "a tool call must end within its task budget");
        }
        if (requests > 1 || delta > 1) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened, s.log.mostAtOnce() > 1
                    ? "two bodies ran at once for one intent: keep the @IntentKey arguments equal in the retry"
                    : "the tool sent a second request while the first was still being answered: remove its own retry"
                    + " or a client timeout shorter than the receiver's answer; let it fail and let the engine decide");
        }
        if (!first.ok()) {
            return Verdict.fail(Check.SLOW_SUCCESS, tool, happened, "the effect landed in time but the caller was told"
                    + " otherwise: do not give up before the task budget (check the tool's client timeout)");
        }
        return Verdict.pass(Check.SLOW_SUCCESS, tool, happened);
    }

    Verdict rateLimit(String tool) {
        Scenario s = new Scenario();
        Seen limited;
        Seen early;
        Seen later;
        int r1;
        int r2;
        faults.arm(new Fault.RateLimit(RATE_LIMIT_SECONDS));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            limited = Seen.of(call, s.view);
            // Retry-After counts from the answer, as the engine counts it from the attempt's end
            long at = System.nanoTime();
            faults.disarm();
            r1 = s.requests();
            early = Seen.of(retry(), s.view);
            r2 = s.requests();
            long wait = TimeUnit.SECONDS.toNanos(RATE_LIMIT_SECONDS) + TimeUnit.MILLISECONDS.toNanos(50)
                    - (System.nanoTime() - at);
            if (wait > 0) {
                // waiting out the receiver's own Retry-After is the behaviour under test, not a guess
                TimeUnit.NANOSECONDS.sleep(wait);
            }
            later = Seen.of(retry(), s.view);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Verdict.fail(Check.RATE_LIMIT, tool, "interrupted", "");
        } finally {
            faults.disarm();
        }
        int delta = s.effects();
        Long retryAfter = limited.outcome().map(Outcome::retryAfterS).orElse(null);
        String happened = "429 with Retry-After: " + RATE_LIMIT_SECONDS + "; the call " + limited.describe()
                + " after " + r1 + " request(s); an immediate retry " + early.describe() + " with "
                + (r2 - r1) + " more request(s); after the wait " + later.describe() + "; " + delta + " effect(s)";
        if (r1 > 1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "the tool called the receiver again right after the"
                    + " 429 without waiting: remove its own retry; report the 429 and let the engine hold the retry");
        }
        if (limited.status() != Status.RETRYABLE || retryAfter == null || retryAfter < RATE_LIMIT_SECONDS) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "the Retry-After was lost: turn the 429 into"
                    + " ToolOutcomeException(Outcome.retryable(\"429 ...\").withRetryAfterS(seconds)) (or return an"
                    + " Outcome like it), or let an HTTP exception carrying the status and headers propagate");
        }
        if (r2 > r1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "a retry before Retry-After passed reached the"
                    + " receiver: keep the retry's @IntentKey arguments equal to the first call's");
        }
        if (!later.ok() || delta != 1) {
            return Verdict.fail(Check.RATE_LIMIT, tool, happened, "once Retry-After passed the retry must go through"
                    + " with exactly one effect");
        }
        return Verdict.pass(Check.RATE_LIMIT, tool, happened);
    }

    Verdict partialBatch(String tool) {
        Scenario s = new Scenario();
        // the second call is the retry: what it sent is read from the call log below, not from its answer
        Seen first = s.callThen(call).first();
        int delta = s.effects();
        List<CallLog.Entry> entries = s.log.entries();
        int sent = entries.isEmpty() ? 0 : size(entries.get(0).args());
        List<Outcome.Item> items = first.outcome().map(Outcome::items).orElse(List.of());
        Object[] retried = entries.size() < 2 ? null : entries.get(1).bodyArgs();
        int resent = retried == null ? 0 : size(retried);
        String happened = sent + " items, one ('" + invalidItem + "') invalid: the call " + first.describe()
                + " with " + (items.isEmpty() ? "no per-item outcomes" : items.size() + " item outcomes " + brief(items))
                + "; the retry sent " + resent + " item(s); " + delta + " effect(s)";
        Optional<Outcome.Item> bad = items.stream().filter(i -> i.id().equals(invalidItem)).findFirst();
        long appliedOthers = items.stream().filter(i -> !i.id().equals(invalidItem))
                .filter(i -> i.applied() == EffectApplied.YES).count();
        boolean oneForAll = items.stream().map(Outcome.Item::applied).distinct().count() <= 1;
        if (items.size() != sent || oneForAll || bad.isEmpty()) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the batch reported one outcome for all its items:"
                    + " name each item in the Outcome it returns (Outcome.Item.applied(id), Outcome.Item.rejected(id,"
                    + " reason)) or with Attempt.report(item) as it goes, instead of throwing for the whole batch");
        }
        if (bad.get().applied() != EffectApplied.NO || bad.get().status() != Status.PERMANENT) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the invalid item must be reported rejected"
                    + " (Outcome.Item.rejected(id, reason)): permanent, not applied");
        }
        if (appliedOthers != sent - 1 || delta != sent - 1) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "every valid item must be applied exactly once and"
                    + " reported applied");
        }
        if (resent > sent - appliedOthers) {
            return Verdict.fail(Check.PARTIAL_BATCH, tool, happened, "the retry sent items that had landed: report"
                    + " them applied so the engine leaves them out");
        }
        return Verdict.pass(Check.PARTIAL_BATCH, tool, happened);
    }

    /**
     * The answer is lost after the effect, the process lives: what the call says must not be "effect no".
     * A tool that maps the client's exception to retryable/no or permanent/no tells the next call the
     * effect did not happen, and the next call runs it again.
     */
    Verdict lostAnswer(String tool, EffectfulTool spec) {
        Scenario s = new Scenario();
        Seen seen;
        faults.arm(new Fault.DropAfterEffect(() -> { }));
        try (Task t = Task.open(s.taskId, taskBudget)) {
            seen = Seen.of(call, s.view);
        } finally {
            faults.disarm();
        }
        awaitIdle(STRAGGLER_WAIT);
        int landed = s.effects();
        String happened = "the effect landed (" + landed + ") and the connection dropped, the process alive: the call "
                + seen.describe();
        if (deniesEffect(seen, landed)) {
            return Verdict.fail(Check.KILL_MID_CALL, tool, happened, deniedAdvice(spec));
        }
        return Verdict.pass(Check.KILL_MID_CALL, tool, happened);
    }
}

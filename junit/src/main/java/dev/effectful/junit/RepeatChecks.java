package dev.effectful.junit;

import static dev.effectful.junit.ToolCheck.STRAGGLER_WAIT;

import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Outcome;
import dev.effectful.Task;

import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks that send the same intent again: a duplicate delivery (the model's rephrased retry), a lost answer,
 * an error inside a 200, and a READ tool called twice.
 */
final class RepeatChecks<T> extends FailureChecks<T> {

    RepeatChecks(Settings<T> s) {
        super(s);
    }

    Verdict duplicateDelivery(String tool, Method method, EffectfulTool spec, List<Verdict> audit) {
        Scenario s = new Scenario();
        Seen first;
        Seen second;
        int afterFirst;
        try (Task t = Task.open(s.taskId, taskBudget)) {
            first = Seen.of(call, s.view);
            afterFirst = s.effects();
            if (first.ok() && !spec.probe().isEmpty()) {
                audit.add(probeSeesEffect(tool, spec, s));
            }
            second = Seen.of(retry(), s.view);
        }
        awaitIdle(STRAGGLER_WAIT);
        int delta = s.effects();
        String happened = "called twice in one task (the second rephrased): " + delta + " effect(s); first "
                + first.describe() + "; second " + second.describe();
        if (deniesEffect(first, afterFirst)) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened + "; the first call's outcome says effect no"
                    + " although the receiver applied " + afterFirst, deniedAdvice(spec));
        }
        if (!first.ok()) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the first call failed with no fault injected:"
                    + " make the call and the fake succeed before judging retries");
        }
        if (delta > 1) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, keyAdvice(method, s));
        }
        if (delta == 0) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "no effect was counted: .effects(...) must"
                    + " count what the receiver applied");
        }
        if (!second.ok()) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the repeat must return the original"
                    + " success: a model reading an error retries again");
        }
        if (!Objects.equals(first.payload(), second.payload())) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "the repeat returned a different value: make"
                    + " the return type serializable to JSON and back (a record, a String, a List...) so the stored"
                    + " original can be returned");
        }
        return Verdict.pass(Check.DUPLICATE_DELIVERY, tool, happened);
    }

    /** Why two calls of one intent both ran: the key parameters that differ, or no key at all. */
    private String keyAdvice(Method method, Scenario s) {
        List<CallLog.Entry> entries = s.log.entries();
        Method declared = GuardedViews.toolMethod(type, method).orElseThrow();
        Parameter[] params = declared.getParameters();
        List<String> keyedNone = new ArrayList<>();
        if (entries.size() >= 2) {
            Object[] a = entries.get(0).args();
            Object[] b = entries.get(1).args();
            List<String> differing = new ArrayList<>();
            for (int i = 0; i < params.length; i++) {
                if (params[i].isAnnotationPresent(IntentKey.class)) {
                    keyedNone.add(params[i].getName());
                    if (!Objects.equals(a[i], b[i])) {
                        differing.add(params[i].getName());
                    }
                }
            }
            if (!differing.isEmpty()) {
                return "the intent key is built from " + differing + ", which the rephrased retry changed, so the"
                        + " retry ran as a new intent: remove @IntentKey from free text; key on what identifies the act"
                        + " (an order id, a recipient)";
            }
        }
        if (keyedNone.isEmpty()) {
            return "no parameter is marked @IntentKey, so each call is a new intent: mark the parameter(s) naming what"
                    + " is acted on (an order id, a recipient) with @IntentKey";
        }
        return "the two calls were one intent but both reached the receiver: the receiver applied a repeat the engine"
                + " let through; check that .rephrased(...) keeps the @IntentKey arguments " + keyedNone;
    }

    /** Calls the declared probe right after a real effect: it must find it. */
    Verdict probeSeesEffect(String tool, EffectfulTool spec, Scenario s) {
        CallLog.Entry e = s.log.entries().get(0);
        Method probe = ToolAudit.find(e.method().getDeclaringClass(), spec.probe(), e.method().getParameterTypes());
        if (probe == null) {
            return Verdict.skipped(Check.AUDIT, tool, "probe " + spec.probe() + " not found (see the audit)");
        }
        Object found;
        try {
            probe.setAccessible(true);
            found = probe.invoke(s.target, e.args());
        } catch (ReflectiveOperationException | RuntimeException ex) {
            Throwable cause = ex instanceof java.lang.reflect.InvocationTargetException ite ? ite.getCause() : ex;
            return Verdict.fail(Check.AUDIT, tool, "probe " + spec.probe() + " threw right after a real effect: " + cause,
                    "make the probe answer (found / absent) for the arguments the tool was called with");
        }
        boolean absent = found == null || found instanceof Optional<?> o && o.isEmpty() || Boolean.FALSE.equals(found);
        if (absent) {
            return Verdict.fail(Check.AUDIT, tool, "probe " + spec.probe() + " answered absent right after the tool's"
                    + " effect landed at the receiver", "the probe cannot see what the body did: look the effect up by"
                    + " what the body sent (the @IntentKey arguments, or the key it passed from"
                    + " Attempt.current().orElseThrow().requestKey())");
        }
        return Verdict.pass(Check.AUDIT, tool, "probe " + spec.probe() + " found the effect right after it landed");
    }

    /** A READ tool called twice: it runs each time by design, so it must change nothing at the receiver. */
    Verdict readOnly(String tool) {
        Scenario s = new Scenario();
        TwoCalls calls = s.callThen(retry());
        awaitIdle(STRAGGLER_WAIT);
        int delta = s.effects();
        FakeHttpService http = faults instanceof FakeHttpService f ? f : null;
        // every request through FakeHooks.around counts, reads included: there only the counted effects say it
        int effectRequests = http == null ? 0 : s.requests();
        String happened = "called twice (a READ runs every time): " + delta + " effect(s) at the receiver"
                + (http == null ? "" : ", " + effectRequests + " effect request(s)" + (effectRequests == 0 ? ""
                : " (the last " + http.lastEffectRequest() + ")")) + "; first " + calls.first().describe() + "; second "
                + calls.second().describe();
        if (delta > 0 || effectRequests > 0) {
            return Verdict.fail(Check.DUPLICATE_DELIVERY, tool, happened, "a READ tool changed the receiver's state, and"
                    + " a READ is never deduplicated, probed or held, so every retry does it again: declare it"
                    + " SEND/CREATE/..., or make it read only" + (delta > 0 ? "" : " (if that request changes"
                    + " nothing, tell the fake with effectRequests(...))"));
        }
        return Verdict.pass(Check.DUPLICATE_DELIVERY, tool, happened);
    }

    Verdict errorInSuccess(String tool, EffectfulTool spec, boolean read) {
        if (!faults.answersErrorsInSuccess()) {
            return Verdict.skipped(Check.ERROR_IN_SUCCESS, tool, "the fake gave no error answer: use"
                    + " FakeHttpService.errorAnswer(body) or FakeHooks.around(effect, errorAnswer)");
        }
        Scenario s = new Scenario();
        Seen seen;
        if (read && faults instanceof FakeHttpService http) {
            // a READ's requests are GETs, which effect faults pass by
            http.armAnyRequest(new Fault.ErrorAnswer());
        } else {
            faults.arm(new Fault.ErrorAnswer());
        }
        try (Task t = Task.open(s.taskId, taskBudget)) {
            seen = Seen.of(call, s.view);
        } finally {
            faults.disarm();
        }
        String happened = "the receiver answered success with an error inside; the call " + seen.describe();
        if (seen.ok()) {
            return Verdict.fail(Check.ERROR_IN_SUCCESS, tool, happened, spec.check().isEmpty()
                    ? "add check = \"check" + Character.toUpperCase(s.firstMethodName().charAt(0))
                    + s.firstMethodName().substring(1) + "\" to @EffectfulTool: a method taking the returned value"
                    + " that throws when it reports a failure (IllegalArgumentException when a retry cannot help,"
                    + " ToolOutcomeException(Outcome.retryable(...)) when it can)"
                    : "check " + spec.check() + " let the error answer through: make it throw when the returned value"
                    + " reports a failure");
        }
        return Verdict.pass(Check.ERROR_IN_SUCCESS, tool, happened);
    }

}

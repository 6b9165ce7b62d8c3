package dev.effectful.runtime.engine;

import dev.effectful.Attempt;
import dev.effectful.EffectApplied;
import dev.effectful.Outcome;
import dev.effectful.Status;
import dev.effectful.ToolOutcomeException;
import dev.effectful.runtime.classify.Classification;
import dev.effectful.runtime.events.Reentry;
import dev.effectful.core.journal.AttemptIds;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.IntentKeys;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ReentryRules;
import dev.effectful.core.reentry.StoreUnavailableException;
import dev.effectful.runtime.tool.BatchSpec;
import dev.effectful.runtime.tool.ToolMethod;
import dev.effectful.core.values.ParamSpec;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The protocol for batch tools: every item is its own intent (the call's key plus the item key)
 * with its own intent and outcome records, so a retry touches only the items that did not land.
 * Items already ok are not sent again, items refused for good are reported and not sent, unknown
 * items are probed one by one (or held), and the body receives a collection of the same kind
 * holding only the rest. When the body throws, the items it did not name (in its outcome or with
 * {@code Attempt.report}) are unknown whatever the exception: it describes one request, not the
 * items sent before it.
 */
final class BatchProtocol {

    private final CallSteps steps;

    BatchProtocol(CallSteps steps) {
        this.steps = steps;
    }

    /** Where each item of the call stands before the body runs. */
    enum Plan { SEND, DONE, REJECTED, HELD, WAIT }

    static final class ItemPlan {
        final String id;
        final String key;
        final Object item;
        Plan plan;
        int attempt;
        String reason;
        Long retryAfterS;

        ItemPlan(String id, String key, Object item) {
            this.id = id;
            this.key = key;
            this.item = item;
        }
    }

    void begin(Call call) {
        ToolMethod tool = call.tool;
        BatchSpec spec = tool.batch().orElseThrow();
        Object raw = call.args[spec.itemsIndex()];
        Collection<?> items = raw instanceof Collection<?> c ? c : List.of();
        List<ItemPlan> plans = plan(call, spec, items);
        if (plans == null) {
            return;
        }
        call.planItems(plans);
        if (!decideAll(call, plans)) {
            return;
        }
        List<Object> toSend = new ArrayList<>();
        int attempt = 0;
        for (ItemPlan p : plans) {
            if (p.plan == Plan.SEND) {
                toSend.add(p.item);
                attempt = Math.max(attempt, p.attempt);
            }
        }
        if (toSend.isEmpty()) {
            steps.finish(call, complete(call, null, null, false));
            return;
        }
        call.started(attempt, AttemptIds.of(call.task().id(), call.intentKey(), attempt));
        if (!journalIntents(call, spec, plans)) {
            return;
        }
        call.markJournaled();
        Object[] replaced = call.args.clone();
        replaced[spec.itemsIndex()] = BatchSpec.sameKind(items, toSend);
        call.sendOnly(replaced);
        call.runAs(new Attempt(call.intentKey(), attempt, call.attemptId()));
        bindKeys(call, tool, plans);
        steps.armDeadline(call);
        steps.records().events().intent(call);
    }

    /** One plan per item, keyed by the item's id; null when an item has no id or two share one (refused). */
    private List<ItemPlan> plan(Call call, BatchSpec spec, Collection<?> items) {
        List<ItemPlan> plans = new ArrayList<>(items.size());
        Map<String, ItemPlan> seen = new HashMap<>();
        for (Object item : items) {
            String id;
            try {
                id = spec.itemId(item);
            } catch (IllegalArgumentException e) {
                steps.refuse(call, Status.PERMANENT, EffectApplied.NO, null, e.getMessage() + "; the call was not made");
                return null;
            }
            if (seen.containsKey(id)) {
                steps.refuse(call, Status.PERMANENT, EffectApplied.NO, null, "two " + spec.noun() + " share the item key '"
                        + id + "'; the call was not made");
                return null;
            }
            ItemPlan p = new ItemPlan(id, IntentKeys.forItem(call.intentKey(), id), item);
            seen.put(id, p);
            plans.add(p);
        }
        return plans;
    }

    /** Each item decided in turn; false when the store failed (the items claimed so far given up, the call refused). */
    private boolean decideAll(Call call, List<ItemPlan> plans) {
        for (int i = 0; i < plans.size(); i++) {
            try {
                decide(call, plans.get(i));
            } catch (StoreUnavailableException e) {
                for (ItemPlan claimed : plans.subList(0, i)) {
                    if (claimed.plan == Plan.SEND) {
                        steps.store().abandon(claimed.key, claimed.attempt);
                    }
                }
                steps.refuse(call, e.misconfigured() ? Status.PERMANENT : Status.RETRYABLE, EffectApplied.NO, null,
                        e.getMessage() + "; the call was not made");
                return false;
            }
        }
        return true;
    }

    /** An intent record per item to send, before any is sent; false when the journal refused (the call refused). */
    private boolean journalIntents(Call call, BatchSpec spec, List<ItemPlan> plans) {
        ParamSpec itemSpec = new ParamSpec(spec.noun(), false, false, false);
        try {
            for (ItemPlan p : plans) {
                if (p.plan == Plan.SEND) {
                    JournalRecord intent = steps.records().base(call, RecordType.INTENT).intentKey(p.key).item(p.id).reentry(KeyHeaders.reentryWord(call.tool))
                            .attempt(p.attempt).attemptId(attemptId(call, p)).started(call.startedMillis())
                            .budgetLeftS(call.task().leftSeconds())
                            .args(steps.argsRenderer().render(new Object[] {p.item}, new ParamSpec[] {itemSpec})).build();
                    steps.records().appendItemIntent(intent);
                }
            }
            return true;
        } catch (JournalUnavailableException e) {
            steps.refuse(call, JournalRefusal.status(e.problem()), EffectApplied.NO, e.retryAfterS(), e.getMessage() + "; the call was not made");
            return false;
        }
    }

    /** The key header of each item sent: its key_sent names the item's own intent and attempt, as its intent record does. */
    private void bindKeys(Call call, ToolMethod tool, List<ItemPlan> plans) {
        java.util.Map<String, ItemPlan> sentKeys = new java.util.HashMap<>();
        for (ItemPlan p : plans) {
            if (p.plan == Plan.SEND) {
                sentKeys.put(p.key, p);
            }
        }
        call.bindAttempt(KeyHeaders.bind(tool, call.batchAttempt(), sentKeys.keySet(), call.batchAttempt().makeCurrent(),
                key -> {
                    ItemPlan p = sentKeys.get(key);
                    return p != null && steps.records().appendKeySent(call, key, p.attempt, attemptId(call, p), p.id);
                }));
    }

    private void decide(Call call, ItemPlan p) {
        ToolMethod tool = call.tool;
        // an item running on another host is waited for, like a whole call; past the budget it is reported
        Decision d = steps.store().decideAndClaim(p.key, new IntentStore.IntentMeta(call.task().id(), tool.verb(),
                        tool.kind().name().toLowerCase(java.util.Locale.ROOT)),
                (state, now) -> ReentryRules.decideItem(state, ApiWords.kind(tool.kind()), tool.keyable(), tool.probe().isPresent(),
                        p.key, now), call.task().hasBudget() ? call.task().leftNanos() : Admission.NO_BUDGET_WAIT_NANOS);
        if (d instanceof Decision.Run run) {
            p.plan = Plan.SEND;
            p.attempt = run.attempt();
        } else if (d instanceof Decision.Replay) {
            p.plan = Plan.DONE;
        } else if (d instanceof Decision.Refuse r) {
            p.plan = r.status() == OutcomeWord.PERMANENT ? Plan.REJECTED : r.status() == OutcomeWord.RETRYABLE ? Plan.WAIT : Plan.HELD;
            p.reason = r.message();
            p.retryAfterS = r.retryAfterS();
        } else if (d instanceof Decision.Probe probe) {
            probeItem(call, p, probe.lastAttempt());
        } else if (d instanceof Decision.Elsewhere e) {
            p.plan = Plan.WAIT;
            p.reason = "running on " + e.holder() + "; not sent again beside it";
        }
    }

    private void probeItem(Call call, ItemPlan p, int lastAttempt) {
        BatchSpec spec = call.tool.batch().orElseThrow();
        Object[] args = call.args.clone();
        args[spec.itemsIndex()] = BatchSpec.sameKind((Collection<?>) call.args[spec.itemsIndex()], List.of(p.item));
        long started = System.currentTimeMillis();
        ProbeRunner.Result r = steps.probes().run(call.tool, call.self, args);
        ProbeResult word = r.word();
        if (word == ProbeResult.FOUND && r.value() instanceof Outcome<?> o && !foundIn(o, p.id)) {
            word = ProbeResult.ABSENT;
        }
        JournalRecord.Builder rec = steps.records().base(call, RecordType.PROBE).intentKey(p.key).item(p.id).attempt(lastAttempt)
                .started(started).durationMs(System.currentTimeMillis() - started).probe(word);
        switch (word) {
            case FOUND -> {
                steps.records().appendAndApply(rec.outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
                p.plan = Plan.DONE;
            }
            case ABSENT -> {
                steps.records().appendAndApply(rec.build());
                p.plan = Plan.SEND;
                p.attempt = lastAttempt + 1;
            }
            default -> {
                steps.records().appendAndApply(rec.outcome(OutcomeWord.UNKNOWN).effectApplied(Effect.UNKNOWN).message(r.message()).build());
                p.plan = Plan.HELD;
                p.reason = "may have applied and the probe failed (" + r.message() + ")";
            }
        }
    }

    /** An Outcome-returning probe found the item when it is ok, or names the item as applied. */
    private static boolean foundIn(Outcome<?> o, String id) {
        if (o.items().isEmpty()) {
            return o.isOk();
        }
        return o.items().stream().anyMatch(i -> i.id().equals(id) && i.applied() == EffectApplied.YES);
    }

    Completion conclude(Call call, Object returned, Throwable thrown, boolean timedOut) {
        return complete(call, returned, thrown, timedOut);
    }

    private Completion complete(Call call, Object returned, Throwable thrown, boolean timedOut) {
        ToolMethod tool = call.tool;
        boolean bodyRan = call.replacedArgs() != null;
        Throwable cause = thrown;
        Outcome<?> reported = returned instanceof Outcome<?> o ? o
                : thrown instanceof ToolOutcomeException toe ? toe.outcome() : null;
        Classification failure = null;
        if (thrown != null && !(thrown instanceof ToolOutcomeException) && !timedOut) {
            failure = steps.classifier(call).classify(thrown, tool.kind(), tool.overrides());
        }
        Map<String, Outcome.Item> byId = new LinkedHashMap<>();
        if (call.batchAttempt() != null) {
            // named as the body went: the only record of what it sent when it throws part-way
            for (Outcome.Item i : call.batchAttempt().reportedItems()) {
                byId.put(i.id(), i);
            }
        }
        if (reported != null) {
            for (Outcome.Item i : reported.items()) {
                byId.put(i.id(), i);
            }
        }
        long durationMs = bodyRan ? TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - call.startNanos()) : 0;
        List<Outcome.Item> all = new ArrayList<>();
        Long retryAfter = null;
        for (ItemPlan p : call.items()) {
            Outcome.Item item = switch (p.plan) {
                case DONE -> Outcome.Item.applied(p.id);
                case REJECTED -> Outcome.Item.rejected(p.id, p.reason);
                case HELD -> Outcome.Item.unknown(p.id, p.reason);
                case WAIT -> Outcome.Item.retryable(p.id, p.reason);
                case SEND -> sentItem(p, byId.get(p.id), thrown, reported, timedOut);
            };
            if (p.plan == Plan.WAIT && p.retryAfterS != null) {
                retryAfter = retryAfter == null ? p.retryAfterS : Math.min(retryAfter, p.retryAfterS);
            }
            if (p.plan == Plan.SEND && call.isJournaled()) {
                CallRecords records = steps.records();
                records.appendAndApply(records.base(call, RecordType.OUTCOME).intentKey(p.key).item(p.id).attempt(p.attempt)
                        .attemptId(attemptId(call, p)).started(call.startedMillis()).outcome(ApiWords.outcome(item.status()))
                        .effectApplied(ApiWords.effect(item.applied())).message(item.reason())
                        .retryAfterS(item.status() == Status.RETRYABLE && failure != null ? failure.retryAfterS() : null)
                        .deadlineLeftS(call.task().leftSeconds()).durationMs(durationMs).build());
            }
            all.add(item);
        }
        if (failure != null && failure.retryAfterS() != null) {
            retryAfter = failure.retryAfterS();
        }
        BatchSummary summary = BatchSummary.of(all, tool.batch().orElseThrow().noun());
        String why = failure != null ? failure.message() : thrown != null && !timedOut ? thrownMessage(thrown) : null;
        String message = why != null && summary.status() != Status.OK ? summary.message() + " (" + why + ")"
                : summary.message();
        Object value = reported != null ? reported.value() : returned;
        Outcome<Object> outcome = new Outcome<>(summary.status(), summary.effect(), call.attemptId(), call.intentKey(),
                retryAfter, call.task().leftSeconds(), message, value, all);
        if (!bodyRan) {
            call.tookPath(summary.status() == Status.OK ? Reentry.DEDUP : summary.status() == Status.UNKNOWN
                    ? Reentry.HELD : Reentry.REFUSED);
        }
        steps.records().events().outcome(call, outcome, TimeUnit.MILLISECONDS.toNanos(durationMs),
                cause instanceof ToolOutcomeException ? null : cause);
        if (summary.status() == Status.OK) {
            if (tool.returnsOutcome()) {
                return steps.shaper().ok(call, outcome, null);
            }
            return bodyRan ? steps.shaper().ok(call, outcome, returned) : steps.shaper().okWithoutValue(call, outcome);
        }
        return steps.shaper().failure(call, outcome, cause instanceof ToolOutcomeException ? null : cause);
    }

    private static Outcome.Item sentItem(ItemPlan p, Outcome.Item reportedItem, Throwable thrown, Outcome<?> reported,
                                         boolean timedOut) {
        if (reportedItem != null) {
            return reportedItem;
        }
        if (timedOut) {
            return Outcome.Item.unknown(p.id, "deadline reached while the batch was running");
        }
        if (thrown != null) {
            // An exception's class describes the one request that raised it, not the items sent before
            // it: an item the body did not name may have landed, so it is neither "not applied" nor
            // refused for good. The next call probes it, or holds it per the re-entry table.
            return Outcome.Item.unknown(p.id, "the tool threw before naming this item; it may have been sent");
        }
        if (reported != null && !reported.isOk()) {
            // the body returned a failure without naming this item: it finished, so take its word for it
            return reported.effectApplied() == EffectApplied.NO
                    ? new Outcome.Item(p.id, EffectApplied.NO, reported.message(), reported.status())
                    : Outcome.Item.unknown(p.id, reported.message());
        }
        return Outcome.Item.applied(p.id);
    }

    private static String thrownMessage(Throwable thrown) {
        if (thrown instanceof ToolOutcomeException toe && toe.outcome().message() != null) {
            return toe.outcome().status().word() + ": " + toe.outcome().message();
        }
        return thrown instanceof ToolOutcomeException toe ? toe.outcome().status().word() : String.valueOf(thrown);
    }

    private static String attemptId(Call call, ItemPlan p) {
        return AttemptIds.of(call.task().id(), p.key, p.attempt);
    }
}

package dev.effectful.runtime.engine;

import dev.effectful.EffectApplied;
import dev.effectful.Status;
import dev.effectful.core.config.EffectfulConfig;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.Decision;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.IntentStore;
import dev.effectful.core.reentry.ReentryRules;
import dev.effectful.core.reentry.ResolveHint;
import dev.effectful.core.values.ArgsRenderer;
import dev.effectful.runtime.approval.ApprovalAsker;
import dev.effectful.runtime.tool.ToolMethod;

/**
 * Admission's approvals: which tools' new intents wait for a person (declared on the tool or named by
 * configuration), the request journaled with the arguments the person sees, the MCP client's user asked
 * where one can answer, and a request that waited too long expired. {@link Admission} decides when; this
 * class does what the decision says.
 */
final class ApprovalRequests {

    private final ArgsRenderer argsRenderer;
    private final IntentStore store;
    private final ResolveHint hint;
    private final Refusals refusals;
    private final CallRecords records;
    /** A person's verdicts handed over by the CLI while this process writes the journal; null: no journal. */
    private final ResolutionRequests resolutions;
    /** Which tools need a person's approval by configuration, and how long a request waits. */
    private EffectfulConfig.Approvals approvals = EffectfulConfig.Approvals.NONE;
    /** Whether decisions are this process's index alone ({@code effectful.store=local}); set before the first call. */
    private boolean sharedStoreLess = true;

    ApprovalRequests(Shared shared, ResolutionRequests resolutions) {
        this.argsRenderer = shared.argsRenderer();
        this.store = shared.store();
        this.hint = shared.hint();
        this.refusals = shared.refusals();
        this.records = shared.records();
        this.resolutions = resolutions;
    }

    /**
     * The configuration's approval rule ({@code effectful.approval}, {@code effectful.approval.timeout},
     * {@code effectful.approval.elicit}); {@code localStore}: the store is this process's own index.
     */
    void configure(EffectfulConfig.Approvals configured, boolean localStore) {
        approvals = configured;
        sharedStoreLess = localStore;
    }

    /** Whether {@code tool}'s new intents wait for a person, and for how long. */
    ReentryRules.ApprovalRule rule(ToolMethod tool) {
        return new ReentryRules.ApprovalRule(tool.approvalDeclared() || approvals.names(tool.verb(), tool.kindWord()),
                approvals.timeout().toMillis());
    }

    /**
     * The first call of an intent that needs approval: the request is journaled (with the arguments, as an
     * intent's are, so the person sees what they approve), then the call is told to wait. A request that
     * cannot be journaled is no request: the call is refused retryable and the next one asks again.
     *
     * <p>When the call came through an MCP server whose client can ask its user ({@link ApprovalAsker}), that
     * user is asked now, once per intent (only the call that makes the request asks: a retry, a restart or
     * another host finds the request made and waits), and their answer is recorded as the verdict; this call
     * then goes on as the verdict says (runs once, or is refused for good). No answer leaves it to the console
     * and the CLI, as without a client to ask.
     *
     * @return true when a verdict stands now and the call goes through the re-entry table again; false when
     *         the call was answered (told to wait, or refused)
     */
    boolean request(Call call, Decision.RequestApproval a, boolean mayAsk) {
        JournalRecord request = records.base(call, RecordType.APPROVAL_REQUESTED).started(System.currentTimeMillis())
                .budgetLeftS(call.task().leftSeconds()).args(argsRenderer.render(call.args, call.tool.params()))
                .retryAfterS(a.retryAfterS()).message("a person must approve this first").build();
        try {
            records.appendIntent(request);
        } catch (JournalUnavailableException e) {
            refusals.refuse(call, Status.RETRYABLE, EffectApplied.NO, 5L, "journal unavailable (" + e.getMessage()
                    + "): the approval request could not be recorded; not run");
            return false;
        }
        records.events().awaitingApproval(call);
        ApprovalAsker asker = mayAsk ? asker(call) : null;
        String notAnswered = "";
        if (asker != null) {
            String why = ask(call, request, asker);
            if (why == null) {
                return true;
            }
            notAnswered = " (no verdict from the MCP client: " + why + "; it waits for a person at the console or"
                    + " the CLI)";
        }
        AgentLog.info("effectful: " + call.tool.verb() + " (task " + call.task().id() + ", intent " + call.intentKey()
                + ") waits for a person's approval" + notAnswered + "; approve with: " + hint.approveCommand(call.intentKey())
                + " (or deny with the same words)");
        refusals.refuse(call, Status.RETRYABLE, EffectApplied.NO, a.retryAfterS(), a.message() + notAnswered
                + Refusals.beyondBudget(call.task(), a.retryAfterS()));
        return false;
    }

    /**
     * Who may be asked for this call's verdict: the MCP client of the request this thread serves, when
     * {@code effectful.approval.elicit} allows it. Not for a call whose caller is a promise (asking blocks the
     * thread), nor without a journal this process writes (the verdict would have nowhere to go by the rule of
     * one verdict per intent), nor on a shared store (a verdict there is the store's to record, not this host's).
     */
    private ApprovalAsker asker(Call call) {
        if (!approvals.elicit() || call.async() != null || resolutions == null) {
            return null;
        }
        ApprovalAsker asker = ApprovalAsker.current();
        if (asker != null && !sharedStoreLess) {
            AgentLog.warnOnce("approval-ask-shared-store", "effectful does not ask MCP clients for approvals on a shared"
                    + " store yet: requests wait for journal approve|deny --store ... or the console");
            return null;
        }
        return asker;
    }

    /**
     * Asks {@code asker} and records the answer as the intent's verdict ({@code via} the asker). Null when a verdict
     * stands now (this one, or one given a moment earlier at the console or the CLI); else why none does.
     */
    private String ask(Call call, JournalRecord request, ApprovalAsker asker) {
        TaskContext task = call.task();
        long waitNanos = approvals.timeout().toNanos();
        if (task.hasBudget()) {
            waitNanos = Math.min(waitNanos, task.leftNanos());
        }
        if (waitNanos <= 0) {
            return "no budget left to wait for an answer";
        }
        ApprovalAsker.Question q = new ApprovalAsker.Question(call.tool.verb(), call.tool.kindWord(), call.target(),
                request.args(), task.id(), task.actor(), call.intentKey());
        ApprovalAsker.Answer answer;
        try {
            answer = asker.ask(q, java.time.Duration.ofNanos(waitNanos));
        } catch (Throwable t) {
            // the agent never breaks the application: an asker that fails is an asker that did not answer
            AgentLog.errorOnce("approval-ask:" + asker.via(), "effectful could not ask for an approval via " + asker.via()
                    + "; such requests wait for the console or the CLI", t);
            answer = new ApprovalAsker.Answer.NotAnswered("asking failed (" + t.getClass().getSimpleName() + ")");
        }
        if (answer instanceof ApprovalAsker.Answer.NotAnswered n) {
            return n.why();
        }
        boolean approved = answer instanceof ApprovalAsker.Answer.Approved;
        String note = answer instanceof ApprovalAsker.Answer.Approved ok ? ok.note()
                : ((ApprovalAsker.Answer.Denied) answer).words();
        Verdict verdict = approved ? Verdict.APPROVED : Verdict.DENIED;
        String by = task.actor().isEmpty() ? "the MCP client's user" : task.actor();
        JournalRecord approval = records.base(call, RecordType.APPROVAL).started(System.currentTimeMillis())
                .effectApplied(verdict.effectApplied()).verdict(verdict.word()).by(by)
                .note(note == null || note.isBlank() ? (approved ? null : "declined in the MCP client") : note.strip())
                .via(asker.via()).build();
        String refused = resolutions.recordOwnVerdict(approval, call.tool, task.hasBudget() ? task.leftNanos()
                : Admission.NO_BUDGET_WAIT_NANOS);
        if (refused == null) {
            AgentLog.info("effectful: " + call.tool.verb() + " (task " + task.id() + ", intent " + call.intentKey() + ") "
                    + verdict.word() + " by " + by + " via " + asker.via()
                    + (approval.note() == null ? "" : ": " + approval.note()));
            return null;
        }
        IntentState now = store.get(call.intentKey()).orElse(null);
        if (now != null && !now.awaitsApproval()) {
            // another verdict was first: it stands, and this call goes on as it says
            AgentLog.info("effectful: the " + verdict.word() + " answer via " + asker.via() + " for intent "
                    + call.intentKey() + " is not recorded: " + refused);
            return null;
        }
        return "the answer could not be recorded: " + refused;
    }

    /** No verdict in time: the expiry is journaled (by effectful, not a person) and the call refused for good. */
    void expire(Call call, Decision.ExpireApproval x) {
        records.appendAndApply(records.base(call, RecordType.APPROVAL).started(System.currentTimeMillis())
                .verdict(Verdict.EXPIRED.word()).by("effectful").note("no verdict within effectful.approval.timeout")
                .effectApplied(Verdict.EXPIRED.effectApplied()).build());
        refusals.refuse(call, Status.PERMANENT, EffectApplied.NO, null, x.message());
    }
}

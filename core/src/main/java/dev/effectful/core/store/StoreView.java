package dev.effectful.core.store;

import dev.effectful.core.journal.Verdict;
import java.time.Instant;
import java.util.List;

/**
 * What the journal CLI reads from, and writes a person's resolution to, in a shared store
 * ({@code journal --store KIND tasks|unresolved|resolve}). Every method may throw
 * {@link dev.effectful.core.reentry.StoreUnavailableException} when the store does not answer;
 * its message is shown to the person as it is.
 */
public interface StoreView extends AutoCloseable {

    /** One line per task, newest activity first. */
    record TaskLine(String task, int intents, int attempts, int ok, int unresolved, Instant lastActivity) {
    }

    /** An intent nobody knows the end of; {@code running} when a live lease says its call is still going. */
    record Unresolved(String intentKey, String task, String call, String kind, String phase, int attempts,
                      String host, long pid, boolean running, Instant updated) {
    }

    /**
     * The store's row of one intent, as {@code journal --store postgres show} prints it: its state, who
     * holds (or last held) its claim, and the result the fleet replays. The records themselves stay in the
     * journal of the host that wrote them ({@code host}); {@code leaseUntil} is null when no claim is live.
     */
    record IntentRow(String intentKey, String task, String call, String kind, String phase, int attempts,
                     String effectApplied, String result, String message, String host, long pid, String claim,
                     Instant leaseUntil, boolean running, String approvalBy, Instant updated) {
    }

    /** An intent waiting for a person's approval (requested by {@code host} at {@code requested}). */
    record PendingApproval(String intentKey, String task, String call, String kind, String host, Instant requested) {
    }

    /**
     * How a person's verdict was taken; {@code NOT_AWAITING_APPROVAL}: an approval verdict for an intent that
     * does not wait for one.
     */
    enum Resolution {
        RESOLVED, NO_SUCH_INTENT, STILL_RUNNING,
        /** The intent does not wait for this verdict: not awaiting approval, or (for resolve) not unresolved. */
        NOT_AWAITING_APPROVAL
    }

    List<TaskLine> tasks();

    List<Unresolved> unresolved();

    /** A person's verdict; refused while a live lease says the call may still be running. */
    default Resolution resolve(String intentKey, boolean applied, String note) {
        return resolve(intentKey, applied, note, null);
    }

    /**
     * A person's verdict with, for "applied yes", the value every host's repeat of the intent returns
     * ({@code resultJson}, compact JSON; null: the repeat answers ok without a value).
     */
    Resolution resolve(String intentKey, boolean applied, String note, String resultJson);

    /** The intents waiting for a person's approval, oldest first. */
    default List<PendingApproval> approvals() {
        throw new UnsupportedOperationException("this store keeps no approvals");
    }

    /**
     * A person's verdict on an approval request: {@link Verdict#APPROVED} (every host's next call runs the
     * body once) or {@link Verdict#DENIED} (every host's call is refused for good with {@code note});
     * {@code by} names the person.
     */
    default Resolution approve(String intentKey, Verdict verdict, String by, String note) {
        throw new UnsupportedOperationException("this store keeps no approvals");
    }

    /**
     * The rows whose intent key is {@code id}, whose task is {@code id}, or (six or more hex digits) whose
     * intent key starts with {@code id}; oldest first.
     */
    default List<IntentRow> show(String id) {
        throw new UnsupportedOperationException("this store cannot show intents");
    }

    @Override
    void close();
}

package dev.effectful.runtime.engine;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.JournalUnavailableException;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.log.AgentLog;
import dev.effectful.core.reentry.IntentStore;

import java.util.Optional;

/**
 * The journal records one call writes, and its events (the log line among them). Every record of a call starts from
 * {@link #base}, so the call's {@code @Redact} rule covers each of them; how a failed append is
 * treated depends on what the record is for (an intent refuses the call, an outcome is logged, a
 * dedup or refusal marker is best effort).
 *
 * @param journal where the records are written
 * @param store    the index they are folded into
 * @param events   the call's steps as events (the log line, JFR, the application's OpenTelemetry or Micrometer)
 */
record CallRecords(JournalAccess journal, IntentStore store, CallEvents events) {

    JournalRecord.Builder base(Call call, RecordType type) {
        JournalRecord.Builder b = JournalRecord.of(type).task(call.task().id())
                .actor(call.task().actor().isEmpty() ? null : call.task().actor())
                .call(call.tool.verb()).kind(ApiWords.kind(call.tool.kind()))
                .intentKey(call.intentKey());
        // every record of a call is built here, so here its @Redact rule covers message, result and args
        return call.redactor().active() ? b.finishWith(call.redactor()::record) : b;
    }

    /** An intent: written and folded into the index, or the call must not run. */
    void appendIntent(JournalRecord intent) throws JournalUnavailableException {
        journal.appendAndApply(intent, store);
    }

    /** A batch item's intent: written, then folded into the index; throws like {@link #appendIntent}. */
    void appendItemIntent(JournalRecord intent) throws JournalUnavailableException {
        store.apply(journal.append(intent), intent);
    }

    /** An outcome or probe record: a failure is logged and leaves the intent unresolved in the journal. */
    void appendAndApply(JournalRecord r) {
        try {
            journal.appendAndApply(r, store);
        } catch (JournalUnavailableException e) {
            AgentLog.errorOnce("append:" + r.type(), "could not journal a " + r.type().word() + " record: "
                    + e.getMessage() + "; the intent stays unresolved in the journal", null);
        }
    }

    /**
     * A {@code key_sent} record: a covered client is about to send {@code key} (the call's intent key, or
     * the key of its batch item {@code item}) in the tool's key header, in attempt {@code attempt}. Written
     * and folded into the index before the request leaves; false when it could not be written (the request
     * still goes, and that attempt counts as one whose key nobody saw leave).
     */
    boolean appendKeySent(Call call, String key, int attempt, String attemptId, String item) {
        JournalRecord r = base(call, RecordType.KEY_SENT).intentKey(key).item(item).attempt(attempt).attemptId(attemptId)
                .started(System.currentTimeMillis()).header(call.tool.keyHeader()).build();
        try {
            journal.appendAndApply(r, store);
            return true;
        } catch (JournalUnavailableException e) {
            return false;
        }
    }

    /** A dedup or refused record: it changes no decision, so a failure is only warned about. */
    void appendQuietly(JournalRecord r) {
        try {
            journal.append(r);
        } catch (JournalUnavailableException e) {
            AgentLog.warnOnce("append-aux", "could not journal a " + r.type().word() + " record: " + e.getMessage());
        }
    }

    Optional<JournalRecord> read(long index) {
        return journal.read(index);
    }

    /** Why an effectful call of {@code task} must be held for a damaged journal record; empty when it may go on. */
    java.util.Optional<String> damageHold(String task, String intentKey) {
        return journal.damageHold(task, intentKey);
    }
}

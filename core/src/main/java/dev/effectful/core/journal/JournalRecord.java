package dev.effectful.core.journal;

/**
 * One journal record, field for field as users read it (docs/JOURNAL.md, "The journal"). Absent fields
 * are null (or 0 for {@code attempt}, {@code pid} and {@code started}). The closed words (kind,
 * outcome, effect, probe) are enums here and words on disk: {@link RecordCodec} maps them; a word a
 * reader does not know reads as null.
 *
 * @param started epoch milliseconds when the event this record describes started
 * @param args    JSON object of the arguments (redacted ones as fingerprints)
 * @param result  JSON of the returned value on an ok outcome; null when it could not be stored
 * @param item    the item id of a batch tool's per-item record; null for other records
 * @param reentry on intent records, what the tool declares that decides a re-entry without a person:
 *                {@code probe} (it has one) and/or {@code keyable} (a CREATE with an intent key), space
 *                separated, {@code -} for neither; null when not written (older records, other types)
 * @param header  on {@code key_sent} records, the HTTP header the key went out in; null on every other
 * @param verdict on {@code approval} records: approved, denied or expired; null on every other
 * @param by      on {@code approval} records: who gave the verdict (the person's OS user, and a name if given)
 * @param note    on {@code approval} records: why, in the person's words
 * @param via     on {@code approval} records: how the verdict reached the journal when not by the console or
 *                CLI ({@code elicitation}: the MCP client's user answered the server's question); null otherwise
 */
public record JournalRecord(RecordType type, String task, String actor, String call, Kind kind, String intentKey,
                            int attempt, String attemptId, long started, Long budgetLeftS, String args,
                            OutcomeWord outcome, Effect effectApplied, Long retryAfterS, Long deadlineLeftS,
                            String message, String result, ProbeResult probe, long pid, String thread, Long durationMs,
                            String item, String reentry, String header, String verdict, String by, String note,
                            String via) {

    /** A record without {@code via}: every record but an approval given through an MCP client. */
    public JournalRecord(RecordType type, String task, String actor, String call, Kind kind, String intentKey,
                         int attempt, String attemptId, long started, Long budgetLeftS, String args,
                         OutcomeWord outcome, Effect effectApplied, Long retryAfterS, Long deadlineLeftS,
                         String message, String result, ProbeResult probe, long pid, String thread, Long durationMs,
                         String item, String reentry, String header, String verdict, String by, String note) {
        this(type, task, actor, call, kind, intentKey, attempt, attemptId, started, budgetLeftS, args, outcome,
                effectApplied, retryAfterS, deadlineLeftS, message, result, probe, pid, thread, durationMs, item, reentry,
                header, verdict, by, note, null);
    }

    /** A record without the approval fields: every type but {@code approval}. */
    public JournalRecord(RecordType type, String task, String actor, String call, Kind kind, String intentKey,
                         int attempt, String attemptId, long started, Long budgetLeftS, String args,
                         OutcomeWord outcome, Effect effectApplied, Long retryAfterS, Long deadlineLeftS,
                         String message, String result, ProbeResult probe, long pid, String thread, Long durationMs,
                         String item, String reentry, String header) {
        this(type, task, actor, call, kind, intentKey, attempt, attemptId, started, budgetLeftS, args, outcome,
                effectApplied, retryAfterS, deadlineLeftS, message, result, probe, pid, thread, durationMs, item, reentry,
                header, null, null, null);
    }

    /** A record without a {@code header}: every type but {@code key_sent}. */
    public JournalRecord(RecordType type, String task, String actor, String call, Kind kind, String intentKey,
                         int attempt, String attemptId, long started, Long budgetLeftS, String args,
                         OutcomeWord outcome, Effect effectApplied, Long retryAfterS, Long deadlineLeftS,
                         String message, String result, ProbeResult probe, long pid, String thread, Long durationMs,
                         String item, String reentry) {
        this(type, task, actor, call, kind, intentKey, attempt, attemptId, started, budgetLeftS, args, outcome,
                effectApplied, retryAfterS, deadlineLeftS, message, result, probe, pid, thread, durationMs, item, reentry,
                null);
    }

    /** A record of a READ call: never deduplicated, never held, never written to a shared store. */
    public boolean isRead() {
        return kind == Kind.READ;
    }

    /** This process's id, read once: ProcessHandle.current() asks the security manager on every call. */
    private static final long PID = ProcessHandle.current().pid();

    public static Builder of(RecordType type) {
        return new Builder(type);
    }

    /** Twenty-one fields read badly as constructor arguments; this names each one at the call site. */
    public static final class Builder {
        private final RecordType type;
        private String task;
        private String actor;
        private String call;
        private Kind kind;
        private String intentKey;
        private int attempt;
        private String attemptId;
        private long started;
        private Long budgetLeftS;
        private String args;
        private OutcomeWord outcome;
        private Effect effectApplied;
        private Long retryAfterS;
        private Long deadlineLeftS;
        private String message;
        private String result;
        private ProbeResult probe;
        private long pid = PID;
        private String thread = Thread.currentThread().getName();
        private Long durationMs;
        private String item;
        private java.util.function.UnaryOperator<JournalRecord> finisher;
        private String reentry;
        private String header;
        private String verdict;
        private String by;
        private String note;
        private String via;

        private Builder(RecordType type) {
            this.type = type;
        }

        public Builder task(String v) { task = v; return this; }
        public Builder actor(String v) { actor = v; return this; }
        public Builder call(String v) { call = v; return this; }
        public Builder kind(Kind v) { kind = v; return this; }
        public Builder intentKey(String v) { intentKey = v; return this; }
        public Builder attempt(int v) { attempt = v; return this; }
        public Builder attemptId(String v) { attemptId = v; return this; }
        public Builder started(long v) { started = v; return this; }
        public Builder budgetLeftS(Long v) { budgetLeftS = v; return this; }
        public Builder args(String v) { args = v; return this; }
        public Builder outcome(OutcomeWord v) { outcome = v; return this; }
        public Builder effectApplied(Effect v) { effectApplied = v; return this; }
        public Builder retryAfterS(Long v) { retryAfterS = v; return this; }
        public Builder deadlineLeftS(Long v) { deadlineLeftS = v; return this; }
        public Builder message(String v) { message = v; return this; }
        public Builder result(String v) { result = v; return this; }
        public Builder probe(ProbeResult v) { probe = v; return this; }
        public Builder pid(long v) { pid = v; return this; }
        public Builder thread(String v) { thread = v; return this; }
        public Builder durationMs(Long v) { durationMs = v; return this; }
        public Builder item(String v) { item = v; return this; }
        public Builder reentry(String v) { reentry = v; return this; }
        public Builder header(String v) { header = v; return this; }
        public Builder verdict(String v) { verdict = v; return this; }
        public Builder by(String v) { by = v; return this; }
        public Builder note(String v) { note = v; return this; }
        public Builder via(String v) { via = v; return this; }

        /**
         * Sets the attempt id {@link AttemptIds#of} makes of this record's task, key and attempt, when it has
         * them: what a record that marks its attempt id as derived reads back as ({@link RecordReader}).
         */
        Builder deriveAttemptId() {
            if (task != null && intentKey != null && intentKey.length() >= 8) {
                attemptId = AttemptIds.of(task, intentKey, attempt);
            }
            return this;
        }

        /** Applied to the record {@link #build} makes: where the caller's redaction rule is enforced. */
        public Builder finishWith(java.util.function.UnaryOperator<JournalRecord> f) { finisher = f; return this; }

        public JournalRecord build() {
            JournalRecord r = new JournalRecord(type, task, actor, call, kind, intentKey, attempt, attemptId, started,
                    budgetLeftS, args, outcome, effectApplied, retryAfterS, deadlineLeftS, message, result, probe, pid,
                    thread, durationMs, item, reentry, header, verdict, by, note, via);
            return finisher == null ? r : finisher.apply(r);
        }
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.journal.ReentryDeclaration;
import dev.effectful.core.journal.Verdict;
import dev.effectful.core.reentry.Phase;
import dev.effectful.core.reentry.StateTransitions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The latest state of every intent and a few counters per task, built in one streaming pass.
 *
 * <p>Memory is what makes a million-record journal answer on a small heap: no record body is kept,
 * only one row per intent key in parallel primitive arrays (the 32-hex-digit key as two longs, the
 * index of its latest intent record to fetch arguments later, small ids for task and call, attempt,
 * state, probe): about 40 bytes per key plus a 4-byte hash slot. Task and call names are stored once
 * each ({@link Dict}).
 *
 * <p>The rules follow what the engine writes: an intent with no later outcome, probe or resolution
 * is a crash mid-call; an outcome sets the state by its word; a probe found settles it ok, failed
 * leaves it unresolved, absent makes it runnable; a person's resolution yes settles it ok and no makes
 * it runnable. Dedup and refused records change nothing.
 */
final class JournalIntents {

    /**
     * The state word of an intent with no outcome yet whose writer holds the journal right now: not a
     * {@link State} (the journal alone cannot tell it from a crash), a reader's view of the live lock.
     */
    static final String IN_FLIGHT = "in-flight";

    /** Whether a row's state word is {@link #IN_FLIGHT}: the live writer's own call, nobody's to settle. */
    static boolean inFlight(String stateWord) {
        return IN_FLIGHT.equals(stateWord);
    }

    /**
     * The latest state of an intent key as the CLI words it: one per {@link Phase}, whose
     * {@link Phase#unresolved()} says which ones need a person (or a probe). The words are the CLI's own
     * (printed and in JSON); {@code CliStatesTest} fails when a phase has no state here.
     */
    enum State {
        NO_OUTCOME("no-outcome", Phase.INTENDED),
        OK("ok", Phase.OK),
        RETRYABLE("retryable", Phase.RETRYABLE),
        PERMANENT("permanent", Phase.PERMANENT),
        UNKNOWN("unknown", Phase.UNKNOWN),
        PROBE_FAILED("probe-failed", Phase.PROBE_FAILED),
        PROBE_ABSENT("absent", Phase.PROBED_ABSENT),
        RESOLVED_YES("resolved-yes", Phase.RESOLVED_APPLIED),
        RESOLVED_NO("resolved-no", Phase.RESOLVED_NOT_APPLIED),
        AWAITING_APPROVAL("awaiting-approval", Phase.AWAITING_APPROVAL),
        // a verdict's state is printed as the verdict's own word
        APPROVED(Verdict.APPROVED.word(), Phase.APPROVED),
        DENIED(Verdict.DENIED.word(), Phase.DENIED),
        EXPIRED(Verdict.EXPIRED.word(), Phase.EXPIRED);

        final String word;
        final boolean unresolved;
        final Phase phase;

        State(String word, Phase phase) {
            this.word = word;
            this.unresolved = phase.unresolved();
            this.phase = phase;
        }

        /** By the phase's ordinal: asked for every record of a journal scan. */
        private static final State[] BY_PHASE = byPhase();

        private static State[] byPhase() {
            State[] out = new State[Phase.values().length];
            for (State s : values()) {
                out[s.phase.ordinal()] = s;
            }
            return out;
        }

        static State of(Phase p) {
            State s = p == null ? null : BY_PHASE[p.ordinal()];
            if (s == null) {
                throw new IllegalArgumentException(String.valueOf(p));
            }
            return s;
        }

        /** {@link Phase#settledOk()}: the journal's rule, not a list of states of its own. */
        boolean settledOk() {
            return phase.settledOk();
        }
    }

    /**
     * What the CLI prints about one intent.
     *
     * @param settles the next call of this intent settles it without a person (its tool has a probe,
     *                or it is IDEMPOTENT or a READ, or declares keyable, or the attempt's key was seen going
     *                out), by the engine's own re-entry table
     */
    record Intent(String key, String task, String actor, String call, String kind, int attempt, State state,
                  String probe, long intentIndex, boolean settles) {
    }

    /** One task's line in {@code tasks}. */
    record TaskRow(String task, String actor, int intents, int attempts, int ok, int failed, int unresolved,
                   int forPerson, long lastActivity, long records) {
    }

    private static final String[] PROBES = {null, ProbeResult.FOUND.word(), ProbeResult.ABSENT.word(),
            ProbeResult.FAILED.word()};
    private static final State[] STATES = State.values();

    // rows, one per intent key, append-only, numbered by the key index
    private final IntentKeyIndex keys;
    private long[] intentIndex;
    private int[] task;
    private int[] call;
    private int[] attempt;
    private byte[] state;
    private byte[] probe;
    /**
     * From the latest intent record's {@code reentry}: 0 not written (older journal), else 1 | PROBE | KEYABLE;
     * plus KEY_SENT when a {@code key_sent} record of that attempt followed it.
     */
    private byte[] declares;
    private int rows;
    private static final byte DECLARED = 1;
    private static final byte HAS_PROBE = 2;
    private static final byte KEYABLE = 4;
    private static final byte KEY_SENT = 8;

    private final Dict tasks = new Dict();
    private final Dict calls = new Dict();
    private final Dict actors = new Dict();
    private int[] taskActor = new int[64];
    private int[] taskAttempts = new int[64];
    private long[] taskRecords = new long[64];
    private long[] taskLast = new long[64];

    private final long[] typeCounts = new long[RecordType.values().length];

    JournalIntents() {
        this(1024);
    }

    /**
     * Sized for {@code expectedKeys} up front: growing by copying would briefly need half as much
     * again, and that peak, not the steady state, is what decides the heap a large journal needs.
     */
    JournalIntents(long expectedKeys) {
        int n = (int) Math.max(1024, Math.min(expectedKeys, 1 << 28));
        keys = new IntentKeyIndex(n);
        intentIndex = new long[n];
        task = new int[n];
        call = new int[n];
        attempt = new int[n];
        state = new byte[n];
        probe = new byte[n];
        declares = new byte[n];
    }

    /** Every intent has an intent and an outcome record, so half the record count is the usual key count. */
    static JournalIntents forJournal(JournalReader reader) {
        return new JournalIntents(reader.recordCountHint() / 2 + 16);
    }

    /** The intents of a whole journal, read in one pass over its record summaries, with that pass's report. */
    record Scanned(JournalIntents table, JournalReader.Report report) {
    }

    /** Reads every record's summary of {@code reader}'s journal into a new table ({@link Scanned}). */
    static Scanned scan(JournalReader reader) throws CliException {
        JournalIntents table = forJournal(reader);
        return new Scanned(table, reader.scanSummaries(table::accept));
    }

    void accept(long index, JournalRecord r) {
        typeCounts[r.type().ordinal()]++;
        int t = tasks.id(r.task());
        touchTask(t, r);
        // as the engine's index does: a dedup, refusal or key_sent of a key never seen is no intent
        if (r.intentKey() == null || StateTransitions.startsNoIntent(r) && find(r.intentKey()) < 0) {
            return;
        }
        int row = row(r.intentKey());
        if (task[row] == 0) {
            task[row] = t;
        }
        if (r.call() != null && call[row] == 0) {
            call[row] = calls.id(r.call() + '\u0000' + (r.kind() == null ? "" : r.kind().word()));
        }
        if (r.type() == RecordType.INTENT) {
            attempt[row] = r.attempt();
            intentIndex[row] = index;
            declares[row] = declares(r.reentry());
            if (t != 0) {
                taskAttempts[t]++;
            }
        } else if (r.type() == RecordType.APPROVAL_REQUESTED) {
            // the request carries the arguments as journaled, like an intent: approvals and show read them there
            intentIndex[row] = index;
        } else if (r.type() == RecordType.PROBE) {
            probe[row] = probeCode(r.probe());
        } else if (r.type() == RecordType.KEY_SENT && r.attempt() == attempt[row]) {
            // the latest attempt's key went out: its next call re-sends it, the service deduplicates
            declares[row] |= KEY_SENT;
        }
        // the engine's own transition rule, so the CLI never disagrees with what the next call will do
        state[row] = (byte) State.of(StateTransitions.phaseAfter(STATES[state[row]].phase, r)).ordinal();
    }

    /**
     * Starts a key's row from the agent's index snapshot instead of its whole history: {@code latest} is
     * its latest intent (or approval request) record, read at the index the snapshot points at, and the
     * phase, attempts and whether that attempt's key went out are the snapshot's. Seeded in journal order,
     * before the records after the snapshot are accepted, so a task's actor is the first one read, as in a
     * full pass. A probe before the latest intent is not known here: {@link #needsHistory} says when it
     * could matter.
     */
    void seed(long index, JournalRecord latest, Phase phase, int attempts, boolean keySent) {
        accept(index, latest);
        int row = find(latest.intentKey());
        state[row] = (byte) State.of(phase).ordinal();
        if (phase == Phase.PROBE_FAILED) {
            // the last record that moved it was a failed probe: a later record would have moved it on
            probe[row] = probeCode(ProbeResult.FAILED);
        }
        if (keySent && latest.type() == RecordType.INTENT && attempts == attempt[row]) {
            declares[row] |= KEY_SENT;
        }
    }

    /**
     * Whether a row this table would list lacks what only the records before an index snapshot could
     * say: no intent record (its intent is older than what was read), or an attempt after the first with
     * no probe seen (an earlier attempt may have been probed, and a full pass would show that probe).
     * False for a table built from the whole journal.
     */
    boolean needsHistory() {
        for (int r = 0; r < rows; r++) {
            State s = STATES[state[r]];
            if (!s.unresolved && s != State.AWAITING_APPROVAL) {
                continue;
            }
            if (intentIndex[r] < 0 || s.unresolved && attempt[r] > 1 && probe[r] == 0) {
                return true;
            }
        }
        return false;
    }

    private static byte declares(String reentry) {
        ReentryDeclaration declared = ReentryDeclaration.parse(reentry);
        if (declared == null) {
            return 0;
        }
        return (byte) (DECLARED | (declared.probe() ? HAS_PROBE : 0) | (declared.keyable() ? KEYABLE : 0));
    }

    private static byte probeCode(ProbeResult p) {
        return (byte) (p == ProbeResult.FOUND ? 1 : p == ProbeResult.ABSENT ? 2 : 3);
    }

    private void touchTask(int t, JournalRecord r) {
        if (t >= taskLast.length) {
            int n = Math.max(t + 1, taskLast.length * 3 / 2);
            taskActor = Arrays.copyOf(taskActor, n);
            taskAttempts = Arrays.copyOf(taskAttempts, n);
            taskRecords = Arrays.copyOf(taskRecords, n);
            taskLast = Arrays.copyOf(taskLast, n);
        }
        taskRecords[t]++;
        taskLast[t] = Math.max(taskLast[t], r.started() + (r.durationMs() == null ? 0 : Math.max(0, r.durationMs())));
        if (taskActor[t] == 0 && r.actor() != null) {
            taskActor[t] = actors.id(r.actor());
        }
    }

    /** The row of a key, added when new (with no outcome yet). */
    private int row(String key) {
        int r = keys.row(key);
        if (r == rows) {
            if (rows == intentIndex.length) {
                int n = intentIndex.length + (intentIndex.length >> 1);
                intentIndex = Arrays.copyOf(intentIndex, n);
                task = Arrays.copyOf(task, n);
                call = Arrays.copyOf(call, n);
                attempt = Arrays.copyOf(attempt, n);
                state = Arrays.copyOf(state, n);
                probe = Arrays.copyOf(probe, n);
                declares = Arrays.copyOf(declares, n);
            }
            rows++;
            intentIndex[r] = -1;
            state[r] = (byte) State.NO_OUTCOME.ordinal();
        }
        return r;
    }

    /** The row of a key if the journal has it, else -1. */
    int find(String key) {
        return keys.find(key);
    }

    int size() {
        return rows;
    }

    long count(RecordType type) {
        return typeCounts[type.ordinal()];
    }

    Intent intent(int row) {
        String key = keys.key(row);
        String callKind = call[row] == 0 ? null : calls.word(call[row]);
        String c = callKind == null ? null : callKind.substring(0, callKind.indexOf('\u0000'));
        int t = task[row];
        String kind = kindOf(row);
        return new Intent(key, tasks.word(t), t == 0 ? null : actors.word(taskActor[t]), c, kind,
                attempt[row], STATES[state[row]], PROBES[probe[row]], intentIndex[row],
                settles(STATES[state[row]], kind, declares[row]));
    }

    /** The kind word the row's call was journaled with, or null. */
    private String kindOf(int row) {
        String callKind = call[row] == 0 ? null : calls.word(call[row]);
        String k = callKind == null ? null : callKind.substring(callKind.indexOf('\u0000') + 1);
        return k == null || k.isEmpty() ? null : k;
    }

    /**
     * Asks the engine's re-entry table what the next call does. An intent written before records
     * said what the tool declares (no {@code reentry}) settles by itself only when its kind alone
     * decides (READ, IDEMPOTENT): whether a CREATE is keyable or a probe exists is not known then.
     */
    private static boolean settles(State s, String kind, byte declared) {
        if (!s.unresolved || kind == null) {
            return false;
        }
        Kind k = Kind.fromWord(kind);
        if (k == null) {
            return false; // a kind this reader does not know: a person decides
        }
        boolean keyed = (declared & (KEYABLE | KEY_SENT)) != 0;
        if ((declared & DECLARED) == 0 && !keyed && !k.repeatIsHarmless()) {
            return false; // keyable, or a probe, is not known for a record written before intents said so
        }
        return k.settlesByItself(keyed, (declared & HAS_PROBE) != 0);
    }

    /** Intents waiting for a person's approval, in journal order. */
    List<Intent> awaitingApproval() {
        List<Intent> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (STATES[state[r]] == State.AWAITING_APPROVAL) {
                out.add(intent(r));
            }
        }
        out.sort((a, b) -> Long.compare(a.intentIndex(), b.intentIndex()));
        return out;
    }

    /** Unresolved intents in journal order. */
    List<Intent> unresolved() {
        List<Intent> out = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            if (STATES[state[r]].unresolved) {
                out.add(intent(r));
            }
        }
        out.sort((a, b) -> Long.compare(a.intentIndex(), b.intentIndex()));
        return out;
    }

    long countState(State s) {
        long n = 0;
        for (int r = 0; r < rows; r++) {
            if (state[r] == s.ordinal()) {
                n++;
            }
        }
        return n;
    }

    /** One row per task, most recent activity first (that is where an operator looks after a crash). */
    List<TaskRow> tasks() {
        int n = tasks.size();
        int[] intents = new int[n];
        int[] ok = new int[n];
        int[] failed = new int[n];
        int[] unresolved = new int[n];
        int[] forPerson = new int[n];
        for (int r = 0; r < rows; r++) {
            int t = task[r];
            State s = STATES[state[r]];
            intents[t]++;
            if (s.settledOk()) {
                ok[t]++;
            } else if (s == State.PERMANENT) {
                failed[t]++;
            } else if (s.unresolved) {
                unresolved[t]++;
                if (!settles(s, kindOf(r), declares[r])) {
                    forPerson[t]++;
                }
            }
        }
        List<TaskRow> out = new ArrayList<>();
        for (int t = 0; t < n; t++) {
            if (taskRecords.length <= t || taskRecords[t] == 0) {
                continue;
            }
            out.add(new TaskRow(t == 0 ? "(no task)" : tasks.word(t), taskActor[t] == 0 ? null : actors.word(taskActor[t]),
                    intents[t], taskAttempts[t], ok[t], failed[t], unresolved[t], forPerson[t], taskLast[t], taskRecords[t]));
        }
        out.sort((a, b) -> Long.compare(b.lastActivity(), a.lastActivity()));
        return out;
    }
}

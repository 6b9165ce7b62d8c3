package dev.effectful.cli;

import dev.effectful.cli.console.Views;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.reentry.IndexSnapshot;
import dev.effectful.core.reentry.OpenIntents;
import dev.effectful.core.reentry.LocalIntentIndex;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code journal unresolved} and {@code journal approvals} from the agent's index snapshot plus the journal
 * after it print, byte for byte, what a read of the whole journal prints, and read only the records after the
 * snapshot and those of the intents they list; whatever makes the snapshot unfit to answer falls back to the
 * whole journal, with the same output.
 */
class SnapshotIntentsTest {

    private static final long T0 = TestJournals.T0;
    /** Unknown before the snapshot, settled by a person's resolution after it: not listed. */
    private static final String SETTLED_IN_TAIL = "00000000000000000000000000000a01";
    /** Approved before the snapshot (settled), then run and cut off mid-call after it. */
    private static final String REOPENED = "00000000000000000000000000000a02";
    /** Only after the snapshot: intent and an unknown outcome. */
    private static final String ONLY_IN_TAIL = "00000000000000000000000000000a03";
    /** Unknown before the snapshot and still unknown. */
    private static final String STILL_UNKNOWN = "00000000000000000000000000000a04";
    /** A failed probe before the snapshot. */
    private static final String PROBE_FAILED = "00000000000000000000000000000a05";
    /** An idempotent call cut off before the snapshot: settles on the next call. */
    private static final String SETTLES = "00000000000000000000000000000a06";
    /** Waiting for approval since before the snapshot. */
    private static final String AWAITING = "00000000000000000000000000000a07";
    /** A create whose key went out before the crash: settles on the next call, as the key_sent says. */
    private static final String KEY_SENT = "00000000000000000000000000000a08";

    @TempDir
    Path dir;

    /** The agent's index over the journal {@link #writeJournalWithSnapshot} wrote. */
    private LocalIntentIndex index;

    @AfterEach
    void enableAgain() {
        SnapshotIntents.enabled = true;
    }

    @Test
    void unresolvedAndApprovalsFromTheSnapshotPrintWhatTheWholeJournalPrintsAndReadOnlyTheTailAndTheListed()
            throws IOException {
        int settled = 2000;
        int tail = writeJournalWithSnapshot(settled);

        long before = JournalReader.RECORDS_READ.get();
        Run fast = run("unresolved");
        long readFast = JournalReader.RECORDS_READ.get() - before;
        Run fastJson = run("--json", "unresolved");
        Run fastApprovals = run("approvals");

        SnapshotIntents.enabled = false;
        before = JournalReader.RECORDS_READ.get();
        Run full = run("unresolved");
        long readFull = JournalReader.RECORDS_READ.get() - before;
        Run fullJson = run("--json", "unresolved");
        Run fullApprovals = run("approvals");

        assertThat(fast).isEqualTo(full);
        assertThat(fastJson).isEqualTo(fullJson);
        assertThat(fastApprovals).isEqualTo(fullApprovals);
        assertThat(full.code()).isEqualTo(JournalCli.UNRESOLVED);
        assertThat(full.out()).contains(REOPENED, ONLY_IN_TAIL, STILL_UNKNOWN, PROBE_FAILED, SETTLES, AWAITING, KEY_SENT)
                .doesNotContain(SETTLED_IN_TAIL).contains("Settle on next call", "Awaiting approval");
        assertThat(fullJson.out().lines()).hasSize(7);

        // the record the snapshot ends at; the intent record of each intent open at the snapshot (5 still listed, 2
        // settled after it); the records after it; the intent records of the 2 listed intents opened after it
        assertThat(readFast).as("records read from the snapshot").isEqualTo(1L + 7 + tail + 2);
        assertThat(readFull).as("records read without it").isGreaterThan(2L * settled);
    }

    @Test
    void theConsolesDeskFromTheSnapshotIsTheDeskOfTheWholeJournalAndReadsOnlyTheTailAndTheListed() throws Exception {
        int tail = writeJournalWithSnapshot(2000);
        Views.Desk fromSnapshot;
        long read;
        try (JournalConsole console = JournalConsole.unstarted(cli())) {
            long before = JournalReader.RECORDS_READ.get();
            assertThat(console.readSnapshot()).isTrue();
            fromSnapshot = console.desk();
            read = JournalReader.RECORDS_READ.get() - before;
        }
        Views.Desk whole;
        try (JournalConsole console = JournalConsole.unstarted(cli())) {
            console.firstPass();
            whole = console.desk();
        }
        assertThat(fromSnapshot).isEqualTo(whole);
        assertThat(whole.forPerson()).isNotEmpty();
        assertThat(whole.settling()).isNotEmpty();
        assertThat(whole.approvals()).isNotEmpty();
        // as unresolved, the intents open at the snapshot as summaries, then whole the records of the 7 rows it shows
        assertThat(read).as("records read for the desk").isEqualTo(1L + 7 + tail + 7);
    }

    @Test
    void theDeskShowsTheOldestOfAVeryLongListAndSaysSo() throws Exception {
        int held = DeskLists.DESK_ROWS + 5;
        LocalIntentIndex index = new LocalIntentIndex();
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            long last = -1;
            String key = null;
            for (int i = 0; i < held; i++) {
                key = String.format("%032x", 0x300000 + i);
                append(j, index, intent("t-" + i, "send_sms", Kind.SEND, key, 1, T0 + 2L * i));
                last = append(j, index, outcome("t-" + i, "send_sms", Kind.SEND, key, 1, T0 + 2L * i + 1, OutcomeWord.UNKNOWN));
            }
            index.writeSnapshot(dir, last, key);
        }
        Views.Desk fromSnapshot;
        try (JournalConsole console = JournalConsole.unstarted(cli())) {
            assertThat(console.readSnapshot()).isTrue();
            fromSnapshot = console.desk();
        }
        Views.Desk whole;
        try (JournalConsole console = JournalConsole.unstarted(cli())) {
            console.firstPass();
            whole = console.desk();
        }
        assertThat(fromSnapshot).isEqualTo(whole);
        assertThat(whole.forPerson()).hasSize(DeskLists.DESK_ROWS);
        assertThat(whole.forPerson().get(0).key()).isEqualTo(String.format("%032x", 0x300000));
        assertThat(whole.cut()).contains("oldest 1,000", "1,005 for a person");
    }

    @Test
    void aDamagedOpenIntentsFileIsPassedOverForTheSnapshotAndADamagedSnapshotForTheWholeJournal() throws IOException {
        writeJournalWithSnapshot(50);
        Run full = unresolvedFromTheWholeJournal();

        flipAByteIn(dir.resolve(OpenIntents.FILE_NAME));
        assertThat(OpenIntents.read(dir)).as("checked whole").isEmpty();
        assertAnsweredFromTheSnapshotAs(full);

        flipAByteIn(IndexSnapshot.file(dir));
        assertFallsBackTo(full);
    }

    @Test
    void withoutTheOpenIntentsFileTheSnapshotAnswers() throws IOException {
        // a snapshot left by an agent that wrote no such file
        writeJournalWithSnapshot(50);
        Run full = unresolvedFromTheWholeJournal();
        Files.delete(dir.resolve(OpenIntents.FILE_NAME));
        assertAnsweredFromTheSnapshotAs(full);
    }

    private static void flipAByteIn(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x10;
        Files.write(file, bytes, StandardOpenOption.TRUNCATE_EXISTING);
    }

    private void assertAnsweredFromTheSnapshotAs(Run full) {
        assertSnapshotAnswers(true, full);
    }

    @Test
    void aSnapshotOfAnotherJournalIsPassedOver() throws IOException {
        writeJournalWithSnapshot(50);
        Run full = unresolvedFromTheWholeJournal();

        // as if the journal were replaced: the record the snapshot ends at has another key
        LocalIntentIndex other = new LocalIntentIndex();
        try (ChronicleJournal j = ChronicleJournal.openReader(dir)) {
            j.replay(other::apply);
            other.writeSnapshot(dir, j.lastIndex() - 3, "ffffffffffffffffffffffffffffffff");
        }
        assertFallsBackTo(full);
    }

    @Test
    void aRetriedIntentCutOffAfterTheSnapshotIsListedFromTheWholeJournal() throws IOException {
        // an earlier attempt's probe is before the snapshot: only the whole journal shows it
        String retried = "00000000000000000000000000000b01";
        LocalIntentIndex index = new LocalIntentIndex();
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            append(j, index, intent("t-1", "send_sms", Kind.SEND, retried, 1, T0));
            append(j, index, outcome("t-1", "send_sms", Kind.SEND, retried, 1, T0 + 5, OutcomeWord.UNKNOWN));
            append(j, index, JournalRecord.of(RecordType.PROBE).task("t-1").actor("agent-7").call("send_sms")
                    .kind(Kind.SEND).intentKey(retried).attempt(1).started(T0 + 100).probe(ProbeResult.ABSENT).build());
            long last = append(j, index, intent("t-2", "send_sms", Kind.SEND, "00000000000000000000000000000b02", 1, T0 + 150));
            index.writeSnapshot(dir, last, "00000000000000000000000000000b02");
            j.append(intent("t-1", "send_sms", Kind.SEND, retried, 2, T0 + 200));
        }
        Run full = unresolvedFromTheWholeJournal();
        assertThat(full.out()).contains("\"probe\":\"absent\"");
        assertFallsBackTo(full);
    }

    @Test
    void unresolvedWhileTheAgentAppendsAndRewritesItsSnapshotPrintsWhatItPrintedBefore() throws Exception {
        writeJournalWithSnapshot(200);
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            Run before = run("--json", "unresolved");
            AtomicBoolean reading = new AtomicBoolean(true);
            AtomicInteger snapshots = new AtomicInteger();
            CompletableFuture<Void> agent = CompletableFuture.runAsync(() -> {
                // settled intents only, the snapshot rewritten (a rename over the old file) every few records
                long t = T0 + 1_000_000;
                for (int i = 0; reading.get() || i < 40; i++) {
                    String key = String.format("%032x", 0x300000 + i);
                    append(j, index, intent("race-" + i, "send_email", Kind.SEND, key, 1, t++));
                    long last = append(j, index, outcome("race-" + i, "send_email", Kind.SEND, key, 1, t++, OutcomeWord.OK));
                    if (i % 5 == 4) {
                        try {
                            index.writeSnapshot(dir, last, key);
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        snapshots.incrementAndGet();
                    }
                }
            });
            int fromSnapshot = 0;
            try {
                for (int round = 0; round < 25; round++) {
                    try (JournalReader reader = JournalReader.open(dir, 2_000)) {
                        fromSnapshot += SnapshotIntents.fromSnapshot(reader).isPresent() ? 1 : 0;
                    }
                    // only intents that settle at once are written meanwhile: whichever snapshot is read, the list is
                    // the one before, and at most the one intent caught between its intent and its outcome records
                    Run now = run("--json", "unresolved");
                    assertThat(now.code()).isEqualTo(before.code());
                    List<String> racing = now.out().lines().filter(l -> l.startsWith("{\"task\":\"race-")).toList();
                    assertThat(racing).hasSizeLessThanOrEqualTo(1)
                            .allSatisfy(l -> assertThat(l).contains("\"state\":\"no-outcome\""));
                    assertThat(now.out().lines().filter(l -> !racing.contains(l)).toList())
                            .isEqualTo(before.out().lines().toList());
                }
            } finally {
                reading.set(false);
            }
            agent.get(60, TimeUnit.SECONDS);
            assertThat(snapshots.get()).as("snapshots rewritten during the reads").isGreaterThanOrEqualTo(8);
            assertThat(fromSnapshot).as("reads answered from a snapshot").isPositive();
        }
    }

    /** What {@code --json unresolved} prints when the snapshot is not read: the answer a fallback must match. */
    private Run unresolvedFromTheWholeJournal() {
        SnapshotIntents.enabled = false;
        try {
            return run("--json", "unresolved");
        } finally {
            SnapshotIntents.enabled = true;
        }
    }

    private void assertFallsBackTo(Run full) {
        assertSnapshotAnswers(false, full);
    }

    /** Whether the snapshot answers (else the whole journal does); either way the listing is the full pass's. */
    private void assertSnapshotAnswers(boolean answers, Run full) {
        try (JournalReader reader = JournalReader.open(dir, 2_000)) {
            assertThat(SnapshotIntents.fromSnapshot(reader).isPresent()).as("the snapshot answers").isEqualTo(answers);
        } catch (CliException e) {
            throw new AssertionError(e);
        }
        assertThat(run("--json", "unresolved")).isEqualTo(full);
    }

    /**
     * {@code settled} ok intents and the listed ones, an index snapshot as the agent writes it (its own index
     * over the records, then its own snapshot writer), then more records after it. Returns how many are after.
     */
    private int writeJournalWithSnapshot(int settled) throws IOException {
        index = new LocalIntentIndex();
        List<JournalRecord> after = new ArrayList<>();
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            long t = T0;
            append(j, index, intent("ord-1", "send_sms", Kind.SEND, SETTLED_IN_TAIL, 1, t++));
            append(j, index, outcome("ord-1", "send_sms", Kind.SEND, SETTLED_IN_TAIL, 1, t++, OutcomeWord.UNKNOWN));
            append(j, index, JournalRecord.of(RecordType.APPROVAL_REQUESTED).task("ord-2").actor("agent-7").call("refund")
                    .kind(Kind.MONEY).intentKey(REOPENED).started(t++).args("{\"order\":\"o-2\"}").build());
            append(j, index, JournalRecord.of(RecordType.APPROVAL).task("ord-2").actor("agent-7").call("refund")
                    .kind(Kind.MONEY).intentKey(REOPENED).started(t++).verdict("approved").by("ops").note("fine").build());
            for (int i = 0; i < settled; i++) {
                String key = String.format("%032x", 0x100000 + i);
                append(j, index, intent("bulk-" + i / 4, "send_email", Kind.SEND, key, 1, t++));
                append(j, index, outcome("bulk-" + i / 4, "send_email", Kind.SEND, key, 1, t++, OutcomeWord.OK));
            }
            append(j, index, intent("ord-3", "send_sms", Kind.SEND, STILL_UNKNOWN, 1, t++));
            append(j, index, outcome("ord-3", "send_sms", Kind.SEND, STILL_UNKNOWN, 1, t++, OutcomeWord.UNKNOWN));
            append(j, index, intent("ord-3", "pay", Kind.MONEY, PROBE_FAILED, 1, t++));
            append(j, index, JournalRecord.of(RecordType.PROBE).task("ord-3").actor("agent-7").call("pay").kind(Kind.MONEY)
                    .intentKey(PROBE_FAILED).attempt(1).started(t++).probe(ProbeResult.FAILED).message("probe threw").build());
            append(j, index, intent("ord-4", "set_flag", Kind.IDEMPOTENT, SETTLES, 1, t++));
            append(j, index, JournalRecord.of(RecordType.APPROVAL_REQUESTED).task("ord-5").actor("agent-7").call("refund")
                    .kind(Kind.MONEY).intentKey(AWAITING).started(t++).args("{\"order\":\"o-5\",\"cents\":500}").build());
            append(j, index, JournalRecord.of(RecordType.INTENT).task("ord-6").actor("agent-7").call("create_user")
                    .kind(Kind.CREATE).intentKey(KEY_SENT).attempt(1).attemptId("ord-6-a1").started(t++)
                    .reentry("-").args("{\"name\":\"ann\"}").build());
            append(j, index, JournalRecord.of(RecordType.KEY_SENT).task("ord-6").actor("agent-7").call("create_user")
                    .kind(Kind.CREATE).intentKey(KEY_SENT).attempt(1).started(t++).build());
            String lastKey = String.format("%032x", 0x200000);
            long last = append(j, index, intent("ord-7", "send_email", Kind.SEND, lastKey, 1, t++));
            // the agent's own snapshot writer, at the record the index has folded
            index.writeSnapshot(dir, last, lastKey);

            after.add(outcome("ord-7", "send_email", Kind.SEND, lastKey, 1, t++, OutcomeWord.OK));
            after.add(JournalRecord.of(RecordType.RESOLUTION).task("ord-1").actor("agent-7").call("send_sms")
                    .kind(Kind.SEND).intentKey(SETTLED_IN_TAIL).started(t++).effectApplied(Effect.YES).note("arrived")
                    .by("ann").build());
            after.add(intent("ord-2", "refund", Kind.MONEY, REOPENED, 1, t++));
            after.add(intent("ord-8", "send_sms", Kind.SEND, ONLY_IN_TAIL, 1, t++));
            after.add(outcome("ord-8", "send_sms", Kind.SEND, ONLY_IN_TAIL, 1, t++, OutcomeWord.UNKNOWN));
            after.add(JournalRecord.of(RecordType.DEDUP).task("bulk-0").actor("agent-7").call("send_email")
                    .kind(Kind.SEND).intentKey(String.format("%032x", 0x100000)).started(t++).outcome(OutcomeWord.OK)
                    .effectApplied(Effect.YES).build());
            for (JournalRecord r : after) {
                append(j, index, r);
            }
        }
        return after.size();
    }

    private static long append(ChronicleJournal j, LocalIntentIndex index, JournalRecord r) {
        long at = j.append(r);
        index.apply(at, r);
        return at;
    }

    private static JournalRecord intent(String task, String call, Kind kind, String key, int attempt, long started) {
        return JournalRecord.of(RecordType.INTENT).task(task).actor("agent-7").call(call).kind(kind).intentKey(key)
                .attempt(attempt).attemptId(task + "-" + key.substring(24) + "-a" + attempt).started(started)
                .budgetLeftS(60L).reentry("-").args("{\"n\":" + attempt + "}").pid(4242).build();
    }

    private static JournalRecord outcome(String task, String call, Kind kind, String key, int attempt, long started,
                                         OutcomeWord word) {
        boolean ok = word == OutcomeWord.OK;
        return JournalRecord.of(RecordType.OUTCOME).task(task).actor("agent-7").call(call).kind(kind).intentKey(key)
                .attempt(attempt).attemptId(task + "-" + key.substring(24) + "-a" + attempt).started(started)
                .outcome(word).effectApplied(ok ? Effect.YES : Effect.UNKNOWN).result(ok ? "\"queued\"" : null)
                .durationMs(3L).message(ok ? null : "read timed out").build();
    }

    private static final Clock AN_HOUR_LATER = Clock.fixed(Instant.ofEpochMilli(T0 + 3_600_000), ZoneOffset.UTC);

    private JournalCli cli() {
        JournalCli cli = new JournalCli(new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(new ByteArrayOutputStream()), Map.of(), false, AN_HOUR_LATER, 2_000);
        cli.dir = dir;
        return cli;
    }

    /** What a CLI run printed and returned, at one fixed instant so ages print alike. */
    record Run(int code, String out, String err) {
    }

    private Run run(String... args) {
        List<String> all = new ArrayList<>(List.of("--dir", dir.toString()));
        all.addAll(List.of(args));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = JournalCli.run(all.toArray(String[]::new), o, e, Map.of(), false,
                    AN_HOUR_LATER, 2_000);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }
}

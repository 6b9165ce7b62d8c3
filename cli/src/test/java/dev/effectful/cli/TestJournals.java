package dev.effectful.cli;

import dev.effectful.core.journal.ProbeResult;
import dev.effectful.core.journal.OutcomeWord;
import dev.effectful.core.journal.Kind;
import dev.effectful.core.journal.Effect;
import dev.effectful.core.journal.ChronicleJournal;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;

/** Synthetic journals that look like what the engine writes, and a CLI runner with captured output. */
final class TestJournals {

    static final String K_OK = "0123456789abcdef0123456789abcdef";
    static final String K_CRASH = "fedcba9876543210fedcba9876543210";
    static final String K_UNKNOWN = "00000000000000000000000000000001";
    static final String K_PROBE_FAILED = "00000000000000000000000000000002";
    static final String K_RETRY = "00000000000000000000000000000003";
    static final long T0 = 1_780_000_000_000L;

    private TestJournals() {
    }

    /**
     * Task "ord-1": an ok send (then a dedup), a retryable then ok charge... ; task "ord-2": a crash
     * mid-call (intent, no outcome), an unknown outcome, a failed probe.
     */
    static void writeScenario(Path dir) throws IOException {
        try (ChronicleJournal j = ChronicleJournal.openWriter(dir, false, null, null)) {
            for (JournalRecord r : scenario()) {
                j.append(r);
            }
        }
    }

    /** The records of {@link #writeScenario}, in order. */
    static java.util.List<JournalRecord> scenario() {
        java.util.List<JournalRecord> j = new java.util.ArrayList<>();
        j.add(intent("ord-1", "send_email", "send", K_OK, 1, T0, "{\"to\":\"a@example.com\",\"subject\":\"hi\"}"));
        j.add(outcome("ord-1", "send_email", "send", K_OK, 1, T0 + 10, "ok", "yes", "{\"id\":\"m-1\"}", 120L));
        j.add(JournalRecord.of(RecordType.DEDUP).task("ord-1").call("send_email").kind(Kind.SEND).intentKey(K_OK)
                .started(T0 + 500).outcome(OutcomeWord.OK).effectApplied(Effect.YES).build());
        j.add(intent("ord-1", "charge", "money", K_RETRY, 1, T0 + 600, "{\"amount\":12}"));
        j.add(outcome("ord-1", "charge", "money", K_RETRY, 1, T0 + 610, "retryable", "no", null, 30L));
        j.add(intent("ord-2", "create_order", "create", K_CRASH, 1, T0 + 1000,
                "{\"sku\":\"X-1\",\"card\":\"hmac:9f2c…\"}"));
        j.add(intent("ord-2", "send_sms", "send", K_UNKNOWN, 2, T0 + 2000, "{\"to\":\"+100\"}"));
        j.add(outcome("ord-2", "send_sms", "send", K_UNKNOWN, 2, T0 + 2100, "unknown", "unknown", null, 8100L));
        j.add(intent("ord-2", "pay", "money", K_PROBE_FAILED, 1, T0 + 3000, "{\"amount\":5}"));
        j.add(JournalRecord.of(RecordType.PROBE).task("ord-2").call("pay").kind(Kind.MONEY).intentKey(K_PROBE_FAILED)
                .started(T0 + 3100).probe(ProbeResult.FAILED).message("probe threw IOException").build());
        return j;
    }

    /** Writes the scenario to args[0]: for tests that need a journal but run without Chronicle's JVM flags. */
    public static void main(String[] args) throws IOException {
        writeScenario(Path.of(args[0]));
    }

    static JournalRecord intent(String task, String call, String kind, String key, int attempt, long started, String args) {
        return JournalRecord.of(RecordType.INTENT).task(task).actor("agent-7").call(call).kind(Kind.fromWord(kind)).intentKey(key)
                .attempt(attempt).attemptId(task + "-" + key.substring(0, 8) + "-a" + attempt).started(started)
                .budgetLeftS(60L).args(args).build();
    }

    static JournalRecord outcome(String task, String call, String kind, String key, int attempt, long started,
                                 String outcome, String effect, String result, Long durationMs) {
        return JournalRecord.of(RecordType.OUTCOME).task(task).actor("agent-7").call(call).kind(Kind.fromWord(kind)).intentKey(key)
                .attempt(attempt).attemptId(task + "-" + key.substring(0, 8) + "-a" + attempt).started(started)
                .outcome(OutcomeWord.fromWord(outcome)).effectApplied(Effect.fromWord(effect)).result(result).durationMs(durationMs)
                .retryAfterS("retryable".equals(outcome) ? 30L : null)
                .message("ok".equals(outcome) ? null : "503 from POST after 8.1s").build();
    }

    /** What a CLI run printed and returned. */
    record Run(int code, String out, String err) {
    }

    static Run cli(String... args) {
        return cli(Map.of(), false, args);
    }

    static Run cli(Map<String, String> env, boolean terminal, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = JournalCli.run(args, o, e, env, terminal, Clock.systemDefaultZone(), 2_000);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }
}

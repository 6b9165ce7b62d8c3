package dev.effectful.agent.reliability;

import dev.effectful.agent.e2e.JournalContents;
import dev.effectful.core.journal.JournalRecord;
import dev.effectful.core.journal.RecordType;
import dev.effectful.core.keys.IntentKeys;
import dev.effectful.core.reentry.IntentState;
import dev.effectful.core.reentry.LocalIntentIndex;
import dev.effectful.core.reentry.Phase;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Judges a campaign from the two witnesses that outlive the kills: the ledger (what really happened)
 * and the journal (what the agent knew). Never from the workload's own word.
 *
 * <ul>
 *   <li>duplicate: a reference the ledger applied more than once (an idempotent write or a keyable
 *       create counts as applied once however often it was sent: that is what those kinds mean);</li>
 *   <li>lost: an effect whose intent key has no intent record, a script step that ended neither ok nor
 *       unresolved, or a step the journal calls ok that the ledger never saw;</li>
 *   <li>unresolved that a probe could have settled: a held intent of a tool the rules do not leave to a person.</li>
 * </ul>
 */
public record Verdict(long seed, int kills, int runs, int tasks, int intentRecords, int intents, int cutAttempts,
                      int effects, int hits, int duplicates, int lost, int settleableUnresolved,
                      Map<String, Row> byTool, List<String> problems) {

    /** One tool's line of the table. */
    public record Row(String tool, String kind, int steps, int ok, int unresolved, int unresolvedApplied, int effects,
                      int hits, int duplicates, int lost) {
    }

    /** A ledger line: verb, reference, raw hits, applied effects, the intent keys of the hits. */
    record LedgerEntry(String verb, String ref, int hits, int applied, List<String> keys) {
    }

    public boolean passed() {
        return duplicates == 0 && lost == 0 && settleableUnresolved == 0;
    }

    public static Verdict judge(Path journalDir, Path ledgerDump, List<String> taskIds, long seed, int kills, int runs)
            throws IOException {
        List<JournalRecord> records = JournalContents.of(journalDir).records();
        LocalIntentIndex index = new LocalIntentIndex();
        Set<String> intentKeys = new HashSet<>();
        Set<String> attemptsWithOutcome = new HashSet<>();
        int intentRecords = 0;
        long i = 0;
        for (JournalRecord r : records) {
            index.apply(i++, r);
            if (r.type() == RecordType.INTENT) {
                intentRecords++;
                intentKeys.add(r.intentKey());
            } else if (r.type() == RecordType.OUTCOME) {
                attemptsWithOutcome.add(r.intentKey() + "#" + r.attempt());
            }
        }
        int cut = 0;
        for (JournalRecord r : records) {
            if (r.type() == RecordType.INTENT && !attemptsWithOutcome.contains(r.intentKey() + "#" + r.attempt())) {
                cut++;
            }
        }

        Map<String, LedgerEntry> ledger = new HashMap<>();
        for (String line : Files.readAllLines(ledgerDump)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(" ", 5);
            ledger.put(f[0] + " " + f[1], new LedgerEntry(f[0], f[1], Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                    f.length > 4 && !f[4].isEmpty() ? List.of(f[4].split(",")) : List.of()));
        }

        List<String> problems = new ArrayList<>();
        Map<String, int[]> counts = new LinkedHashMap<>(); // steps ok unresolved unresolvedApplied effects hits dup lost
        for (Script.Tool t : Script.TOOLS) {
            counts.put(t.verb(), new int[8]);
        }
        int settleable = 0;
        // every ledger effect must have been announced in the journal first
        for (LedgerEntry e : ledger.values()) {
            int[] c = counts.get(e.verb());
            if (c == null) {
                problems.add("ledger has an unknown verb: " + e.verb());
                continue;
            }
            c[4] += e.applied();
            c[5] += e.hits();
            if (e.applied() > 1) {
                c[6] += e.applied() - 1;
                problems.add("duplicate: " + e.verb() + " " + e.ref() + " applied " + e.applied() + " times by " + e.keys());
            }
            for (String k : e.keys()) {
                String intentKey = journalKeyOf(e.verb(), k);
                if (!intentKeys.contains(intentKey)) {
                    c[7]++;
                    problems.add("lost: " + e.verb() + " " + e.ref() + " applied by " + k + " with no intent record");
                }
            }
        }
        // every step of every task the campaign started must end ok or held
        for (String task : taskIds) {
            for (Script.Step s : Script.steps(task)) {
                int[] c = counts.get(s.tool().verb());
                Map<String, String> keys = stepKeys(s);
                for (Map.Entry<String, String> k : keys.entrySet()) {
                    c[0]++;
                    IntentState st = index.get(k.getKey()).orElse(null);
                    LedgerEntry e = ledger.get(s.tool().verb() + " " + k.getValue());
                    boolean applied = e != null && e.applied() > 0;
                    if (st != null && (st.phase() == Phase.OK || st.phase() == Phase.RESOLVED_APPLIED)) {
                        c[1]++;
                        if (!s.tool().kind().equals("read") && !applied) {
                            c[7]++;
                            problems.add("lost: " + task + " " + s.tool().verb() + " is ok in the journal but the ledger never saw it");
                        }
                    } else if (st != null && st.isUnresolved()) {
                        c[2]++;
                        if (applied) {
                            c[3]++;
                        }
                        if (!s.tool().needsPerson()) {
                            settleable++;
                            problems.add("unresolved but settleable: " + task + " " + s.tool().verb() + " " + st.phase());
                        }
                    } else {
                        c[7]++;
                        problems.add("lost: " + task + " " + s.tool().verb() + " ended " + (st == null ? "with no record" : st.phase()));
                    }
                }
            }
        }
        Map<String, Row> byTool = new LinkedHashMap<>();
        int effects = 0;
        int hits = 0;
        int dups = 0;
        int lost = 0;
        for (Script.Tool t : Script.TOOLS) {
            int[] c = counts.get(t.verb());
            byTool.put(t.verb(), new Row(t.verb(), t.kind() + (t.probe() ? "+probe" : "") + (t.keyable() ? "+keyable" : "")
                    + (t.batch() ? " batch" : ""), c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]));
            effects += c[4];
            hits += c[5];
            dups += c[6];
            lost += c[7];
        }
        return new Verdict(seed, kills, runs, taskIds.size(), intentRecords, intentKeys.size(), cut, effects, hits, dups,
                lost, settleable, byTool, problems);
    }

    /** The intent key of each journaled intent of a step, with the ledger reference it acts on. */
    static Map<String, String> stepKeys(Script.Step s) {
        String callKey = IntentKeys.derive(s.task(), null, s.tool().verb(), "[\"" + s.ref() + "\"]", null);
        Map<String, String> keys = new LinkedHashMap<>();
        if (s.tool().batch()) {
            for (String row : Script.ROWS) {
                keys.put(IntentKeys.forItem(callKey, row), s.ref() + ":" + row);
            }
        } else {
            keys.put(callKey, s.ref());
        }
        return keys;
    }

    /** Batch rows reach the ledger as {@code callKey:rowId}; the journal knows each row by its item key. */
    private static String journalKeyOf(String verb, String ledgerKey) {
        int colon = ledgerKey.indexOf(':');
        return Script.tool(verb).batch() && colon > 0
                ? IntentKeys.forItem(ledgerKey.substring(0, colon), ledgerKey.substring(colon + 1)) : ledgerKey;
    }

    public String table() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%-15s %-24s %6s %6s %10s %8s %8s %6s %10s %5s%n", "tool", "kind", "steps",
                "ok", "unresolved", "effects", "sent", "dups", "lost", ""));
        for (Row r : byTool.values()) {
            s.append(String.format(Locale.ROOT, "%-15s %-24s %6d %6d %10s %8d %8d %6d %10d%n", r.tool(), r.kind(), r.steps(),
                    r.ok(), r.unresolved() + (r.unresolved() > 0 ? " (" + r.unresolvedApplied() + " landed)" : ""),
                    r.effects(), r.hits(), r.duplicates(), r.lost()));
        }
        s.append(String.format(Locale.ROOT, "%nseed %d, kills %d, runs %d, tasks %d, intent records %d (%d intents, %d cut by a kill),"
                        + " effects %d (%d requests)%nduplicates %d, lost %d, unresolved a probe could settle %d => %s%n",
                seed, kills, runs, tasks, intentRecords, intents, cutAttempts, effects, hits, duplicates, lost,
                settleableUnresolved, passed() ? "PASS" : "FAIL"));
        for (String p : problems.subList(0, Math.min(20, problems.size()))) {
            s.append("  ").append(p).append('\n');
        }
        return s.toString();
    }

    public String toJson() {
        StringBuilder s = new StringBuilder("{\n");
        s.append(String.format(Locale.ROOT, "  \"seed\": %d,%n  \"kills\": %d,%n  \"runs\": %d,%n  \"tasks\": %d,%n"
                        + "  \"intent_records\": %d,%n  \"intents\": %d,%n  \"attempts_cut_by_kill\": %d,%n  \"effects\": %d,%n"
                        + "  \"requests\": %d,%n  \"duplicates\": %d,%n  \"lost\": %d,%n  \"unresolved_settleable\": %d,%n"
                        + "  \"passed\": %s,%n",
                seed, kills, runs, tasks, intentRecords, intents, cutAttempts, effects, hits, duplicates, lost,
                settleableUnresolved, passed()));
        Map<String, Integer> unresolvedByKind = new LinkedHashMap<>();
        for (Row r : byTool.values()) {
            unresolvedByKind.merge(r.kind(), r.unresolved(), Integer::sum);
        }
        s.append("  \"unresolved_by_kind\": {");
        s.append(String.join(", ", unresolvedByKind.entrySet().stream()
                .map(e -> "\"" + e.getKey() + "\": " + e.getValue()).toList()));
        s.append("},\n  \"by_tool\": [\n");
        List<String> rows = new ArrayList<>();
        for (Row r : byTool.values()) {
            rows.add(String.format(Locale.ROOT, "    {\"tool\": \"%s\", \"kind\": \"%s\", \"steps\": %d, \"ok\": %d, \"unresolved\": %d,"
                            + " \"unresolved_landed\": %d, \"effects\": %d, \"requests\": %d, \"duplicates\": %d, \"lost\": %d}",
                    r.tool(), r.kind(), r.steps(), r.ok(), r.unresolved(), r.unresolvedApplied(), r.effects(), r.hits(),
                    r.duplicates(), r.lost()));
        }
        s.append(String.join(",\n", rows)).append("\n  ],\n  \"problems\": [");
        s.append(String.join(", ", problems.stream().limit(100).map(p -> "\"" + p.replace("\"", "'") + "\"").toList()));
        s.append("]\n}\n");
        return s.toString();
    }
}

package dev.effectful.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Three witnesses side by side: what the model was told, what the service's ledger says happened,
 * and what the journal recorded. The closing numbers come from the ledger and the model's own
 * requests, never from the agent, so the demo cannot flatter the product: every effectful call the
 * model made is counted once, as applied (the ledger shows its effect), prevented (answered ok with
 * no new effect), refused (nothing landed, the model was told so) or held (told unknown, nothing new
 * landed), so the four add up to the calls requested. Every line fits 100 columns; nothing is cut.
 */
final class Summary {

    static final String[] STEPS = {"search_products", "create_order", "send_email", "charge_card", "cancel_order"};
    static final Map<String, String> INJECTED = Map.of(
            "search_products", "-",
            "create_order", "429+Retry-After, partial batch, duplicate delivery",
            "send_email", "200 with error body, slow success",
            "charge_card", "kill -9 mid-call",
            "cancel_order", "reply lost (502)");

    /** What became of one effectful call: every call the model made lands in exactly one of these. */
    enum Fate {
        APPLIED, PREVENTED, REFUSED, HELD;

        String word() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    static final int WIDTH = 100;

    private final boolean withAgent;
    private final List<Transcript.Call> calls;
    private final List<LedgerService.Effect> effects;
    private final List<JournalView.Record> journal;
    final int requested;
    final int applied;
    final int duplicatesApplied;
    final int duplicatesPrevented;
    private final Map<String, Integer> perStep = new LinkedHashMap<>();
    private final Map<Transcript.Call, Fate> fates = new IdentityHashMap<>(); // two calls may be equal records
    private final Map<Fate, Integer> byFate = new EnumMap<>(Fate.class);

    private Summary(boolean withAgent, List<Transcript.Call> calls, List<LedgerService.Effect> effects,
                    List<JournalView.Record> journal) {
        this.withAgent = withAgent;
        this.calls = calls;
        this.effects = effects;
        this.journal = journal;
        int dup = 0;
        for (String step : STEPS) {
            int n = (int) effects.stream().filter(e -> e.step().equals(step)).count();
            perStep.put(step, n);
            dup += Math.max(0, n - 1);
        }
        Map<Transcript.Call, Integer> landed = attribute(calls, effects);
        for (Fate f : Fate.values()) {
            byFate.put(f, 0);
        }
        for (Transcript.Call c : calls) {
            if (c.effectful()) {
                Fate f = fateOf(c, landed.getOrDefault(c, 0));
                fates.put(c, f);
                byFate.merge(f, 1, Integer::sum);
            }
        }
        this.requested = fates.size();
        this.applied = effects.size();
        this.duplicatesApplied = dup;
        this.duplicatesPrevented = byFate.get(Fate.PREVENTED);
    }

    /**
     * Which call each ledger effect came from: the latest call of the same step that had started when
     * the service applied it (the clocks are one machine's). The ledger, not the agent, is the witness.
     */
    private static Map<Transcript.Call, Integer> attribute(List<Transcript.Call> calls, List<LedgerService.Effect> effects) {
        Map<Transcript.Call, Integer> landed = new IdentityHashMap<>();
        for (LedgerService.Effect e : effects) {
            Transcript.Call from = null;
            for (Transcript.Call c : calls) {
                if (c.tool().equals(e.step()) && (from == null || c.startedAt() <= e.atMillis())) {
                    from = c;
                }
            }
            if (from != null) {
                landed.merge(from, 1, Integer::sum);
            }
        }
        return landed;
    }

    private static Fate fateOf(Transcript.Call c, int effectsLanded) {
        if (effectsLanded > 0) {
            return Fate.APPLIED;
        }
        return switch (c.seen()) {
            case "ok" -> Fate.PREVENTED;
            case "unknown", "killed" -> Fate.HELD;
            default -> Fate.REFUSED;
        };
    }

    static Summary of(boolean withAgent, List<Transcript.Call> calls, List<LedgerService.Effect> effects,
                      List<JournalView.Record> journal) {
        return new Summary(withAgent, calls, effects, journal);
    }

    int count(Fate f) {
        return byFate.get(f);
    }

    void print(PrintStream out) {
        out.println();
        out.println("per step: what the model saw (act 1 | act 2), the service's ledger, the journal");
        for (String step : STEPS) {
            out.println(step + "   injected: " + INJECTED.get(step));
            wrap(out, "    model saw  ", seen(step));
            wrap(out, "    ledger     ", ledger(step));
            wrap(out, "    journal    ", journalOf(step));
        }
        out.println();
        out.printf("effects requested: %d = applied %d + prevented %d + refused %d + held %d%n", requested,
                count(Fate.APPLIED), count(Fate.PREVENTED), count(Fate.REFUSED), count(Fate.HELD));
        wrap(out, String.format("    requested %3d  ", requested), "effectful calls the model made (search_products is a"
                + " read and is not counted); each is one of the four below");
        wrap(out, String.format("    applied   %3d  ", count(Fate.APPLIED)), "calls whose effect the service's ledger shows"
                + " (ledger: " + applied + " effect" + (applied == 1 ? "" : "s") + ", of which " + duplicatesApplied
                + " duplicate" + (duplicatesApplied == 1 ? "" : "s") + " of an effect that had already landed)" + which(Fate.APPLIED));
        wrap(out, String.format("    prevented %3d  ", count(Fate.PREVENTED)), count(Fate.PREVENTED) == 0
                ? (withAgent ? "no repeat was answered without reaching the service"
                        : "nothing stops a repeat without the agent: every call reached the service")
                : "repeats answered ok with no second effect: the effect had landed, so the agent returned it from"
                        + " the journal or found it with a probe" + which(Fate.PREVENTED));
        wrap(out, String.format("    refused   %3d  ", count(Fate.REFUSED)), "nothing landed and the model was told so"
                + which(Fate.REFUSED));
        wrap(out, String.format("    held      %3d  ", count(Fate.HELD)), count(Fate.HELD) == 0
                ? "no call was left unknown"
                : "told \"unknown\" (or killed) and nothing new landed: an earlier attempt may have applied and no"
                        + " probe can tell, so it is not sent again until a person settles it (journal unresolved,"
                        + " journal resolve)" + which(Fate.HELD));
        if (!withAgent) {
            wrap(out, "    ", "WITHOUT the agent every re-issued call reached the service: " + duplicatesApplied
                    + " duplicate effect" + (duplicatesApplied == 1 ? "" : "s") + "; compare with a run WITH -javaagent");
        }
        terms(out);
    }

    /** The tools behind a count, e.g. ": create_order×2, send_email×1". */
    private String which(Fate f) {
        Map<String, Integer> tools = new LinkedHashMap<>();
        for (Transcript.Call c : calls) {
            if (fates.get(c) == f) {
                tools.merge(c.tool() + " " + c.seen(), 1, Integer::sum);
            }
        }
        return tools.isEmpty() ? "" : ": " + tools.entrySet().stream().map(e -> e.getKey() + "×" + e.getValue())
                .collect(Collectors.joining(", "));
    }

    /** One line for each odd word that appears above, so no number or column is left unexplained. */
    private void terms(PrintStream out) {
        Map<String, String> words = new LinkedHashMap<>();
        words.put("retry+RA", "retryable with Retry-After: wait that many seconds, then the same call may run");
        words.put("retry", "retryable, effect no: nothing landed, the same call may run again");
        words.put("perm", "permanent: the same call would fail again; change something");
        words.put("unknown", "nobody can tell whether the effect landed (probed or held on the next call)");
        words.put("killed", "the assistant was killed (kill -9) before the answer came");
        words.put("timeout", "no answer in time; the effect may still have landed");
        words.put("200+error", "HTTP 200 whose body says the operation failed");
        words.put("DUP", "the same effect landed more than once");
        words.put("run", "journal: an intent written before the body ran");
        words.put("dedup", "journal: a repeat answered with the stored result; body not run");
        words.put("probe:found", "journal: a probe found the effect; body not run");
        words.put("probe:absent", "journal: a probe found nothing; the body ran");
        words.put("refused", "journal: not run (Retry-After not passed, or held for a person)");
        StringBuilder shown = new StringBuilder();
        for (String step : STEPS) {
            shown.append(' ').append(seen(step)).append(' ').append(ledger(step)).append(' ').append(journalOf(step));
        }
        String text = shown.toString().replace('×', ' ');
        boolean first = true;
        for (Map.Entry<String, String> w : words.entrySet()) {
            if (java.util.regex.Pattern.compile("(^|[ |(])" + java.util.regex.Pattern.quote(w.getKey()) + "($|[ |)])")
                    .matcher(text).find()) {
                wrap(out, (first ? "terms: " : "       ") + pad(w.getKey(), 13), w.getValue());
                first = false;
            }
        }
    }

    /** Prints {@code text} after {@code prefix}, wrapped at {@link #WIDTH} on spaces; nothing is cut. */
    static void wrap(PrintStream out, String prefix, String text) {
        String indent = " ".repeat(prefix.length());
        StringBuilder line = new StringBuilder(prefix);
        boolean empty = true;
        for (String word : text.split(" ")) {
            if (!empty && line.length() + 1 + word.length() > WIDTH) {
                out.println(line);
                line = new StringBuilder(indent);
                empty = true;
            }
            if (!empty) {
                line.append(' ');
            }
            line.append(word);
            empty = false;
        }
        out.println(line);
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + " " : s + " ".repeat(width - s.length());
    }

    private String seen(String step) {
        String a1 = calls.stream().filter(c -> c.tool().equals(step) && c.act().equals("first")).map(Transcript.Call::seen)
                .collect(Collectors.joining(" "));
        String a2 = calls.stream().filter(c -> c.tool().equals(step) && !c.act().equals("first")).map(Transcript.Call::seen)
                .collect(Collectors.joining(" "));
        return "act 1: " + (a1.isEmpty() ? "-" : a1) + " | act 2: " + (a2.isEmpty() ? "-" : a2);
    }

    private String ledger(String step) {
        List<LedgerService.Effect> mine = effects.stream().filter(e -> e.step().equals(step)).toList();
        if (step.equals("search_products")) {
            return "a read: no effect";
        }
        if (mine.isEmpty()) {
            return "nothing";
        }
        String noun = switch (step) {
            case "create_order" -> "order";
            case "send_email" -> "email";
            case "charge_card" -> "charge";
            default -> "cancel";
        };
        String each = mine.stream().map(e -> e.step().equals("create_order") ? e.detail() : e.target())
                .collect(Collectors.joining(", "));
        return mine.size() + " " + noun + (mine.size() > 1 ? "s" : "") + ": " + each + (mine.size() > 1 ? " DUP" : "");
    }

    private String journalOf(String step) {
        if (!withAgent) {
            return "(no agent, no journal)";
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (JournalView.Record r : journal) {
            if (!r.call().equals(step)) {
                continue;
            }
            String word = switch (r.type()) {
                case "intent" -> "run";
                case "outcome" -> r.outcome().isEmpty() ? "outcome" : r.outcome().replace("retryable", "retry");
                case "probe" -> "probe:" + (r.probe().isEmpty() ? "?" : r.probe());
                default -> r.type(); // dedup, refused, resolution
            };
            counts.merge(word, 1, Integer::sum);
        }
        if (counts.isEmpty()) {
            return journal.isEmpty() ? "(no journal export)" : "-";
        }
        return counts.entrySet().stream().map(e -> e.getKey() + "×" + e.getValue()).collect(Collectors.joining(" "));
    }

    String toJson(String ledgerJson, List<Long> children, Path journalDir, long elapsedMs) throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = json.createObjectNode();
        root.put("mode", withAgent ? "agent" : "no-agent");
        root.put("effects_requested", requested);
        root.put("effects_applied", applied);
        root.put("duplicates_prevented", duplicatesPrevented);
        root.put("duplicates_applied", duplicatesApplied);
        ObjectNode fateCounts = root.putObject("requested_by_fate");
        for (Fate f : Fate.values()) {
            fateCounts.put(f.word(), count(f));
        }
        ObjectNode steps = root.putObject("ledger_per_step");
        perStep.forEach(steps::put);
        root.set("ledger", json.readTree(ledgerJson));
        ArrayNode pids = root.putArray("child_pids");
        children.forEach(pids::add);
        ArrayNode seen = root.putArray("calls");
        for (Transcript.Call c : calls) {
            seen.addObject().put("act", c.act()).put("tool", c.tool()).put("seen", c.seen()).put("args", c.args())
                    .put("result", c.result()).put("fate", fates.containsKey(c) ? fates.get(c).word() : "read");
        }
        root.put("journal_dir", journalDir.toString());
        root.put("journal_records", journal.size());
        root.put("elapsed_ms", elapsedMs);
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }
}

package dev.effectful.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Three witnesses side by side: what the model was told, what the service's ledger says happened,
 * and what the journal recorded. The closing numbers come from the ledger and the model's own
 * requests, never from the agent, so the demo cannot flatter the product.
 */
final class Summary {

    static final String[] STEPS = {"search_products", "create_order", "send_email", "charge_card", "cancel_order"};
    static final Map<String, String> INJECTED = Map.of(
            "search_products", "-",
            "create_order", "429+Retry-After, partial batch, duplicate delivery",
            "send_email", "200 with error body, slow success",
            "charge_card", "kill -9 mid-call",
            "cancel_order", "reply lost (502)");

    private final boolean withAgent;
    private final List<Transcript.Call> calls;
    private final List<LedgerService.Effect> effects;
    private final List<JournalView.Record> journal;
    final int requested;
    final int applied;
    final int duplicatesApplied;
    final int duplicatesPrevented;
    private final Map<String, Integer> perStep = new LinkedHashMap<>();

    private Summary(boolean withAgent, List<Transcript.Call> calls, List<LedgerService.Effect> effects,
                    List<JournalView.Record> journal) {
        this.withAgent = withAgent;
        this.calls = calls;
        this.effects = effects;
        this.journal = journal;
        int dup = 0;
        int redundant = 0;
        for (String step : STEPS) {
            List<LedgerService.Effect> mine = effects.stream().filter(e -> e.step().equals(step)).toList();
            perStep.put(step, mine.size());
            dup += Math.max(0, mine.size() - 1);
            if (!mine.isEmpty()) {
                long firstLanded = mine.get(0).atMillis();
                // a call made after the step's effect had landed can only repeat it, or be stopped
                redundant += (int) calls.stream().filter(c -> c.tool().equals(step) && c.effectful() && c.startedAt() > firstLanded).count();
            }
        }
        this.requested = (int) calls.stream().filter(Transcript.Call::effectful).count();
        this.applied = effects.size();
        this.duplicatesApplied = dup;
        this.duplicatesPrevented = Math.max(0, redundant - dup);
    }

    static Summary of(boolean withAgent, List<Transcript.Call> calls, List<LedgerService.Effect> effects,
                      List<JournalView.Record> journal) {
        return new Summary(withAgent, calls, effects, journal);
    }

    void print(PrintStream out) {
        out.println();
        out.printf("%-15s| %-38s| %-26s| %s%n", "step", "what the model saw (act 1 | act 2)", "service ledger", "journal (CLI export)");
        out.println("-".repeat(15) + "+" + "-".repeat(39) + "+" + "-".repeat(27) + "+" + "-".repeat(34));
        for (String step : STEPS) {
            out.printf("%-15s| %-38s| %-26s| %s%n", step, seen(step), ledger(step), journalOf(step));
            out.printf("%-15s|   injected: %s%n", "", INJECTED.get(step));
        }
        out.println();
        out.printf("effects requested: %d, effects applied: %d, duplicates prevented: %d (duplicates applied: %d)%n",
                requested, applied, duplicatesPrevented, duplicatesApplied);
        out.println(withAgent
                ? "   requested = effectful calls the model made; applied and duplicates = the service's ledger"
                : "   WITHOUT the agent every re-issued call reached the service: compare with a run WITH -javaagent");
    }

    private String seen(String step) {
        String a1 = calls.stream().filter(c -> c.tool().equals(step) && c.act().equals("first")).map(Transcript.Call::seen)
                .collect(Collectors.joining(" "));
        String a2 = calls.stream().filter(c -> c.tool().equals(step) && !c.act().equals("first")).map(Transcript.Call::seen)
                .collect(Collectors.joining(" "));
        return AssistantMain.shorten((a1.isEmpty() ? "-" : a1) + " | " + (a2.isEmpty() ? "-" : a2), 38);
    }

    private String ledger(String step) {
        List<LedgerService.Effect> mine = effects.stream().filter(e -> e.step().equals(step)).toList();
        if (step.equals("search_products")) {
            return "(a read: no effect)";
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
        String first = mine.get(0).step().equals("create_order") ? mine.get(0).detail() : mine.get(0).target();
        return AssistantMain.shorten(mine.size() + " " + noun + (mine.size() > 1 ? "s" : "") + " (" + first
                + (mine.size() > 1 ? ", …" : "") + ")" + (mine.size() > 1 ? " DUP" : ""), 26);
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
        ObjectNode steps = root.putObject("ledger_per_step");
        perStep.forEach(steps::put);
        root.set("ledger", json.readTree(ledgerJson));
        ArrayNode pids = root.putArray("child_pids");
        children.forEach(pids::add);
        ArrayNode seen = root.putArray("calls");
        for (Transcript.Call c : calls) {
            seen.addObject().put("act", c.act()).put("tool", c.tool()).put("seen", c.seen()).put("args", c.args())
                    .put("result", c.result());
        }
        root.put("journal_dir", journalDir.toString());
        root.put("journal_records", journal.size());
        root.put("elapsed_ms", elapsedMs);
        return json.writerWithDefaultPrettyPrinter().writeValueAsString(root);
    }
}

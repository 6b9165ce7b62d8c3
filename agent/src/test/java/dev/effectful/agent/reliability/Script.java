package dev.effectful.agent.reliability;

import java.util.ArrayList;
import java.util.List;

/**
 * The campaign's fixed script, shared by the workload (which runs it) and the verdict (which checks
 * it): every task calls every tool once, each on its own reference, so each step is one intent and
 * one ledger entry. JDK types only: the workload JVM sees nothing but the agent and test classes.
 */
public final class Script {

    /** A tool of the workload as the verdict needs to know it: verb, kind word, and how it can be settled. */
    public record Tool(String verb, String kind, boolean probe, boolean keyable, boolean batch) {

        /** The contract says a person must settle this tool's unknown intents: no probe, and a repeat would hurt. */
        public boolean needsPerson() {
            if (probe) {
                return false;
            }
            return switch (kind) {
                case "send", "money", "destructive" -> true;
                case "create" -> !keyable;
                default -> false;
            };
        }
    }

    public static final List<Tool> TOOLS = List.of(
            new Tool("get_price", "read", false, false, false),
            new Tool("set_address", "idempotent", false, false, false),
            new Tool("create_ticket", "create", true, false, false),
            new Tool("create_note", "create", false, false, false),
            new Tool("create_order", "create", false, true, false),
            new Tool("send_email", "send", true, false, false),
            new Tool("send_sms", "send", false, false, false),
            new Tool("charge_card", "money", true, false, false),
            new Tool("refund", "money", false, false, false),
            new Tool("archive_record", "destructive", true, false, false),
            new Tool("delete_record", "destructive", false, false, false),
            new Tool("write_rows", "create", true, false, true));

    /** Rows of each batch step. */
    public static final List<String> ROWS = List.of("row_1", "row_2", "row_3");

    /** One call of the script: the tool and the reference it acts on (its only {@code @IntentKey}). */
    public record Step(String task, Tool tool, String ref) {
    }

    private Script() {
    }

    public static String taskId(int round, int task) {
        return "r" + round + "-t" + task;
    }

    public static List<String> round(int round, int tasks) {
        List<String> ids = new ArrayList<>(tasks);
        for (int t = 1; t <= tasks; t++) {
            ids.add(taskId(round, t));
        }
        return ids;
    }

    /** A task's steps; the order rotates per task so kills land on every tool at every point of a task. */
    public static List<Step> steps(String taskId) {
        int n = TOOLS.size();
        int shift = Math.floorMod(taskId.hashCode(), n);
        List<Step> steps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Tool tool = TOOLS.get((i + shift) % n);
            steps.add(new Step(taskId, tool, taskId + "." + tool.verb()));
        }
        return steps;
    }

    public static Tool tool(String verb) {
        return TOOLS.stream().filter(t -> t.verb().equals(verb)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no tool " + verb));
    }
}

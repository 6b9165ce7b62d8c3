package dev.effectful.agent.e2e.apps;

import dev.effectful.Outcome;
import dev.effectful.Task;

import java.time.Duration;

/** Runs the batch tool: {@code once} calls it once, {@code twice} calls it, then calls it again. */
public final class BatchApp {

    private BatchApp() {
    }

    public static void main(String[] args) throws Exception {
        BatchTools tools = new BatchTools();
        int n = Integer.parseInt(System.getProperty("rows", "40"));
        int invalidAt = Integer.getInteger("invalidAt", -1);
        int hangAt = Integer.getInteger("hangAt", -1);
        try (Task t = Task.open(System.getProperty("task", "sheet-task"), Duration.ofSeconds(60))) {
            switch (args[0]) {
                case "twice" -> {
                    report("first", tools.writeRows("sheet-1", BatchTools.rows(n, invalidAt, hangAt)));
                    System.setProperty("hangRows", "false");
                    report("retry", tools.writeRows("sheet-1", BatchTools.rows(n, invalidAt, hangAt)));
                }
                case "once" -> report("only", tools.writeRows("sheet-1", BatchTools.rows(n, invalidAt, hangAt)));
                case "pages" -> report("pages", tools.listOrders("alice"));
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        System.out.println("RESULT body_runs " + BatchTools.BODY_RUNS.get());
        System.out.println("RESULT batch_sizes " + BatchTools.BATCH_SIZES);
        System.out.println("DONE");
    }

    private static void report(String name, Outcome<?> o) {
        System.out.println("RESULT " + name + " " + o.toJson());
        System.out.println("RESULT " + name + "_value " + o.value());
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Outcome;
import dev.effectful.Task;

import java.time.Duration;

/**
 * Runs the batch tool: {@code once} calls it once, {@code twice} calls it, then calls it again;
 * {@code throwing} calls the copy tool whose body throws part-way, then retries it rephrased;
 * {@code copy} calls the copy tool once.
 */
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
                case "throwing" -> {
                    report("first", copy(tools, BatchTools.rowsBetween(12, 14, "Total for")));
                    System.clearProperty("failOn");
                    report("retry", copy(tools, BatchTools.rowsBetween(12, 14, "The total, rephrased, for")));
                }
                case "copy" -> report("only", copy(tools, BatchTools.rowsBetween(12, 14, "Totals once more for")));
                default -> throw new IllegalArgumentException(args[0]);
            }
        }
        System.out.println("RESULT body_runs " + BatchTools.BODY_RUNS.get());
        System.out.println("RESULT batch_sizes " + BatchTools.BATCH_SIZES);
        System.out.println("DONE");
    }

    private static Outcome<Integer> copy(BatchTools tools, java.util.List<BatchTools.Row> rows) throws Exception {
        return Boolean.getBoolean("probed") ? tools.copyRows("sheet-2", rows) : tools.copyRowsUnprobed("sheet-2", rows);
    }

    private static void report(String name, Outcome<?> o) {
        System.out.println("RESULT " + name + " " + o.toJson());
        System.out.println("RESULT " + name + "_value " + o.value());
    }
}

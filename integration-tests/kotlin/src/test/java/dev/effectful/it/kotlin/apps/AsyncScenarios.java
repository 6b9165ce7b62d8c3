package dev.effectful.it.kotlin.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The scenarios every async shape runs, in the task of the thread that calls the tool: each app
 * (suspend, CompletableFuture, Mono) hands its tools in as {@link Sms}, which waits for the answer.
 * Prints {@code RESULT name value} or {@code RESULT name THROWN <outcome json>}.
 */
public final class AsyncScenarios {

    /** One shape's SEND tools, waited for. */
    public interface Sms {
        /** The tool with a probe. */
        String send(String phone, String text) throws Exception;

        /** The same tool without a probe: after a crash its intent is held. */
        String sendUnprobed(String phone, String text) throws Exception;

        /** Two calls of one intent started before either completes; both answers, "a|b". */
        String sendTwiceAtOnce(String phone) throws Exception;
    }

    private interface Step {
        String run() throws Exception;
    }

    private AsyncScenarios() {
    }

    public static void run(String scenario, Sms sms) {
        String task = System.getProperty("task", "t-" + scenario);
        try (Task t = Task.open(task, Duration.ofSeconds(Long.getLong("budget.s", 90)))) {
            switch (scenario) {
                case "repeat" -> {
                    print("first", () -> sms.send("+100", "Your table is booked"));
                    print("second", () -> sms.send("+100", "Reminder: your table is booked"));
                }
                case "two" -> {
                    print("a", () -> sms.send("+201", "hello"));
                    print("b", () -> sms.send("+202", "hello"));
                }
                case "call" -> {
                    System.out.println("CALLING");
                    print("call", () -> sms.send("+300", "hello"));
                }
                case "call-unprobed" -> {
                    System.out.println("CALLING");
                    print("call", () -> sms.sendUnprobed("+301", "hello"));
                }
                case "timeout" -> {
                    AsyncLedger.mode = AsyncLedger.Mode.TIMEOUT;
                    print("first", () -> sms.send("+400", "hello"));
                    AsyncLedger.mode = AsyncLedger.Mode.OK;
                    print("second", () -> sms.send("+400", "hello"));
                }
                case "connect" -> {
                    AsyncLedger.mode = AsyncLedger.Mode.REFUSED;
                    print("first", () -> sms.send("+500", "hello"));
                    AsyncLedger.mode = AsyncLedger.Mode.OK;
                    print("second", () -> sms.send("+500", "hello"));
                }
                case "join" -> print("both", () -> sms.sendTwiceAtOnce("+600"));
                case "deadline" -> {
                    long t0 = System.nanoTime();
                    print("call", () -> sms.send("+700", "hello"));
                    System.out.println("RESULT call_ms " + (System.nanoTime() - t0) / 1_000_000);
                }
                default -> throw new IllegalArgumentException(scenario);
            }
        }
        System.out.println("DONE");
    }

    private static void print(String name, Step step) {
        String value;
        try {
            value = step.run();
        } catch (Throwable e) {
            Throwable t = e;
            while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
                t = t.getCause();
            }
            value = t instanceof ToolOutcomeException toe ? "THROWN " + toe.getMessage() : "RAW " + t;
        }
        System.out.println("RESULT " + name + " " + value);
    }
}

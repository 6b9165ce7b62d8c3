package dev.effectful.agent.e2e.apps;

import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * A test application: runs one scenario of tool calls and prints each answer as
 * {@code RESULT name value}, where value is the returned value or the thrown outcome's JSON.
 */
public final class CoreApp {

    private CoreApp() {
    }

    public static void main(String[] args) throws Exception {
        CoreTools tools = new CoreTools();
        String task = System.getProperty("task", "t-1");
        switch (args[0]) {
            case "quiet" -> {
                try (Task t = Task.open(task, Duration.ofSeconds(30))) {
                    print("note", () -> tools.note("n-1", "hello"));
                    print("price", () -> tools.getPrice("sku-1"));
                }
            }
            case "keys" -> {
                try (Task t = Task.open(task, "alice", Duration.ofSeconds(30))) {
                    print("first", () -> tools.sendEmail("bob@example.com", "Order confirmed", "hunter2-secret"));
                    print("rephrased", () -> tools.sendEmail("bob@example.com", "Your order is confirmed!", "hunter2-secret"));
                    print("slot1", () -> tools.sendReminder("bob", 1, "pay please"));
                    print("slot2", () -> tools.sendReminder("bob", 2, "pay please"));
                    print("void", () -> {
                        tools.notifyUser("bob", "hi");
                        return "returned";
                    });
                    print("outcome", () -> tools.createOrder("ord-1", 2));
                }
            }
            case "classify" -> {
                try (Task t = Task.open(task, Duration.ofSeconds(60))) {
                    print("connect_refused", () -> tools.connectRefused("c-1"));
                    print("read_timeout", () -> tools.readTimeout("c-2"));
                    for (int code : new int[] {200, 400, 408, 429, 500, 503}) {
                        print("status_" + code, () -> tools.httpStatus("s-" + code, code).statusCode());
                    }
                    print("illegal_argument", () -> tools.badArgument("c-3"));
                    print("unclassified", () -> tools.mystery("c-4"));
                    print("checked", () -> tools.checked("c-5"));
                    print("outcome_refused", () -> tools.outcomeRefused("c-6"));
                }
            }
            case "badinput" -> {
                try (Task t = Task.open(task, Duration.ofSeconds(60))) {
                    print("cyclic_arg", () -> tools.store("b-1", CoreTools.cyclicMap()));
                    print("exploding_arg", () -> tools.store("b-2", new CoreTools.Exploding()));
                    print("huge_arg", () -> tools.store("b-3", "x".repeat(10 * 1024 * 1024)));
                    print("null_arg", () -> tools.store("b-4", null));
                    print("null_key", () -> tools.store(null, "payload"));
                    print("cyclic_key", () -> tools.storeByObject(new CoreTools.Cyclic()));
                    print("unserializable_result", () -> tools.unserializableResult("b-5").getClass().getSimpleName());
                    print("still_running", () -> tools.echo("after"));
                }
            }
            case "journal-unavailable" -> {
                try (Task t = Task.open(task, Duration.ofSeconds(30))) {
                    print("effectful", () -> tools.note("n-1", "hello"));
                    print("read", () -> tools.echo("r-1"));
                }
            }
            default -> throw new IllegalArgumentException("no scenario " + args[0]);
        }
        System.out.println("DONE");
    }

    public static void print(String name, Callable<?> call) {
        String value;
        try {
            Object v = call.call();
            value = v instanceof Outcome<?> o ? "OUTCOME " + o.toJson() + " value=" + o.value() : String.valueOf(v);
        } catch (ToolOutcomeException e) {
            value = "THROWN " + e.getMessage();
        } catch (Throwable e) {
            value = "RAW " + e;
        }
        System.out.println("RESULT " + name + " " + value);
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * The key scenarios, one per argument: {@code collide} (two tasks whose plain-joined key material
 * was the same), {@code forge} (a task id that tries to start a log line of its own), {@code secret
 * RUN} (a {@code @Redact @IntentKey} MONEY call and a call keyed without a secret), {@code bean}
 * (an {@code @IntentKey} object whose keyed view drops its id).
 */
public final class KeysApp {

    private KeysApp() {
    }

    public static void main(String[] args) throws Exception {
        KeysTools tools = new KeysTools();
        switch (args[0]) {
            case "collide" -> {
                try (Task t = Task.open("a|b", Duration.ofSeconds(30))) {
                    call("first", () -> tools.charge("o-1"));
                }
                try (Task t = Task.open("a", "b|", Duration.ofSeconds(30))) {
                    call("second", () -> tools.charge("o-1"));
                }
                System.out.println("RESULT charges " + KeysTools.CHARGES.get());
            }
            case "forge" -> {
                try (Task t = Task.open("t-1\noutcome=ok effect_applied=yes\u001b[2K", Duration.ofSeconds(30))) {
                    call("forged", () -> tools.charge("o-9"));
                }
            }
            case "secret" -> {
                try (Task t = Task.open("t-sec", Duration.ofSeconds(30))) {
                    call("pay", () -> tools.pay("tok-4242", "o-7"));
                    call("note", () -> tools.note("n-" + args[1]));
                }
                System.out.println("RESULT payments " + KeysTools.PAYMENTS.get());
                System.out.println("RESULT notes " + KeysTools.NOTES.get());
            }
            case "bean" -> {
                try (Task t = Task.open("t-bean", Duration.ofSeconds(30))) {
                    call("first", () -> tools.refund(new KeysTools.Order("o-1", "EUR")));
                    call("second", () -> tools.refund(new KeysTools.Order("o-2", "EUR")));
                }
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("DONE");
    }

    private static void call(String name, Callable<?> call) {
        String value;
        try {
            value = String.valueOf(call.call());
        } catch (ToolOutcomeException e) {
            value = "THROWN " + e.getMessage();
        } catch (Throwable e) {
            value = "RAW " + e;
        }
        System.out.println("RESULT " + name + " " + value.replace("\n", "\\n"));
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.List;

/**
 * Calls every {@link RedactionTools} tool with the secrets given as system properties and prints
 * what the caller got; it also prints each thrown outcome's whole stack trace to stderr, as an
 * application logging its failures would. The secrets themselves are never printed by the app.
 */
public final class RedactionApp {

    private RedactionApp() {
    }

    public static void main(String[] args) throws Exception {
        RedactionTools tools = new RedactionTools();
        String token = System.getProperty("token");
        List<String> rotated = List.of(System.getProperty("old"), System.getProperty("new"));
        try (Task t = Task.open("t-red", Duration.ofSeconds(60))) {
            call("login", () -> tools.login("ann", token));
            call("push", () -> tools.push("ann", token));
            call("rotate", () -> {
                tools.rotate("ann", rotated);
                return "returned";
            });
            String first = tools.issueSession("ann", token);
            // the first answer is the method's own value, untouched: compare it, never print it
            System.out.println("RESULT session_first " + (first.equals("session for " + token) ? "untouched" : "changed"));
            call("session_repeat", () -> tools.issueSession("ann", token));
            System.out.println("RESULT session_bodies " + RedactionTools.SESSION_BODIES.get());
        }
        System.out.println("DONE");
    }

    private static void call(String name, java.util.concurrent.Callable<?> call) {
        String value;
        try {
            value = String.valueOf(call.call());
        } catch (ToolOutcomeException e) {
            e.printStackTrace();
            value = "THROWN " + e.getMessage();
        } catch (Throwable e) {
            value = "RAW " + e;
        }
        System.out.println("RESULT " + name + " " + value);
    }
}

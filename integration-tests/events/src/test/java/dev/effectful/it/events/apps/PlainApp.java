package dev.effectful.it.events.apps;

import dev.effectful.Task;

import java.nio.file.Path;
import java.time.Duration;

/**
 * An application with no OpenTelemetry and no Micrometer: in one task a new call, its dedup, an
 * unknown outcome and its hold, a refusal, and a lost answer settled by the probe. Prints only
 * its own RESULT lines.
 */
public final class PlainApp {

    private PlainApp() {
    }

    public static void main(String[] args) throws Exception {
        ObservedTools tools = new ObservedTools(Path.of(args[0]), what -> { });
        String secret = ObservedTools.SECRET;
        try (Task t = Task.open("plain-task", Duration.ofSeconds(60))) {
            Calls.print("new", () -> tools.sendEmail("ord-1", secret, "Hello"));
            Calls.print("dedup", () -> tools.sendEmail("ord-1", secret, "Hello again"));
            Calls.print("unknown", () -> tools.notifyCustomer("ann", secret));
            Calls.print("held", () -> tools.notifyCustomer("ann", secret));
            Calls.print("refused", () -> tools.charge("acct-9", secret));
            Calls.print("lost", () -> tools.pageOnCall("bob", secret));
            Calls.print("probed", () -> tools.pageOnCall("bob", secret));
        }
        System.out.println("DONE");
    }
}

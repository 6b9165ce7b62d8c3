package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Configuration and takeover scenarios; prints {@code RESULT name value} (see {@link CoreApp#print}).
 * The task id comes from {@code -Dtask}, so a second process can repeat the first one's intents.
 */
public final class GuardApp {

    private GuardApp() {
    }

    public static void main(String[] args) throws Exception {
        GuardTools tools = new GuardTools();
        try (Task t = Task.open(System.getProperty("task", "t-guard"), Duration.ofSeconds(120))) {
            switch (args[0]) {
                case "once" -> {
                    CoreApp.print("pay", () -> tools.pay("o-1", 500));
                    CoreApp.print("refund", () -> tools.refund("r-1"));
                    CoreApp.print("balance", () -> tools.balance("acct-1"));
                }
                case "once_and_timeout" -> {
                    CoreApp.print("pay", () -> tools.pay("o-1", 500));
                    CoreApp.print("refund", () -> tools.refund("r-1"));
                    CoreApp.print("balance", () -> tools.balance("acct-1"));
                    CoreApp.print("quote", () -> tools.quote("ACME"));
                    try {
                        tools.quote("ACME");
                    } catch (Exception e) {
                        System.out.println("RESULT quote_cause " + (e.getCause() == null ? "none" : e.getCause().getClass().getName()));
                    }
                }
                case "hold" -> {
                    CoreApp.print("pay", () -> tools.pay("o-1", 500));
                    System.out.println("HOLDING");
                    Path release = Path.of(System.getProperty("release.file"));
                    long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
                    while (!Files.exists(release) && System.nanoTime() < end) {
                        Thread.sleep(10);
                    }
                    System.out.println("RELEASING");
                }
                case "takeover" -> takeover(tools);
                default -> throw new IllegalArgumentException("no scenario " + args[0]);
            }
        }
        System.out.println("RESULT money_bodies " + GuardTools.MONEY_BODIES.get());
        System.out.println("DONE");
    }

    /**
     * Started while another process holds the journal: asks once (refused), reads, then asks again
     * every 50 ms, as a model told to retry would, and says when it was first served.
     */
    private static void takeover(GuardTools tools) throws Exception {
        CoreApp.print("first", () -> tools.pay("o-2", 700));
        CoreApp.print("read_while_refused", () -> tools.balance("acct-1"));
        System.out.println("REFUSED_ONCE");
        long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (System.nanoTime() < end) {
            try {
                String v = tools.pay("o-2", 700);
                System.out.println("RESULT served_at " + System.currentTimeMillis());
                System.out.println("RESULT served " + v);
                break;
            } catch (ToolOutcomeException refused) {
                Thread.sleep(50);
            }
        }
        CoreApp.print("repeat_of_first_jvm", () -> tools.pay("o-1", 500));
    }
}

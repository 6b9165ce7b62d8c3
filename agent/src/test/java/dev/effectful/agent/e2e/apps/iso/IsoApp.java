package dev.effectful.agent.e2e.apps.iso;

import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/**
 * An application with its own Jackson, Byte Buddy and SLF4J binding, in versions the agent does not
 * use. It reports which copies it sees ({@code RESULT name value}) and calls its tools.
 * Only APIs present in jackson-databind 2.12 and byte-buddy 1.12 are used.
 */
public final class IsoApp {

    private IsoApp() {
    }

    public static void main(String[] args) throws Exception {
        Logger log = LoggerFactory.getLogger("isoapp");
        log.warn("app warn line");
        log.info("app info line");
        switch (args[0]) {
            case "libs" -> {
                IsoLibraries.report();
                tools();
            }
            case "tools" -> tools();
            case "attach" -> attach(Path.of(args[1]));
            default -> throw new IllegalArgumentException("no scenario " + args[0]);
        }
        System.out.println("DONE");
    }

    private static void tools() {
        IsoTools tools = new IsoTools();
        print("task_loader", () -> String.valueOf(Task.class.getClassLoader()));
        print("task_module", () -> String.valueOf(Task.class.getModule().getName()));
        try (Task t = Task.open("iso-1", Duration.ofSeconds(30))) {
            print("record", () -> tools.record("r-1", "hello"));
            print("reject", () -> tools.reject("r-2"));
            print("book_ok", () -> tools.book("b-1", false));
            print("book_fail", () -> tools.book("b-2", true));
        }
    }

    /** Calls a tool before the agent is attached, waits for the go file, then calls one after. */
    private static void attach(Path go) throws Exception {
        IsoTools tools = new IsoTools();
        try (Task t = Task.open("iso-attach", Duration.ofMinutes(2))) {
            print("before", () -> tools.record("a-1", "before"));
            System.out.println("READY");
            long end = System.nanoTime() + Duration.ofSeconds(90).toNanos();
            while (!Files.exists(go)) {
                if (System.nanoTime() > end) {
                    throw new IllegalStateException("no go file");
                }
                Thread.sleep(20);
            }
            print("after", () -> tools.record("a-2", "after"));
            print("after_reject", () -> tools.reject("a-3"));
        }
    }

    static String jarOf(Class<?> c) {
        var source = c.getProtectionDomain().getCodeSource();
        return source == null ? "none" : Path.of(source.getLocation().getPath()).getFileName().toString();
    }

    static void print(String name, Callable<?> call) {
        dev.effectful.agent.e2e.apps.CoreApp.print(name, call);
    }
}

package app;

import dev.effectful.Outcome;
import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Prints {@code RESULT name value} lines like the class-path test applications. */
public final class ModApp {

    private ModApp() {
    }

    public static void main(String[] args) {
        ModTools tools = new ModTools();
        print("task_loader", () -> String.valueOf(Task.class.getClassLoader()));
        print("task_module", () -> String.valueOf(Task.class.getModule().getName()));
        print("app_module", () -> String.valueOf(ModApp.class.getModule().getName()));
        try (Task t = Task.open("iso-1", Duration.ofSeconds(30))) {
            print("record", () -> tools.record("r-1", "hello"));
            print("reject", () -> tools.reject("r-2"));
            print("book_ok", () -> tools.book("b-1", false));
            print("book_fail", () -> tools.book("b-2", true));
        }
        System.out.println("DONE");
    }

    static void print(String name, Callable<?> call) {
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

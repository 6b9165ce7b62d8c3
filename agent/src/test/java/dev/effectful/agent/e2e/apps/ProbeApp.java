package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Each probe form twice: its first call's answer is lost, the repeat asks the probe. Prints what the caller got. */
public final class ProbeApp {

    private ProbeApp() {
    }

    public static void main(String[] args) throws Exception {
        repeat("email_found", "sent earlier", t -> t.sendEmail("ord-1", "Hello", "Body"));
        repeat("email_absent", null, t -> t.sendEmail("ord-1", "Hello", "Body"));
        repeat("charge_found", "7", t -> t.charge("c-1"));
        repeat("charge_absent", null, t -> t.charge("c-1"));
        repeat("page_found", "yes", t -> t.page("ann"));
        repeat("page_absent", null, t -> t.page("ann"));
        System.out.println("DONE");
    }

    interface Call {
        Object on(ProbeTools tools) throws Exception;
    }

    private static void repeat(String name, String found, Call call) {
        ProbeTools tools = new ProbeTools();
        tools.found = found;
        try (Task t = Task.open("probe-" + name, Duration.ofSeconds(60))) {
            CoreApp.print(name + "_first", () -> call.on(tools));
            CoreApp.print(name, () -> call.on(tools));
        }
        System.out.println("RESULT " + name + "_bodies " + tools.bodies.get());
    }
}

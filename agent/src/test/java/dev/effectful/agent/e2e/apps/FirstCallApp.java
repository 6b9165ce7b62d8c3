package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;

import java.time.Duration;

/**
 * A new user's first run: the very first thing {@code main} does is open a task of 3 s and call a tool
 * that needs 2.5 s of it. The JVM is fresh and there is no journal yet, so the call finds the engine
 * still starting (Byte Buddy, Chronicle, Jackson: about a second on a cold JVM, more on a loaded one).
 */
public final class FirstCallApp {

    private FirstCallApp() {
    }

    public static void main(String[] args) {
        try (Task t = Task.open("t-first", Duration.ofMillis(3000))) {
            CoreApp.print("first", () -> new FirstCallTools().firstSend("alice@example.com"));
        }
        System.out.println("DONE");
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.ToolOutcomeException;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Deadline scenarios. Prints {@code RESULT name value} (the answer or the thrown outcome's JSON) and,
 * where time matters, {@code RESULT name_overshoot_ms N}: how long after the task's deadline the
 * caller got its answer, measured here on the application side.
 */
public final class DeadlineApp {

    private static final DeadlineTools TOOLS = new DeadlineTools();

    private DeadlineApp() {
    }

    public static void main(String[] args) throws Exception {
        // warm the engine (journal open, index, first-call class loading) outside the measured tasks
        try (Task warm = Task.open("t-warm", Duration.ofSeconds(30))) {
            CoreApp.print("warm", () -> TOOLS.sendSmallFloor("warm"));
        }
        switch (args[0]) {
            case "budget" -> budget();
            case "stubborn" -> stubborn();
            case "slow-success" -> slowSuccess(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
        System.out.println("DONE");
    }

    private static void budget() throws Exception {
        try (Task t = Task.open("t-floor", Duration.ofSeconds(1))) {
            CoreApp.print("under_floor", () -> TOOLS.sendWithFloor("bob"));
            CoreApp.print("over_floor", () -> TOOLS.sendSmallFloor("bob"));
        }
        try (Task t = Task.open("t-spent", Duration.ofMillis(50))) {
            Thread.sleep(100);
            CoreApp.print("no_budget_left", () -> TOOLS.sendSmallFloor("carol"));
        }
        timed("sleepy_send", "t-sleep-send", 1500, () -> TOOLS.sleepySend("dave"));
        timed("sleepy_read", "t-sleep-read", 1500, () -> TOOLS.sleepyRead("stock"));
        try (Task t = Task.open("t-busy", Duration.ofSeconds(10))) {
            CoreApp.print("busy_first", () -> TOOLS.busyService("b-1").statusCode());
            long start = System.nanoTime();
            CoreApp.print("busy_again", () -> TOOLS.busyService("b-1").statusCode());
            System.out.println("RESULT busy_again_ms " + (System.nanoTime() - start) / 1_000_000);
        }
    }

    /** Runs {@code call} in a fresh task of {@code budgetMs} and prints how far past the deadline it answered. */
    private static void timed(String name, String task, long budgetMs, Callable<?> call) {
        long opened = System.nanoTime();
        try (Task t = Task.open(task, Duration.ofMillis(budgetMs))) {
            CoreApp.print(name, call);
        }
        long elapsedMs = (System.nanoTime() - opened) / 1_000_000;
        System.out.println("RESULT " + name + "_overshoot_ms " + (elapsedMs - budgetMs));
        System.out.println("RESULT " + name + "_interrupt_left " + Thread.currentThread().isInterrupted());
    }

    /**
     * One call holds its intent past its per-attempt timeout (it ignores the interrupt); a second call
     * of the same intent arrives meanwhile. The second must neither run nor outwait the task.
     */
    private static void stubborn() throws Exception {
        long opened = System.nanoTime();
        CompletableFuture<String> first;
        try (Task t = Task.open("t-stubborn", Duration.ofMillis(1500))) {
            first = CompletableFuture.supplyAsync(() -> answer(() -> TOOLS.stubbornSend("erin", 2500)));
            Thread.sleep(600); // past the first call's 400 ms timeout: its interrupt has fired
            String second = answer(() -> TOOLS.stubbornSend("erin", 0));
            System.out.println("RESULT second " + second);
            System.out.println("RESULT second_overshoot_ms " + ((System.nanoTime() - opened) / 1_000_000 - 1500));
        }
        System.out.println("RESULT first " + first.get(30, TimeUnit.SECONDS));
        System.out.println("RESULT first_ms " + (System.nanoTime() - opened) / 1_000_000);
        // the same task, resumed with a fresh budget after the first call really ended
        try (Task t = Task.open("t-stubborn", Duration.ofSeconds(10))) {
            CoreApp.print("third", () -> TOOLS.stubbornSend("erin", 0));
        }
    }

    /** Each call applies its effect and returns 1 ms before its task's deadline. */
    private static void slowSuccess(int rounds) throws Exception {
        int ok = 0;
        int returned = 0;
        int inTime = 0;
        for (int i = 0; i < rounds; i++) {
            String answer;
            try (Task t = Task.open("t-jit-" + i, Duration.ofMillis(800))) {
                answer = answer(() -> TOOLS.justInTime("frank"));
            }
            boolean interruptLeaked = Thread.interrupted();
            boolean sleptWhole = sleepsUninterrupted(20);
            if (!DeadlineTools.lastReturned) {
                // a busy machine overslept the body's sleep into the deadline: rightly not ok
                System.out.println("RESULT jit_threw_" + i + " " + answer);
                continue;
            }
            returned++;
            if (DeadlineTools.lastInTime) {
                inTime++;
            }
            // a body that returned normally is a success, even if a descheduled thread made it a little late
            if (answer.startsWith("done:just_in_time:") && !interruptLeaked && sleptWhole) {
                ok++;
            } else {
                System.out.println("RESULT jit_bad_" + i + " " + answer + " leaked=" + interruptLeaked + " slept=" + sleptWhole);
            }
        }
        System.out.println("RESULT jit_returned " + returned);
        System.out.println("RESULT jit_in_time " + inTime);
        System.out.println("RESULT jit_ok " + ok);
    }

    private static boolean sleepsUninterrupted(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }

    private static String answer(Callable<?> call) {
        try {
            return String.valueOf(call.call());
        } catch (ToolOutcomeException e) {
            return "THROWN " + e.getMessage();
        } catch (Exception e) {
            return "RAW " + e;
        }
    }
}

package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.agent.e2e.ControlFiles;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A writer that stays up, stepped through control files {@code <-Dctl>/1}, {@code 2}, ... (as
 * {@link LiveResolveApp}), all in task {@code -Dtask} (default {@code t-approval}) of actor {@code alice},
 * printing {@code RESULT s<N> answer} after each. Commands: {@code charge ORDER MEMO...} (the memo is free
 * text: a rephrased retry changes it), {@code refund ORDER MEMO...}, {@code twothreads ORDER} (two threads
 * call charge of the same order at the same instant; prints both answers), {@code exit}.
 */
public final class ApprovalApp {

    /** Not a real card: the journal, the CLI and every answer may show only its fingerprint. */
    public static final String CARD = "tok_visa_4242_secret";

    private ApprovalApp() {
    }

    public static void main(String[] args) throws Exception {
        Path ctl = Path.of(System.getProperty("ctl"));
        ApprovalTools tools = new ApprovalTools();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Task t = Task.open(System.getProperty("task", "t-approval"), "alice", Duration.ofMinutes(10))) {
            for (int step = 1; ; step++) {
                String[] cmd = ControlFiles.await(ctl, step).split(" ", 3);
                String name = "s" + step;
                String memo = cmd.length > 2 ? cmd[2] : "";
                switch (cmd[0]) {
                    case "charge" -> CoreApp.print(name, () -> tools.charge(cmd[1], memo, CARD));
                    case "refund" -> CoreApp.print(name, () -> tools.refund(cmd[1], memo));
                    case "twothreads" -> {
                        CountDownLatch go = new CountDownLatch(1);
                        Future<String> a = pool.submit(Task.wrap(() -> {
                            go.await();
                            return answer(() -> tools.charge(cmd[1], "first thread", CARD));
                        }));
                        Future<String> b = pool.submit(Task.wrap(() -> {
                            go.await();
                            return answer(() -> tools.charge(cmd[1], "second thread, other words", CARD));
                        }));
                        go.countDown();
                        System.out.println("RESULT " + name + " A " + a.get() + " B " + b.get());
                    }
                    case "exit" -> {
                        System.out.println("DONE");
                        pool.shutdownNow();
                        return;
                    }
                    default -> throw new IllegalArgumentException("no command " + cmd[0]);
                }
            }
        }
    }

    private static String answer(java.util.concurrent.Callable<?> call) {
        try {
            return String.valueOf(call.call());
        } catch (dev.effectful.ToolOutcomeException e) {
            return "THROWN " + e.getMessage();
        } catch (Exception e) {
            return "RAW " + e;
        }
    }
}

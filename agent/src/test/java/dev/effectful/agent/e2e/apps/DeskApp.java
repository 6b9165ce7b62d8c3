package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;
import dev.effectful.Task;
import dev.effectful.agent.e2e.ControlFiles;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A writer for the console's tests: one command per control file {@code <-Dctl>/1}, {@code 2}, ...,
 * printing {@code RESULT s<N> value}. {@code charge ID CARD} charges through the loopback ledger and,
 * while {@code hang on}, then waits (so a kill -9 finds it mid-call); {@code hang off|on}.
 */
public final class DeskApp {

    /** A MONEY tool without a probe: after a crash mid-call only a person can say what happened. */
    public static class Tools {
        static volatile boolean hang = true;
        static final CountDownLatch NEVER = new CountDownLatch(1);

        @EffectfulTool(kind = EffectKind.MONEY, name = "charge", timeoutMillis = 300_000)
        public String charge(@IntentKey String order, @Redact String card) throws Exception {
            String done = Http.effect("charge", order);
            if (hang) {
                NEVER.await();
            }
            return done;
        }
    }

    private DeskApp() {
    }

    public static void main(String[] args) throws Exception {
        Path ctl = Path.of(System.getProperty("ctl"));
        int first = Integer.getInteger("firstStep", 1);
        Tools tools = new Tools();
        try (Task t = Task.open(System.getProperty("task", "t-desk"), Duration.ofMinutes(10))) {
            for (int step = first; ; step++) {
                String[] cmd = ControlFiles.await(ctl, step).split(" ");
                String name = "s" + step;
                switch (cmd[0]) {
                    case "charge" -> CoreApp.print(name, () -> tools.charge(cmd[1], cmd[2]));
                    case "hang" -> {
                        Tools.hang = "on".equals(cmd[1]);
                        System.out.println("RESULT " + name + " hang " + cmd[1]);
                    }
                    default -> throw new IllegalArgumentException("no command " + cmd[0]);
                }
            }
        }
    }
}

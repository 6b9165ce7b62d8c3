package dev.effectful.agent.e2e.apps;

import dev.effectful.Task;
import dev.effectful.agent.e2e.ControlFiles;

import java.nio.file.Path;
import java.time.Duration;

/**
 * A writer that stays up: runs one command per control file {@code <-Dctl>/1}, {@code 2}, ... as
 * the test drops them, printing {@code RESULT s<N> value} after each, until {@code exit}. Commands:
 * {@code transfer ID}, {@code count ID}, {@code hang on|off}, {@code exit}.
 */
public final class LiveResolveApp {

    private LiveResolveApp() {
    }

    public static void main(String[] args) throws Exception {
        Path ctl = Path.of(System.getProperty("ctl"));
        LiveResolveTools tools = new LiveResolveTools();
        try (Task t = Task.open("t-live", Duration.ofMinutes(10))) {
            for (int step = 1; ; step++) {
                String[] cmd = ControlFiles.await(ctl, step).split(" ");
                String name = "s" + step;
                switch (cmd[0]) {
                    case "transfer" -> CoreApp.print(name, () -> tools.transfer(cmd[1]));
                    case "count" -> CoreApp.print(name, () -> tools.payoutCount(cmd[1]));
                    case "hang" -> {
                        LiveResolveTools.hang = "on".equals(cmd[1]);
                        System.out.println("RESULT " + name + " hang " + cmd[1]);
                    }
                    case "exit" -> {
                        System.out.println("DONE");
                        return;
                    }
                    default -> throw new IllegalArgumentException("no command " + cmd[0]);
                }
            }
        }
    }
}

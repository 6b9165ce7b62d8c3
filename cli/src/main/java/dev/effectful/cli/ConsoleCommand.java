package dev.effectful.cli;

import dev.effectful.cli.console.ConsoleData;
import dev.effectful.cli.console.ConsoleServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;

/**
 * {@code journal console}: a web page for the person who settles what the agent cannot. It reads the
 * journal beside its live writer and records verdicts through {@code journal resolve}'s own path.
 */
@Command(name = "console", mixinStandardHelpOptions = true,
        description = {"A web console for what needs a person: held intents with their arguments, attempts and probe,",
                "a verdict form for each (the same as journal resolve), each task's timeline, and an overview.",
                "Prints one sign-in URL with a one-time token; runs until stopped (Ctrl-C).",
                "Bound to 127.0.0.1 unless --bind says otherwise; from another machine use an SSH tunnel:",
                "  ssh -L 7780:127.0.0.1:7780 HOST   then open the printed URL on your machine.",
                "With --store postgres: every host's held intents from the fleet's store, on one page."})
final class ConsoleCommand extends JournalSubcommand {

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "7780",
            description = "TCP port (default: ${DEFAULT-VALUE}; 0 picks a free one)")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "address to listen on (default: ${DEFAULT-VALUE}, this machine only)")
    String bind;

    @Option(names = "--read-only", description = "show everything, offer no form, refuse every action")
    boolean readOnly;

    @Override
    public Integer call() throws CliException {
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new CliException(JournalCli.USAGE, "--bind " + Table.clean(bind) + " is not an address of this machine");
        }
        if (port < 0 || port > 65535) {
            throw new CliException(JournalCli.USAGE, "--port must be 0-65535");
        }
        // a fleet's console reads the shared store (every host on one page); otherwise this journal
        ConsoleData data = cli.sharedStore() ? StoreConsole.open(cli) : JournalConsole.open(cli);
        ConsoleServer server;
        try {
            server = ConsoleServer.start(data, new InetSocketAddress(address, port), readOnly,
                    System.getProperty("user.name", "?"), cli.clock);
        } catch (BindException e) {
            data.close();
            throw new CliException(JournalCli.USAGE, "cannot listen on " + bind + ":" + port + " (" + e.getMessage()
                    + "); pick another with --port");
        } catch (IOException e) {
            data.close();
            throw new CliException(JournalCli.LOOK, "cannot start the console: " + e.getMessage());
        }
        cli.out.println("effectful console for " + data.source() + (readOnly ? " (read-only)" : ""));
        cli.out.println("open this once in your browser: " + server.url());
        if (!address.isLoopbackAddress()) {
            cli.err.println("effectful journal: warning: listening on " + bind + ", not only this machine: anyone who can"
                    + " reach it and holds the URL can sign in; prefer --bind 127.0.0.1 and an SSH tunnel");
        }
        cli.out.println("stop with Ctrl-C");
        cli.out.flush();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            data.close();
            stopped.countDown();
        }, "effectful-console-stop"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return JournalCli.OK;
    }
}

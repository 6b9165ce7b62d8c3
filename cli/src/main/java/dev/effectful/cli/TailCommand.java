package dev.effectful.cli;

import dev.effectful.core.journal.RootCause;
import dev.effectful.core.journal.JournalFollower;
import dev.effectful.core.journal.JournalRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;

@Command(name = "tail", mixinStandardHelpOptions = true,
        description = {"The newest records, then (with --follow) new ones as they land, until interrupted (Ctrl-C).",
                "Read-only: safe beside a running agent."})
final class TailCommand extends JournalSubcommand {

    private static final long POLL_MILLIS = 100;

    @Option(names = {"-n", "--lines"}, paramLabel = "N", defaultValue = "20", description = "how many of the newest records (default: ${DEFAULT-VALUE})")
    int lines;

    @Option(names = {"-f", "--follow"}, description = "keep printing records as they are written")
    boolean follow;

    @Option(names = "--for", paramLabel = "SECONDS", description = "with --follow: stop after SECONDS (default: until interrupted)")
    long forSeconds;

    @Override
    public Integer call() throws CliException {
        try (JournalReader reader = cli.openReader()) {
            // the follower starts at the end before the newest records are read, so nothing lands in between unseen
            JournalFollower follower = follow ? reader.followFromEnd() : null;
            List<JournalReader.Entry> newest = reader.last(lines);
            print(newest.stream().map(JournalReader.Entry::record).toList(), true);
            cli.out.flush();
            if (follower != null) {
                return follow(follower);
            }
        }
        return JournalCli.OK;
    }

    private int follow(JournalFollower tailer) {
        long deadline = forSeconds > 0 ? System.nanoTime() + forSeconds * 1_000_000_000L : Long.MAX_VALUE;
        java.util.List<JournalRecord> batch = new java.util.ArrayList<>();
        try {
            while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                JournalRecord r = tailer.next();
                if (r != null) {
                    batch.add(r);
                    if (batch.size() < 1000) {
                        continue;
                    }
                }
                if (!batch.isEmpty()) {
                    print(batch, false);
                    cli.out.flush();
                    batch.clear();
                } else {
                    Thread.sleep(POLL_MILLIS);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | InternalError e) {
            cli.out.flush();
            cli.err.println("effectful journal: warning: stopped following: " + RootCause.firstLine(e));
            return JournalCli.LOOK;
        } finally {
            tailer.close();
        }
        return JournalCli.OK;
    }

    private void print(List<JournalRecord> records, boolean header) {
        if (cli.json) {
            records.forEach(r -> cli.out.println(Json.record(r, cli.zone)));
            return;
        }
        if (records.isEmpty()) {
            return;
        }
        Table t = RecordRows.table();
        records.forEach(r -> RecordRows.add(t, r, cli.zone));
        t.print(cli.out, cli.style, header);
    }
}

package dev.effectful.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "show", mixinStandardHelpOptions = true,
        description = {"Every record of a task (by task id) or of one intent (by intent key), in journal order.",
                "With --store postgres: the fleet's row of each such intent (state, attempts, result, which host's",
                "journal holds its records)."})
final class ShowCommand extends JournalSubcommand {

    @Parameters(paramLabel = "TASK_OR_KEY", description = "a task id, or an intent key (32 hex digits, or the first 6 or more when they name one key)")
    String id;

    @Override
    public Integer call() throws CliException {
        if (cli.sharedStore()) {
            return SharedStoreView.show(cli, KeyPrefixes.trimmed(this.id));
        }
        String id = KeyPrefixes.expand(cli, this.id, true);
        Table table = RecordRows.table();
        long[] matched = {0};
        JournalReader.Report report;
        try (JournalReader reader = cli.openReader()) {
            // the pass decodes only what tells whose a record is (several times faster than whole records);
            // the records that match are then read whole, in journal order
            LongList found = new LongList();
            report = reader.scanSummaries((index, r) -> {
                if (id.equals(r.task()) || id.equals(r.intentKey())) {
                    found.add(index);
                }
            });
            reader.readEach(found.toArray(), (index, r) -> {
                matched[0]++;
                if (cli.json) {
                    // streamed: a task with many records should not have to fit in memory
                    cli.out.println(Json.record(r, cli.zone));
                } else {
                    RecordRows.add(table, r, cli.zone);
                }
            });
        }
        int code = cli.warn(report);
        if (matched[0] == 0) {
            throw new CliException(JournalCli.USAGE, "no task or intent key '" + Table.clean(id) + "' in " + cli.journalDir());
        }
        if (!cli.json) {
            table.print(cli.out, cli.style);
        }
        return code;
    }

    /** Indexes, eight bytes each: a task of millions of records is listed without an object per record. */
    private static final class LongList {
        private long[] items = new long[64];
        private int size;

        void add(long v) {
            if (size == items.length) {
                items = java.util.Arrays.copyOf(items, size * 2);
            }
            items[size++] = v;
        }

        long[] toArray() {
            return java.util.Arrays.copyOf(items, size);
        }
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.JournalRecord;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/**
 * A subcommand of {@code journal}: picocli sets {@link #cli}, through which it reaches the journal, the
 * shared store, the output and the options every subcommand shares ({@code --json}, {@code --zone}).
 */
abstract class JournalSubcommand implements Callable<Integer> {

    @ParentCommand
    JournalCli cli;

    /**
     * The intent {@code key} as the journal in {@code dir} shows it, each of its records, in journal order,
     * also handed to {@code each}; a CLI error naming the command {@code seeAlso} lists keys with when the
     * journal has no such intent.
     */
    JournalIntents.Intent intent(String key, Path dir, String seeAlso, Consumer<JournalRecord> each) throws CliException {
        JournalIntents table = new JournalIntents();
        JournalReader.Report report;
        try (JournalReader reader = cli.openReader()) {
            report = reader.scan((index, r) -> {
                if (key.equals(r.intentKey())) {
                    table.accept(index, r);
                    each.accept(r);
                }
            });
        }
        cli.warn(report);
        int row = table.find(key);
        if (row < 0) {
            throw new CliException(JournalCli.USAGE, "no intent with key '" + Table.clean(key) + "' in " + dir
                    + " (see: " + seeAlso + ")");
        }
        return table.intent(row);
    }
}

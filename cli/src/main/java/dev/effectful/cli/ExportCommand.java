package dev.effectful.cli;

import picocli.CommandLine.Command;

@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Every record as one JSON object per line (always JSON), oldest first.",
                "Fields as in the contract; absent fields omitted; args and result embedded as JSON values;",
                "started as ISO-8601 with offset."})
final class ExportCommand extends JournalSubcommand {

    @Override
    public Integer call() throws CliException {
        JournalReader.Report report;
        try (JournalReader reader = cli.openReader()) {
            report = reader.scan((index, r) -> cli.out.println(Json.record(r, cli.zone)));
        }
        cli.out.flush();
        return cli.warn(report);
    }
}

package dev.effectful.cli;

import dev.effectful.core.journal.JournalFiles;
import dev.effectful.core.keys.Fingerprinter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code journal secret [--acknowledge-new]}: whether the journal's {@code secret.key} is the one its
 * {@code @Redact @IntentKey} keys were made with, and a person's acceptance of a new one. The
 * acceptance is a file in the journal directory ({@code secret.key.acknowledged}), which the agent
 * reads at start and whenever a refused call looks again.
 */
@Command(name = "secret", mixinStandardHelpOptions = true,
        description = {"Whether secret.key is the one the journal's @Redact @IntentKey keys were made with; exit 1 when"
                + " not (such calls are refused). --acknowledge-new accepts the current (or a new) secret instead."})
final class SecretCommand extends JournalSubcommand {

    @Option(names = "--acknowledge-new", description = "accept the secret now in secret.key (made when missing) as"
            + " the journal's: intents keyed with the old one are no longer recognised")
    boolean acknowledgeNew;

    @Override
    public Integer call() throws CliException {
        Path dir = cli.journalDir();
        if (!Files.isDirectory(dir) || !JournalFiles.looksLikeJournal(dir)) {
            throw new CliException(JournalCli.USAGE, "no journal at " + dir + " (give --dir DIR)");
        }
        try {
            String recorded = Fingerprinter.recordedId(dir);
            if (acknowledgeNew) {
                String id = Fingerprinter.acknowledgeNew(dir);
                print("acknowledged", recorded, Optional.of(id),
                        "acknowledged the secret in " + dir.resolve(Fingerprinter.SECRET_FILE) + " (" + id + ") as the"
                                + " journal's; @Redact @IntentKey calls run with it from the agent's next look (its next"
                                + " refused call, or its next start)");
                return JournalCli.OK;
            }
            Optional<String> current = Fingerprinter.idOfFile(dir);
            if (recorded == null) {
                print("unused", null, current, "no intent key in this journal needed the secret yet");
                return JournalCli.OK;
            }
            if (current.isPresent() && current.get().equals(recorded)) {
                print("same", recorded, current, "secret.key is the one the journal's keys were made with");
                return JournalCli.OK;
            }
            String ack = Files.isRegularFile(dir.resolve(Fingerprinter.ACK_FILE))
                    ? Files.readString(dir.resolve(Fingerprinter.ACK_FILE)).strip() : null;
            if (current.isPresent() && current.get().equals(ack)) {
                print("acknowledged", recorded, current, "a person acknowledged the new secret; the agent adopts it");
                return JournalCli.OK;
            }
            print(current.isPresent() ? "different" : "missing", recorded, current,
                    dir.resolve(Fingerprinter.SECRET_FILE) + (current.isPresent() ? " is not" : " is missing; it was")
                            + " the secret the journal's @Redact @IntentKey keys were made with; such calls are refused."
                            + " Restore it from a backup, or accept a new one: journal --dir " + dir
                            + " secret --acknowledge-new");
            return JournalCli.LOOK;
        } catch (IOException e) {
            throw new CliException(JournalCli.LOOK, "cannot read the journal's secret in " + dir + ": " + e.getMessage());
        }
    }

    private void print(String state, String recorded, Optional<String> current, String text) {
        if (cli.json) {
            cli.out.println(Json.line(g -> {
                g.writeStringField("secret", state);
                if (recorded != null) {
                    g.writeStringField("recorded_id", recorded);
                }
                if (current.isPresent()) {
                    g.writeStringField("current_id", current.get());
                }
            }));
        } else {
            cli.out.println(text);
        }
    }
}

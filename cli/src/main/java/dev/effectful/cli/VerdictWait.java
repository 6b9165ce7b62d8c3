package dev.effectful.cli;

import picocli.CommandLine.Option;

/**
 * {@code --wait SECONDS}, a picocli mixin: how long a verdict given beside a live writer waits for that writer
 * to record it. One declaration for {@code resolve}, {@code approve} and {@code deny}, which deliver a verdict
 * the same way ({@link VerdictDelivery}) and so must offer the same option in the same words.
 */
final class VerdictWait {

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "10",
            description = "on a live journal: how long to wait for the writer to record it (default: ${DEFAULT-VALUE})")
    long seconds;
}

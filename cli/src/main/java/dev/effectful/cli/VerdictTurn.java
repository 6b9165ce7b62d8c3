package dev.effectful.cli;

import dev.effectful.core.journal.ResolutionRequest;
import dev.effectful.core.journal.VerdictClaim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One verdict on an intent at a time, across processes and threads ({@link VerdictClaim}): {@code resolve},
 * {@code approve} and {@code deny} check the intent and record (or hand over) only while they hold the
 * intent's claim. A verdict given while another is being recorded waits for it, within its own {@code --wait},
 * and then checks the journal afresh: it finds the verdict that stands and says so instead of recording a
 * second one or taking the other's record for its own.
 */
final class VerdictTurn {

    private static final long POLL_MILLIS = 20;

    /** The part of a verdict that must run alone: check the intent, then record or hand it over. */
    @FunctionalInterface
    interface Work {
        int run() throws CliException;
    }

    private VerdictTurn() {
    }

    static int alone(Path dir, String key, long waitSeconds, Work work) throws CliException {
        if (!ResolutionRequest.isKey(key) || !Files.isDirectory(dir)) {
            // no journal, or no key one could hold: nothing to claim, and the work refuses it in its usual words
            return work.run();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(1, waitSeconds));
        while (true) {
            VerdictClaim.Attempt attempt;
            try {
                attempt = VerdictClaim.tryClaim(dir, key);
            } catch (IOException e) {
                throw new CliException(JournalCli.LOOK, "could not claim intent " + key + " for this verdict ("
                        + VerdictClaim.file(dir, key) + "): " + e.getMessage());
            }
            if (attempt instanceof VerdictClaim.Claimed c) {
                return runHolding(c.claim(), work);
            }
            if (System.nanoTime() > deadline) {
                String holder = attempt instanceof VerdictClaim.Busy b ? b.holderPid() : "unknown";
                throw new CliException(JournalCli.REFUSED, "not recorded: another verdict on intent " + key
                        + " is being recorded right now (pid " + holder + ") and did not finish within "
                        + waitSeconds + " s; nothing changed; look with: journal show " + key);
            }
            VerdictDelivery.pause(POLL_MILLIS, "another verdict on the intent was recorded");
        }
    }

    private static int runHolding(VerdictClaim claim, Work work) throws CliException {
        try {
            return work.run();
        } finally {
            try {
                claim.close();
            } catch (IOException e) {
                // the verdict's answer stands; a claim file left behind is removed by the next claimant once
                // this process is gone
            }
        }
    }
}

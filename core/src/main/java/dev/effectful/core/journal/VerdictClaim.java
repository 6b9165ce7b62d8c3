package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * The one person's verdict on an intent being recorded right now: {@code <journal>/resolutions/<key>.claim},
 * made with an exclusive create, so of two verdicts given at the same moment (two console tabs, a tab and a
 * shell) exactly one goes on to check the intent and record or hand over; the other waits for the claim to go
 * and then reads the journal afresh, where it finds the verdict that stands.
 *
 * <p>Without it each checked the intent ("waits for a verdict"), then both acted: both appended, or both
 * handed a request to the live writer and both took the one record that appeared for their own. The claim
 * lives only while its holder checks and records; a holder that was killed leaves one behind, which the next
 * claimant removes once the process named in it is gone.
 */
public final class VerdictClaim implements AutoCloseable {

    /** What {@link #tryClaim} found: this caller holds the claim, or someone else does. */
    public sealed interface Attempt permits Claimed, Busy {
    }

    /** This caller holds the claim; closing it lets the next verdict on the key go ahead. */
    public record Claimed(VerdictClaim claim) implements Attempt {
    }

    /** Another verdict on the key is being recorded, by {@code holderPid} ("unknown" if unreadable). */
    public record Busy(String holderPid) implements Attempt {
    }

    private final Path file;
    private final String token;

    private VerdictClaim(Path file, String token) {
        this.file = file;
        this.token = token;
    }

    /** Where the claim on {@code key} lives. */
    public static Path file(Path journalDir, String key) {
        return ResolutionRequest.dir(journalDir).resolve(key + ".claim");
    }

    /**
     * Takes the claim on {@code key}, or says who holds it. One look, no waiting: the caller decides how long
     * a verdict may wait for another.
     */
    public static Attempt tryClaim(Path journalDir, String key) throws IOException {
        if (!ResolutionRequest.isKey(key)) {
            throw new IOException("not an intent key: " + key);
        }
        Path dir = ResolutionRequest.dir(journalDir);
        ResolutionRequest.ensureRequestDirectory(dir);
        Path file = file(journalDir, key);
        // the token tells this holder's claim from a later one in the same process (two console tabs share a pid)
        String token = UUID.randomUUID().toString();
        String pid = Long.toString(ProcessHandle.current().pid());
        for (int tries = 0; tries < 2; tries++) {
            try {
                Files.write(file, (pid + "\n" + token + "\n").getBytes(StandardCharsets.US_ASCII),
                        StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                JournalFiles.ownerOnly(file);
                return new Claimed(new VerdictClaim(file, token));
            } catch (FileAlreadyExistsException held) {
                String holder = holderOf(file);
                if (holder == null) {
                    continue; // released between the create and the read: try once more
                }
                if (!holderAlive(holder)) {
                    // a killed holder's leftover: nobody is recording under it
                    Files.deleteIfExists(file);
                    continue;
                }
                return new Busy(holder);
            }
        }
        String holder = holderOf(file);
        return new Busy(holder == null ? "unknown" : holder);
    }

    /** The pid written in the claim, or null when there is no claim any more. */
    private static String holderOf(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.US_ASCII);
            int nl = s.indexOf('\n');
            // written in one call: an empty or partial file is a holder between its create and its write
            return nl < 0 ? "unknown" : s.substring(0, nl).strip();
        } catch (NoSuchFileException gone) {
            return null;
        } catch (IOException e) {
            return "unknown";
        }
    }

    private static boolean holderAlive(String pid) {
        try {
            return ProcessHandle.of(Long.parseLong(pid)).map(ProcessHandle::isAlive).orElse(false);
        } catch (NumberFormatException e) {
            return true; // not ours to judge: wait for it like any other holder
        }
    }

    /** Lets the next verdict on the key go ahead; removes only this holder's own claim. */
    @Override
    public void close() throws IOException {
        try {
            String s = Files.readString(file, StandardCharsets.US_ASCII);
            if (s.contains(token)) {
                Files.deleteIfExists(file);
            }
        } catch (NoSuchFileException gone) {
            // removed already: nothing of this holder's remains
        }
    }
}

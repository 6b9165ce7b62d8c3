package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Who owns the journal's files, and what goes wrong when that is not the process's user. A command run
 * with {@code sudo} against a journal leaves files owned by root (a new cycle file when no agent runs, a
 * request in {@code resolutions/} beside a live one); the journal's files are owner-only, so the
 * application's own user can then neither read nor write them. Both sides say so, naming the file, its
 * owner and the fix, instead of failing with a bare "permission denied":
 * <ul>
 *   <li>the CLI refuses to write into a journal another user owns ({@link #cliWriteProblem});</li>
 *   <li>the agent names the file it cannot use ({@link #inaccessible}).</li>
 * </ul>
 */
public final class JournalOwners {

    private JournalOwners() {
    }

    /** The user this process runs as, by name. */
    public static String processUser() {
        return System.getProperty("user.name", "?");
    }

    /** The owner of {@code p} by name, or empty when it cannot be read (no such file, no POSIX owner). */
    public static Optional<String> ownerOf(Path p) {
        try {
            return Optional.of(Files.getOwner(p, LinkOption.NOFOLLOW_LINKS).getName());
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** "it belongs to OWNER, not to USER..." when {@code p} is another user's, else empty. */
    public static Optional<String> ownedByAnother(Path p) {
        String me = processUser();
        return ownerOf(p).filter(o -> !o.equals(me)).map(o -> p.getFileName() + " belongs to " + o + ", not to " + me
                + " (left by a command run with sudo?); fix: sudo chown -R " + me + " " + p.getParent());
    }

    /**
     * The first of the journal's own files (and the request directory with its files) that this process
     * cannot read, or cannot write where it writes in place, as a sentence naming it, its owner and the fix; empty when there is none.
     * Root reads and writes every file, so only a process of another user ever gets an answer here.
     */
    public static Optional<String> inaccessible(Path dir, List<Path> journalFiles) {
        List<Path> check = new ArrayList<>(journalFiles);
        Path requests = ResolutionRequest.dir(dir);
        if (Files.isDirectory(requests, LinkOption.NOFOLLOW_LINKS)) {
            check.add(requests);
            try (DirectoryStream<Path> s = Files.newDirectoryStream(requests)) {
                s.forEach(check::add);
            } catch (IOException e) {
                // not listable: the directory itself is then not readable, which the check below names
            }
        }
        for (Path p : check) {
            if (Files.isSymbolicLink(p)) {
                continue;
            }
            String name = p.getFileName().toString();
            // written in place: Chronicle's files, the lock and the request directory; the others (the secret,
            // the index snapshot) are only read, or replaced by a rename, which the directory's mode decides
            boolean writtenInPlace = name.endsWith(".cq4") || name.endsWith(".cq4t") || name.equals(JournalLock.FILE_NAME)
                    || p.equals(requests);
            if (!Files.isReadable(p) || writtenInPlace && !Files.isWritable(p)) {
                String owner = ownerOf(p).orElse("another user");
                String me = processUser();
                return Optional.of("the journal file " + p + " belongs to " + owner + " and this process, running as "
                        + me + ", cannot read and write it (" + owner + " ran a command on this journal, e.g. 'sudo"
                        + " journal resolve'?); give the journal back to its user: sudo chown -R " + me + " " + dir
                        + ", and run the CLI as " + me + " (sudo -u " + me + " java -jar effectful-agent.jar journal ...)");
            }
        }
        return Optional.empty();
    }

    /**
     * Why the CLI must not write into {@code dir} (a resolution, a request, an acknowledgement), or empty
     * when it may: the journal belongs to another user, whose agent could not read what this CLI writes.
     *
     * @param env the CLI's environment, for {@code SUDO_USER}
     */
    public static Optional<String> cliWriteProblem(Path dir, Map<String, String> env) {
        String me = processUser();
        String owner = ownerOf(dir).orElse(null);
        if (owner == null || owner.equals(me)) {
            return Optional.empty();
        }
        String sudoUser = env.get("SUDO_USER");
        String how = sudoUser != null && !sudoUser.isBlank()
                ? "this CLI runs as " + me + " through sudo (SUDO_USER=" + sudoUser + ")"
                : "this CLI runs as " + me;
        return Optional.of("the journal " + dir + " belongs to " + owner + " and " + how + ": the files it would write"
                + " there (a new cycle file, a request for the running agent) would belong to " + me + ", and the agent,"
                + " running as " + owner + ", could not read them; nothing was written. Run it as " + owner + ": sudo -u "
                + owner + " java -jar effectful-agent.jar journal --dir " + dir + " ...");
    }
}

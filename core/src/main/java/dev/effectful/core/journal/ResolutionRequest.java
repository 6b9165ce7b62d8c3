package dev.effectful.core.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.effectful.core.json.JsonMappers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A person's verdict handed to the live writer of a journal: the CLI may not append while another
 * process holds the writer lock, so it drops this file in {@code <journal>/resolutions/<key>.json}
 * and the writer's engine appends the {@code resolution} record itself.
 *
 * <p>Each file changes hands by an atomic rename only, so exactly one party acts on it: the CLI
 * writes it under a temporary name and renames it into place; the writer claims it by renaming it
 * to {@code .taken}; a CLI that gives up withdraws it by renaming it to {@code .withdrawn}. Whoever's
 * rename fails knows the other side got there first. The writer's refusal comes back as
 * {@code <key>.refused}, one line of text. The directory is owner-only like the journal.
 *
 * <p>The same hand-over carries a person's verdict on an approval request ({@code journal approve|deny}):
 * {@code verdict} is then {@code approved} or {@code denied} and {@code by} names the person; the writer
 * appends an {@code approval} record instead of a {@code resolution}.
 *
 * @param resultJson the value a repeat returns (JSON text), or null: none given
 * @param verdict    null for a resolution; {@code approved} or {@code denied} for an approval verdict
 * @param by         who gives an approval verdict (OS user, and a name if given); null for a resolution
 */
public record ResolutionRequest(String intentKey, boolean applied, String note, String resultJson, boolean force,
                                String task, String actor, String call, Kind kind, int attempt, String attemptId,
                                long requestedAtMillis, long requestedByPid, String verdict, String by) {

    /** A resolution (no approval verdict). */
    public ResolutionRequest(String intentKey, boolean applied, String note, String resultJson, boolean force,
                             String task, String actor, String call, Kind kind, int attempt, String attemptId,
                             long requestedAtMillis, long requestedByPid) {
        this(intentKey, applied, note, resultJson, force, task, actor, call, kind, attempt, attemptId,
                requestedAtMillis, requestedByPid, null, null);
    }

    /** Whether this request carries an approval verdict rather than a resolution. */
    public boolean isApproval() {
        return verdict != null;
    }

    /** The sub-directory of the journal holding requests. */
    public static final String DIR = "resolutions";
    /** Larger request files are not read: a note and a result, nothing more, belong in one. */
    public static final long MAX_BYTES = (1 << 20) + 64 * 1024;

    private static final Pattern KEY = Pattern.compile("[0-9a-f]{32}");

    /**
     * Jackson only once a request file is read or written: the engine's watch names the directory
     * every second from its start, and the start must not load the mapper for it.
     */
    private static final class Json {
        static final ObjectMapper MAPPER = JsonMappers.shared();
    }

    /** Intent keys are 32 lower-case hex digits; nothing else may become a file name here. */
    public static boolean isKey(String s) {
        return s != null && KEY.matcher(s).matches();
    }

    public static Path dir(Path journalDir) {
        return journalDir.resolve(DIR);
    }

    public static Path file(Path journalDir, String key) {
        return dir(journalDir).resolve(key + ".json");
    }

    public static Path refusalFile(Path journalDir, String key) {
        return dir(journalDir).resolve(key + ".refused");
    }

    /**
     * How long a {@code .refused} answer is kept for a CLI to read: far longer than any {@code --wait}. An
     * older one was left by a CLI that was interrupted; it answers nobody and is removed.
     */
    public static final long STALE_REFUSAL_MILLIS = 10 * 60_000L;

    /** Writes this request into place atomically, replacing an older one for the same key. */
    public void submit(Path journalDir) throws IOException {
        requireKey(intentKey);
        Path dir = dir(journalDir);
        ensureRequestDirectory(dir);
        Path tmp = dir.resolve(intentKey + ".json.tmp-" + ProcessHandle.current().pid());
        Files.write(tmp, toJson().getBytes(StandardCharsets.UTF_8));
        JournalFiles.ownerOnly(tmp);
        move(tmp, file(journalDir, intentKey));
    }

    /**
     * The writer takes the request for {@code key}: empty when there is none (or the CLI withdrew it
     * first). The returned file is the writer's to read and delete.
     */
    public static Optional<Path> claim(Path journalDir, String key) throws IOException {
        requireKey(key);
        Path taken = dir(journalDir).resolve(key + ".json.taken-" + ProcessHandle.current().pid());
        try {
            move(file(journalDir, key), taken);
            return Optional.of(taken);
        } catch (NoSuchFileException gone) {
            return Optional.empty();
        }
    }

    /** The CLI gives up: true when the request was still waiting and now will never be acted on. */
    public static boolean withdraw(Path journalDir, String key) throws IOException {
        requireKey(key);
        Path withdrawn = dir(journalDir).resolve(key + ".json.withdrawn-" + ProcessHandle.current().pid());
        try {
            move(file(journalDir, key), withdrawn);
        } catch (NoSuchFileException taken) {
            return false;
        }
        Files.deleteIfExists(withdrawn);
        return true;
    }

    /** The writer's answer when it would not record the verdict; written atomically. */
    public static void refuse(Path journalDir, String key, String reason) throws IOException {
        requireKey(key);
        Path tmp = dir(journalDir).resolve(key + ".refused.tmp-" + ProcessHandle.current().pid());
        Files.write(tmp, reason.replace('\n', ' ').getBytes(StandardCharsets.UTF_8));
        JournalFiles.ownerOnly(tmp);
        move(tmp, refusalFile(journalDir, key));
    }

    /**
     * Makes the request directory (owner-only) or accepts the one there. Not {@link JournalFiles#ensureDirectory}:
     * the files left here (a {@code .refused} answer nobody read, a {@code .taken} one of a killed writer) are
     * this directory's own, not a sign that it is someone else's directory.
     */
    static void ensureRequestDirectory(Path dir) throws IOException {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try {
            Files.createDirectory(dir);
        } catch (java.nio.file.FileAlreadyExistsException there) {
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                return; // made a moment ago by another verdict given at the same time
            }
            throw new IOException(dir + " is not a directory (" + kindOf(dir) + "); remove it, the writer makes it again");
        }
        JournalFiles.ownerOnly(dir);
        try {
            Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
        } catch (UnsupportedOperationException notPosix) {
            // the journal directory around it is owner-only already
        }
    }

    /**
     * True for a plain file: only those are read. A FIFO would block the reader until someone writes to
     * it, a device or a directory is no request; a symbolic link is not followed.
     */
    public static boolean isRegular(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile();
        } catch (IOException e) {
            return false;
        }
    }

    /** What {@code file} is, for a message: a FIFO, a directory, a symbolic link... */
    public static String kindOf(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.isDirectory() ? "a directory" : a.isSymbolicLink() ? "a symbolic link" : a.isRegularFile()
                    ? "a regular file" : "a FIFO, socket or device";
        } catch (IOException e) {
            return "unreadable: " + e.getMessage();
        }
    }

    /**
     * Why {@code name}, a file in the request directory, is a leftover nobody will act on, or null when it
     * may still be someone's: a hand-over file of a process that is gone (a killed CLI's temporary file, a
     * killed writer's {@code .taken} one), or a {@code .refused} answer older than {@link #STALE_REFUSAL_MILLIS}.
     */
    public static String staleReason(String name, long modifiedMillis, long nowMillis) {
        for (String mark : new String[] {".json.taken-", ".json.tmp-", ".json.withdrawn-", ".refused.tmp-"}) {
            int at = name.indexOf(mark);
            if (at > 0) {
                long pid;
                try {
                    pid = Long.parseLong(name.substring(at + mark.length()));
                } catch (NumberFormatException e) {
                    return null;
                }
                return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) ? null
                        : "left by process " + pid + ", which is gone";
            }
        }
        if (name.endsWith(".refused") && nowMillis - modifiedMillis > STALE_REFUSAL_MILLIS) {
            return "an answer nobody read for over " + STALE_REFUSAL_MILLIS / 60_000 + " minutes";
        }
        return null;
    }

    public static ResolutionRequest read(Path file) throws IOException {
        if (!isRegular(file)) {
            throw new IOException("request file " + file.getFileName() + " is not a regular file (" + kindOf(file) + ")");
        }
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("request file " + file.getFileName() + " is larger than " + MAX_BYTES + " bytes");
        }
        JsonNode n = Json.MAPPER.readTree(Files.readAllBytes(file));
        if (n == null || !n.isObject()) {
            throw new IOException("request file " + file.getFileName() + " is not a JSON object");
        }
        String key = text(n, "intent_key");
        requireKey(key);
        String applied = text(n, "applied");
        String verdict = text(n, "verdict");
        Verdict given = Verdict.fromWord(verdict);
        if (verdict != null && (given == null || !given.byPerson())) {
            throw new IOException("request file " + file.getFileName() + ": verdict must be approved or denied, not "
                    + verdict);
        }
        if (verdict == null && !"yes".equals(applied) && !"no".equals(applied)) {
            throw new IOException("request file " + file.getFileName() + ": applied must be yes or no, not " + applied);
        }
        return new ResolutionRequest(key, "yes".equals(applied), text(n, "note"), text(n, "result"),
                n.path("force").asBoolean(false), text(n, "task"), text(n, "actor"), text(n, "call"), Kind.fromWord(text(n, "kind")),
                n.path("attempt").asInt(0), text(n, "attempt_id"), n.path("requested_at").asLong(0),
                n.path("requested_by_pid").asLong(0), verdict, text(n, "by"));
    }

    String toJson() {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("intent_key", intentKey);
        n.put("applied", applied ? "yes" : "no");
        n.put("note", note);
        n.put("result", resultJson);
        n.put("force", force);
        n.put("task", task);
        n.put("actor", actor);
        n.put("call", call);
        n.put("kind", kind == null ? null : kind.word());
        n.put("attempt", attempt);
        n.put("attempt_id", attemptId);
        n.put("requested_at", requestedAtMillis);
        n.put("requested_by_pid", requestedByPid);
        if (verdict != null) {
            n.put("verdict", verdict);
            n.put("by", by);
        }
        return n.toString();
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static void requireKey(String key) throws IOException {
        if (!isKey(key)) {
            throw new IOException("not an intent key: " + key);
        }
    }

    private static void move(Path from, Path to) throws IOException {
        try {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            // same directory on every supported file system; refuse rather than risk a torn hand-over
            throw new IOException("cannot rename atomically in " + from.getParent() + ": " + e.getMessage(), e);
        }
    }
}

package dev.effectful.runtime.journal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.effectful.runtime.json.JsonMappers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
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
 * @param resultJson the value a repeat returns (JSON text), or null: none given
 */
public record ResolutionRequest(String intentKey, boolean applied, String note, String resultJson, boolean force,
                                String task, String actor, String call, Kind kind, int attempt, String attemptId,
                                long requestedAtMillis, long requestedByPid) {

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

    /** Writes this request into place atomically, replacing an older one for the same key. */
    public void submit(Path journalDir) throws IOException {
        requireKey(intentKey);
        Path dir = dir(journalDir);
        JournalFiles.ensureDirectory(dir);
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

    public static ResolutionRequest read(Path file) throws IOException {
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
        if (!"yes".equals(applied) && !"no".equals(applied)) {
            throw new IOException("request file " + file.getFileName() + ": applied must be yes or no, not " + applied);
        }
        return new ResolutionRequest(key, "yes".equals(applied), text(n, "note"), text(n, "result"),
                n.path("force").asBoolean(false), text(n, "task"), text(n, "actor"), text(n, "call"), Kind.fromWord(text(n, "kind")),
                n.path("attempt").asInt(0), text(n, "attempt_id"), n.path("requested_at").asLong(0),
                n.path("requested_by_pid").asLong(0));
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

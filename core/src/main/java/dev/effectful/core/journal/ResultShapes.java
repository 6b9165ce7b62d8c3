package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@value #FILE_NAME} in the journal directory: each tool's name and the {@link ResultShape} of what it
 * returns, one {@code name=shape} line each, so {@code journal resolve --result} can refuse a value that
 * can never be the tool's with no writer running (a live writer checks against the real type itself).
 * The engine adds a tool the first time this process meets it; a tool returning different shapes from
 * different classes is recorded as {@code other} (not checked).
 */
public final class ResultShapes {

    /** The file's name in the journal directory. */
    public static final String FILE_NAME = "result-shapes";

    private ResultShapes() {
    }

    /** The shapes recorded in {@code dir}; empty when there is no file (an older journal, or no tool met yet). */
    public static Map<String, ResultShape> read(Path dir) {
        Map<String, ResultShape> out = new TreeMap<>();
        try {
            for (String line : Files.readAllLines(dir.resolve(FILE_NAME), StandardCharsets.UTF_8)) {
                int eq = line.lastIndexOf('=');
                if (eq > 0) {
                    out.put(line.substring(0, eq), ResultShape.ofWord(line.substring(eq + 1).strip()));
                }
            }
        } catch (NoSuchFileException none) {
            // nothing recorded
        } catch (IOException e) {
            // unreadable: nothing is checked, as with no file
        }
        return out;
    }

    /**
     * Records {@code tool}'s shape in {@code dir} unless it is there already. Synchronized: the engine's
     * threads may meet two new tools at once; the file is replaced whole, never seen half written.
     */
    public static synchronized void remember(Path dir, String tool, ResultShape shape) throws IOException {
        Map<String, ResultShape> all = read(dir);
        ResultShape before = all.get(tool);
        ResultShape now = before == null || before == shape ? shape : ResultShape.OTHER;
        if (now == before) {
            return;
        }
        all.put(tool, now);
        StringBuilder text = new StringBuilder();
        all.forEach((name, s) -> text.append(name.replace('\n', ' ')).append('=').append(s.word()).append('\n'));
        Path tmp = dir.resolve(FILE_NAME + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        JournalFiles.ownerOnly(tmp);
        try {
            Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
        }
    }
}

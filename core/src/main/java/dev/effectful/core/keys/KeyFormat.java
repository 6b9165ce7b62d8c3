package dev.effectful.core.keys;

import dev.effectful.core.journal.JournalFiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * The journal's version mark for its intent keys: the file {@value #FILE} in the journal directory.
 *
 * <p>{@code format 2} is the injective material of {@link IntentKeys}. A journal that already held
 * records when this version first opened it also gets {@code earlier 1}: some of its keys may have
 * been derived with the plain join ({@link IntentKeys#legacy}), which differs from the escaped
 * material only for tuples whose task, actor, tool name or slot holds {@code |}, a backslash or an
 * unpaired surrogate. For those tuples the engine looks up the earlier key too ({@link EarlierKeys}),
 * so an intent journaled before the upgrade is neither run again nor lost. Every other key is the
 * same in both formats.
 */
public final class KeyFormat {

    /** The mark's file name, beside the journal's cycle files. */
    public static final String FILE = JournalFiles.KEY_FORMAT_FILE;

    private static final String CURRENT = "format 2";
    private static final String EARLIER = "earlier 1";

    private KeyFormat() {
    }

    /**
     * Called by the journal's writer when it opens the journal, before it appends anything: writes
     * the mark when there is none, and says whether the journal may hold keys of the earlier format.
     *
     * @param holdsRecords whether the journal held any record when it was opened
     */
    public static boolean markAtOpen(Path journalDir, boolean holdsRecords) throws IOException {
        Path file = journalDir.resolve(FILE);
        if (Files.isRegularFile(file)) {
            return holdsEarlierKeys(journalDir);
        }
        String text = holdsRecords ? CURRENT + "\n" + EARLIER + "\n" : CURRENT + "\n";
        Path temp = journalDir.resolve(FILE + ".tmp");
        Files.writeString(temp, text, StandardCharsets.US_ASCII);
        JournalFiles.ownerOnly(temp);
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return holdsRecords;
    }

    /** Whether the mark says the journal may hold keys derived with the plain join. */
    public static boolean holdsEarlierKeys(Path journalDir) {
        try {
            List<String> lines = Files.readAllLines(journalDir.resolve(FILE), StandardCharsets.US_ASCII);
            return lines.stream().map(String::strip).anyMatch(EARLIER::equals);
        } catch (IOException | RuntimeException noMark) {
            // no mark: a journal this version has not opened as writer (a scratch journal, a reader)
            return false;
        }
    }
}

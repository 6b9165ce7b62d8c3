package dev.effectful.cli;

import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A shortened intent key, as tables and messages print it ({@code 9c1f04aa…}), stands for the one key of
 * the journal that starts with it. Too short, or shared by two keys, it is an error that says so: a
 * verdict must never land on an intent the person did not mean.
 */
final class KeyPrefixes {

    /** Fewer hex digits than this name too many intents to be a useful handle. */
    static final int MIN_DIGITS = 6;
    private static final Pattern SHORT_KEY = Pattern.compile("[0-9a-f]{" + MIN_DIGITS + ",31}");

    private KeyPrefixes() {
    }

    /** The text without the ellipsis a table adds to a shortened key. */
    static String trimmed(String id) {
        String t = id.strip();
        if (t.endsWith("…")) {
            return t.substring(0, t.length() - 1);
        }
        return t.endsWith("...") ? t.substring(0, t.length() - 3) : t;
    }

    static boolean mayBeShortKey(String id) {
        return SHORT_KEY.matcher(trimmed(id)).matches();
    }

    /**
     * The full key {@code id} stands for, or {@code id} itself when it is not a short key, or when
     * {@code alsoTask} and a task of exactly that id exists (a task id wins over a key prefix).
     */
    static String expand(JournalCli cli, String id, boolean alsoTask) throws CliException {
        if (!mayBeShortKey(id)) {
            return id;
        }
        String prefix = trimmed(id);
        TreeSet<String> keys = new TreeSet<>();
        boolean[] task = {false};
        try (JournalReader reader = cli.openReader()) {
            // keys and tasks are in every record's summary: no need to decode the rest
            reader.scanSummaries((index, r) -> {
                if (alsoTask && id.equals(r.task())) {
                    task[0] = true;
                }
                String k = r.intentKey();
                if (k != null && k.startsWith(prefix) && keys.size() < 3) {
                    keys.add(k);
                }
            });
        }
        if (task[0] || keys.isEmpty()) {
            return id;
        }
        if (keys.size() > 1) {
            throw new CliException(JournalCli.USAGE, "'" + Table.clean(id) + "' starts more than one intent key ("
                    + String.join(", ", keys) + (keys.size() > 2 ? ", ..." : "") + "); give more digits");
        }
        return keys.first();
    }
}

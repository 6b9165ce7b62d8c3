package dev.effectful.cli;

import dev.effectful.core.journal.HexKeys;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of {@link JournalIntents}, one per intent key, numbered 0, 1, 2... in the order keys are first
 * met: a 32-hex-digit key is kept as two longs behind an open-addressing table (a 4-byte slot per key, no
 * string per key); any other key (an older writer, or damage) is rare and goes to a plain map.
 */
final class IntentKeyIndex {

    private long[] hi;
    private long[] lo;
    private boolean[] textKey;
    private int rows;
    // open-addressing index over hex keys: row + 1, 0 = empty
    private int[] slots;
    private final Map<String, Integer> textKeys = new HashMap<>();
    private final List<String> textKeyNames = new ArrayList<>();

    /** Sized for {@code n} keys up front (see {@link JournalIntents#JournalIntents(long)}). */
    IntentKeyIndex(int n) {
        hi = new long[n];
        lo = new long[n];
        textKey = new boolean[n];
        slots = new int[Integer.highestOneBit(n * 2 - 1) << 1];
    }

    /** How many keys, so the next new key's row. */
    int size() {
        return rows;
    }

    /** The row of a key, added (as row {@link #size()}) when new. */
    int row(String key) {
        if (!isHexKey(key)) {
            Integer row = textKeys.get(key);
            if (row == null) {
                row = newRow(textKeyNames.size(), 0, true);
                textKeyNames.add(key);
                textKeys.put(key, row);
            }
            return row;
        }
        long h = Long.parseUnsignedLong(key, 0, 16, 16);
        long l = Long.parseUnsignedLong(key, 16, 32, 16);
        int mask = slots.length - 1;
        int i = mix(h, l) & mask;
        while (true) {
            int s = slots[i];
            if (s == 0) {
                int row = newRow(h, l, false);
                slots[i] = row + 1;
                if (rows * 2 > slots.length) {
                    rehash();
                }
                return row;
            }
            if (hi[s - 1] == h && lo[s - 1] == l && !textKey[s - 1]) {
                return s - 1;
            }
            i = (i + 1) & mask;
        }
    }

    /** The row of a key if the journal has it, else -1. */
    int find(String key) {
        if (!isHexKey(key)) {
            Integer row = textKeys.get(key);
            return row == null ? -1 : row;
        }
        long h = Long.parseUnsignedLong(key, 0, 16, 16);
        long l = Long.parseUnsignedLong(key, 16, 32, 16);
        int mask = slots.length - 1;
        for (int i = mix(h, l) & mask; slots[i] != 0; i = (i + 1) & mask) {
            int s = slots[i] - 1;
            if (hi[s] == h && lo[s] == l && !textKey[s]) {
                return s;
            }
        }
        return -1;
    }

    /** The key of a row, as the journal wrote it. */
    String key(int row) {
        // not String.format: every listed intent's key is made here, hundreds of thousands on a large journal
        return textKey[row] ? textKeyNames.get((int) hi[row]) : HexKeys.text(hi[row], lo[row]);
    }

    private static boolean isHexKey(String key) {
        if (key.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            char c = key.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    private static int mix(long h, long l) {
        long x = h * 0x9E3779B97F4A7C15L ^ l;
        return (int) (x ^ (x >>> 32));
    }

    private int newRow(long h, long l, boolean text) {
        if (rows == hi.length) {
            int n = hi.length + (hi.length >> 1);
            hi = Arrays.copyOf(hi, n);
            lo = Arrays.copyOf(lo, n);
            textKey = Arrays.copyOf(textKey, n);
        }
        int r = rows++;
        hi[r] = h;
        lo[r] = l;
        textKey[r] = text;
        return r;
    }

    private void rehash() {
        int[] next = new int[slots.length * 2];
        int mask = next.length - 1;
        for (int r = 0; r < rows; r++) {
            if (textKey[r]) {
                continue;
            }
            int i = mix(hi[r], lo[r]) & mask;
            while (next[i] != 0) {
                i = (i + 1) & mask;
            }
            next[i] = r + 1;
        }
        slots = next;
    }
}

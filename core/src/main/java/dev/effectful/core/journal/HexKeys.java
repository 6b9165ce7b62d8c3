package dev.effectful.core.journal;

/**
 * Intent keys as the 128 bits they spell. Every key the engine derives ({@code keys.IntentKeys}) is 32
 * lower-case hex digits: the journal stores those bits (17 bytes on the wire instead of 34) and the
 * intent index keeps them as two longs; both turn them back into exactly the same text, so everything
 * above sees the hex key. Any other key text (none of ours) is neither and stays text.
 *
 * <p>It lives beside the codec rather than in {@code keys/}: the record format and the index both
 * depend on it, while deriving keys depends on the journal, so keeping it here lets the packages
 * import one way only.
 */
public final class HexKeys {

    /** Digits in one of our keys. */
    public static final int DIGITS = 32;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Each ASCII character's digit value, -1 for anything but 0-9 and a-f. */
    private static final byte[] DIGIT = new byte[128];

    static {
        java.util.Arrays.fill(DIGIT, (byte) -1);
        for (int c = '0'; c <= '9'; c++) {
            DIGIT[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            DIGIT[c] = (byte) (c - 'a' + 10);
        }
    }

    private HexKeys() {
    }

    /**
     * Parses {@code key} into {@code into[0]} (the first 16 digits) and {@code into[1]} in one pass (a
     * call's hot path: {@code into} is a local two-long array the JIT keeps in registers). False, with
     * {@code into} undefined, when {@code key} is not exactly 32 lower-case hex digits.
     */
    public static boolean parse(String key, long[] into) {
        if (key == null || key.length() != DIGITS) {
            return false;
        }
        long hi = 0;
        long lo = 0;
        int bad = 0;
        for (int i = 0; i < 16; i++) {
            char a = key.charAt(i);
            char b = key.charAt(16 + i);
            int da = a < 128 ? DIGIT[a] : -1;
            int db = b < 128 ? DIGIT[b] : -1;
            bad |= da | db;
            hi = hi << 4 | (da & 0xf);
            lo = lo << 4 | (db & 0xf);
        }
        into[0] = hi;
        into[1] = lo;
        return bad >= 0;
    }

    /** The high (0: first 16 digits) or low (1) half of a key {@link #parse} accepts. */
    public static long half(String key, int which) {
        long[] both = new long[2];
        parse(key, both);
        return both[which];
    }

    /** The 32 lower-case hex digits of {@code high} then {@code low}. */
    public static String text(long high, long low) {
        char[] out = new char[DIGITS];
        for (int i = 15; i >= 0; i--) {
            out[i] = HEX[(int) (high & 0xF)];
            high >>>= 4;
            out[16 + i] = HEX[(int) (low & 0xF)];
            low >>>= 4;
        }
        return new String(out);
    }
}

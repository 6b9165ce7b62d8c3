package dev.effectful.runtime.reentry;

/**
 * Intent keys as the table stores them: our keys are 32 lowercase hex digits ({@code IntentKeys}),
 * which are two longs; any other text is not a table key and lives in the index's small fallback map.
 */
final class HexKeys {

    static final int DIGITS = 32;

    private HexKeys() {
    }

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

    /**
     * Parses a table key into {@code into[0]} (the first 16 digits) and {@code into[1]} in one pass
     * (a call's hot path: {@code into} is a local two-long array the JIT keeps in registers).
     * False, with {@code into} undefined, when {@code key} is not exactly 32 lowercase hex digits.
     */
    static boolean parse(String key, long[] into) {
        if (key.length() != DIGITS) {
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

    /** True when {@code key} is exactly 32 lowercase hex digits. */
    static boolean isTableKey(String key) {
        return parse(key, new long[2]);
    }

    /** The high (first 16 digits) or low half of a table key; the caller checked {@link #isTableKey}. */
    static long half(String key, int which) {
        long[] both = new long[2];
        parse(key, both);
        return both[which];
    }

    static String text(long hi, long lo) {
        char[] c = new char[DIGITS];
        for (int i = 15; i >= 0; i--) {
            c[i] = Character.forDigit((int) (hi & 0xf), 16);
            c[16 + i] = Character.forDigit((int) (lo & 0xf), 16);
            hi >>>= 4;
            lo >>>= 4;
        }
        return new String(c);
    }

    private static int digit(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        return -1;
    }
}

package dev.effectful.runtime.reentry;

/**
 * Intent keys as the table stores them: our keys are 32 lowercase hex digits ({@code IntentKeys}),
 * which are two longs; any other text is not a table key and lives in the index's small fallback map.
 */
final class HexKeys {

    static final int DIGITS = 32;

    private HexKeys() {
    }

    /** True when {@code key} is exactly 32 lowercase hex digits. */
    static boolean isTableKey(String key) {
        if (key.length() != DIGITS) {
            return false;
        }
        for (int i = 0; i < DIGITS; i++) {
            if (digit(key.charAt(i)) < 0) {
                return false;
            }
        }
        return true;
    }

    /** The high (first 16 digits) or low half of a table key; the caller checked {@link #isTableKey}. */
    static long half(String key, int which) {
        long v = 0;
        int from = which * 16;
        for (int i = from; i < from + 16; i++) {
            v = v << 4 | digit(key.charAt(i));
        }
        return v;
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

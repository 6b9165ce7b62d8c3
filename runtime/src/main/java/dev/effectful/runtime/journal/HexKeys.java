package dev.effectful.runtime.journal;

/**
 * An intent key of 32 lower-case hex digits (every key {@code IntentKeys} derives) as the 128 bits
 * it spells: the journal stores those (17 bytes on the wire instead of 34) and readers turn them
 * back into exactly the same text, so everything above the codec still sees the hex key.
 */
final class HexKeys {

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private HexKeys() {
    }

    /** True for exactly 32 lower-case hex digits: only such a key round-trips through its bits unchanged. */
    static boolean isKey(String key) {
        if (key == null || key.length() != 32) {
            return false;
        }
        for (int i = 0; i < 32; i++) {
            char c = key.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    /** The first 16 digits as a number; {@code key} must pass {@link #isKey}. */
    static long high(String key) {
        return bits(key, 0);
    }

    /** The last 16 digits as a number; {@code key} must pass {@link #isKey}. */
    static long low(String key) {
        return bits(key, 16);
    }

    /** The 32 lower-case hex digits of {@code high} then {@code low}. */
    static String text(long high, long low) {
        char[] out = new char[32];
        for (int i = 15; i >= 0; i--) {
            out[i] = DIGITS[(int) (high & 0xF)];
            high >>>= 4;
            out[16 + i] = DIGITS[(int) (low & 0xF)];
            low >>>= 4;
        }
        return new String(out);
    }

    private static long bits(String key, int from) {
        long v = 0;
        for (int i = from; i < from + 16; i++) {
            char c = key.charAt(i);
            v = v << 4 | (c <= '9' ? c - '0' : c - 'a' + 10);
        }
        return v;
    }
}

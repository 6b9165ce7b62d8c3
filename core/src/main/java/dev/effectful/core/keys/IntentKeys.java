package dev.effectful.core.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Derives the intent key: the first 32 hex digits of SHA-256 over {@code task|actor|verb|target|slot}.
 *
 * <p>The material is an injective encoding of the five parts, so two different tuples never share
 * a key (task {@code "a|b"} without actor and task {@code "a"} with actor {@code "b|"} once did).
 * Task, actor, verb and slot are escaped: {@code \} becomes {@code \\}, {@code |} becomes
 * {@code \|}, and an unpaired surrogate (which UTF-8 would turn into {@code ?}, merging distinct
 * ids) becomes a backslash, {@code u} and its four hex digits. The target is left as it is when it
 * delimits itself: it starts with
 * {@code [} (the canonical JSON array of the {@code @IntentKey} arguments) or {@code #} (the
 * ordinal of a tool without one), has {@code |} only inside JSON strings, ends outside a string and
 * holds no unpaired surrogate; a reader then finds its end by tracking JSON strings. Any other
 * target is written as {@code \} followed by its escaped text. A part with none of these
 * characters is written as it is, so the key of every ordinary tuple is exactly the plain join the
 * contract states, and every key journaled before the escaping stays the same for those tuples.
 *
 * <p>The format is part of the public contract (users recompute keys from journal exports), so it
 * is deliberately plain: no versioning prefix, no length framing. {@link #legacy} is the join
 * without escaping that earlier journals hold for the few tuples the escaping changes.
 */
public final class IntentKeys {

    /** 32 hex digits = 128 bits: collision-safe for any realistic journal, short enough to read aloud. */
    private static final int HEX_DIGITS = 32;

    private IntentKeys() {
    }

    /**
     * @param taskId the task's id
     * @param actor the task's actor, or null for none (hashed as the empty string)
     * @param verb the tool's name
     * @param target the canonical JSON array of the {@code @IntentKey} arguments
     * @param slot the rendered {@code @Slot} argument, or null for none (hashed as the empty string)
     * @return 32 lower-case hex digits
     */
    public static String derive(String taskId, String actor, String verb, String target, String slot) {
        Objects.requireNonNull(taskId, "taskId");
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(target, "target");
        String key = SCRATCH.get().asciiKey(taskId, orEmpty(actor), verb, target, orEmpty(slot));
        return key != null ? key : deriveFromText(taskId, actor, verb, target, slot);
    }

    /** {@link #derive} through the material's text: any input, and the reference the ASCII path must equal. */
    static String deriveFromText(String taskId, String actor, String verb, String target, String slot) {
        byte[] digest = sha256().digest(material(taskId, actor, verb, target, slot).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
    }

    /**
     * The text the key hashes (as UTF-8): the escaped parts joined with {@code |}. Holds no unpaired
     * surrogate, so its UTF-8 bytes stand for it one to one.
     */
    public static String material(String taskId, String actor, String verb, String target, String slot) {
        StringBuilder sb = new StringBuilder(taskId.length() + verb.length() + target.length() + 16);
        escape(sb, taskId).append('|');
        escape(sb, orEmpty(actor)).append('|');
        escape(sb, verb).append('|');
        if (delimitsItself(target)) {
            sb.append(target);
        } else {
            escape(sb.append('\\'), target);
        }
        return escape(sb.append('|'), orEmpty(slot)).toString();
    }

    /**
     * The key as journals written before the escaping derived it: the plain join. It differs from
     * {@link #derive} only when {@link #escapingChanges} says so.
     */
    public static String legacy(String taskId, String actor, String verb, String target, String slot) {
        String material = taskId + '|' + orEmpty(actor) + '|' + verb + '|' + target + '|' + orEmpty(slot);
        byte[] digest = sha256().digest(material.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
    }

    /** Whether {@link #derive} and {@link #legacy} differ for this tuple: a cheap scan, no hashing. */
    public static boolean escapingChanges(String taskId, String actor, String verb, String target, String slot) {
        return needsEscape(taskId) || needsEscape(orEmpty(actor)) || needsEscape(verb) || needsEscape(orEmpty(slot))
                || !delimitsItself(target);
    }

    private static boolean needsEscape(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '|' || c == '\\') {
                return true;
            }
            if (Character.isSurrogate(c)) {
                if (!pairedAt(s, i)) {
                    return true;
                }
                i++; // the pair's low half
            }
        }
        return false;
    }

    private static StringBuilder escape(StringBuilder sb, String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (c == '|' || c == '\\') {
                sb.append('\\').append(c);
            } else if (Character.isSurrogate(c) && !pairedAt(s, i)) {
                sb.append("\\u").append(HexFormat.of().toHexDigits(c));
            } else {
                sb.append(c);
                if (Character.isHighSurrogate(c)) {
                    sb.append(s.charAt(++i)); // its low half, checked by pairedAt
                }
            }
        }
        return sb;
    }

    /** Whether the surrogate at {@code i} is the high half of a pair (the low half is consumed with it). */
    private static boolean pairedAt(String s, int i) {
        return Character.isHighSurrogate(s.charAt(i)) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
    }

    /**
     * Whether a reader finds the end of {@code target} by itself: it starts with {@code [} or
     * {@code #}, has {@code |} only inside JSON strings, ends outside one, and has no unpaired
     * surrogate. Every target the engine makes (a canonical JSON array, {@code #} and an ordinal) does.
     */
    static boolean delimitsItself(String target) {
        if (target.isEmpty() || (target.charAt(0) != '[' && target.charAt(0) != '#')) {
            return false;
        }
        boolean inString = false;
        for (int i = 0, n = target.length(); i < n; i++) {
            char c = target.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++; // the escaped character, whatever it is, cannot end the string
                    if (i < n && Character.isSurrogate(target.charAt(i)) && !pairedAt(target, i)) {
                        return false;
                    }
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '|') {
                return false;
            }
            if (i < n && Character.isSurrogate(target.charAt(i))) {
                if (!pairedAt(target, i)) {
                    return false;
                }
                i++;
            }
        }
        return !inString;
    }

    /**
     * Per thread: the digest and the buffers of the common case, a key made of ASCII text (ids,
     * words, the JSON of ASCII values), whose UTF-8 bytes are its chars; hashed without building
     * the material's string or its byte array.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private static final class Scratch {
        private static final char[] HEX = "0123456789abcdef".toCharArray();
        private final MessageDigest digest = newSha256();
        private byte[] bytes = new byte[256];
        private final byte[] out = new byte[32];
        private final char[] hex = new char[HEX_DIGITS];
        private int n;

        /**
         * The key, or null when any part is not ASCII or the target does not delimit itself (then
         * the text path hashes the material's UTF-8).
         */
        String asciiKey(String a, String b, String c, String d, String e) {
            // escaping at most doubles a part
            int len = 2 * (a.length() + b.length() + c.length() + e.length()) + d.length() + 4;
            if (bytes.length < len) {
                bytes = new byte[Math.max(len, bytes.length * 2)];
            }
            n = 0;
            if (!put(a) || !sep() || !put(b) || !sep() || !put(c) || !sep() || !putTarget(d) || !sep() || !put(e)) {
                return null;
            }
            try {
                // digest() leaves it reset for the next key
                digest.update(bytes, 0, n);
                digest.digest(out, 0, out.length);
            } catch (java.security.DigestException impossible) {
                throw new IllegalStateException("SHA-256 output buffer", impossible);
            }
            for (int i = 0; i < HEX_DIGITS / 2; i++) {
                hex[2 * i] = HEX[(out[i] >> 4) & 0xF];
                hex[2 * i + 1] = HEX[out[i] & 0xF];
            }
            return new String(hex);
        }

        private boolean sep() {
            bytes[n++] = '|';
            return true;
        }

        /** An escaped part: '|' and '\\' behind a backslash. */
        private boolean put(String s) {
            for (int i = 0, len = s.length(); i < len; i++) {
                char ch = s.charAt(i);
                if (ch >= 0x80) {
                    return false;
                }
                if (ch == '|' || ch == '\\') {
                    bytes[n++] = '\\';
                }
                bytes[n++] = (byte) ch;
            }
            return true;
        }

        /** The target as it is, when it delimits itself (the only case the engine produces) and is ASCII. */
        private boolean putTarget(String s) {
            if (!delimitsItself(s)) {
                return false;
            }
            for (int i = 0, len = s.length(); i < len; i++) {
                char ch = s.charAt(i);
                if (ch >= 0x80) {
                    return false;
                }
                bytes[n++] = (byte) ch;
            }
            return true;
        }
    }

    /**
     * The key of one item of a batch call: first 32 hex digits of SHA-256 over
     * {@code callKey|item|itemId}, so each item is its own intent within its call's intent.
     */
    public static String forItem(String callKey, String itemId) {
        Objects.requireNonNull(callKey, "callKey");
        Objects.requireNonNull(itemId, "itemId");
        byte[] digest = sha256().digest((callKey + "|item|" + itemId).getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    /** One digest per thread: looking one up costs more than hashing a key's few bytes. */
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(IntentKeys::newSha256);

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java SE platform is required to provide SHA-256.
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }

    private static MessageDigest sha256() {
        MessageDigest d = DIGESTS.get();
        d.reset();
        return d;
    }
}

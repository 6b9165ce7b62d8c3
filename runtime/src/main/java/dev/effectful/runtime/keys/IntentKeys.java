package dev.effectful.runtime.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Derives the intent key: the first 32 hex digits of SHA-256 over {@code task|actor|verb|target|slot}.
 *
 * <p>The format is part of the public contract (users recompute keys from journal exports), so it
 * is deliberately plain: no versioning prefix, no length framing.
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
        String material = taskId + '|' + orEmpty(actor) + '|' + verb + '|' + target + '|' + orEmpty(slot);
        byte[] digest = sha256().digest(material.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
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

        /** The key, or null when any part is not ASCII (then the text path hashes its UTF-8). */
        String asciiKey(String a, String b, String c, String d, String e) {
            int len = a.length() + b.length() + c.length() + d.length() + e.length() + 4;
            if (bytes.length < len) {
                bytes = new byte[Math.max(len, bytes.length * 2)];
            }
            n = 0;
            if (!put(a) || !sep() || !put(b) || !sep() || !put(c) || !sep() || !put(d) || !sep() || !put(e)) {
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

        private boolean put(String s) {
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

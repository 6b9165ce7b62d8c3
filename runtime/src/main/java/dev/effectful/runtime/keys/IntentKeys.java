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
        String material = taskId + '|' + orEmpty(actor) + '|' + verb + '|' + target + '|' + orEmpty(slot);
        byte[] digest = sha256().digest(material.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, HEX_DIGITS / 2);
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
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            // Every Java SE platform is required to provide SHA-256.
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    });

    private static MessageDigest sha256() {
        MessageDigest d = DIGESTS.get();
        d.reset();
        return d;
    }
}

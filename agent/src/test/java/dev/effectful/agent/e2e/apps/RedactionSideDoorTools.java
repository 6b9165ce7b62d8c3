package dev.effectful.agent.e2e.apps;

import dev.effectful.EffectKind;
import dev.effectful.EffectfulTool;
import dev.effectful.IntentKey;
import dev.effectful.Redact;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tools that let a {@code @Redact} value out through each side door a careless tool opens: a
 * suppressed exception, a {@code toString()}, a deep cause, a record component, a bean property,
 * bytes (as Base64 or hex, or returned), the head of a long argument, JSON escapes.
 */
public class RedactionSideDoorTools {

    /** How many times the body of {@link #derive} ran. */
    public static final AtomicInteger DERIVE_BODIES = new AtomicInteger();

    /** A credential whose token a message quotes alone, without the record around it. */
    public record Creds(String user, String token) {
    }

    /** A bean whose secret is a property; its {@code toString()} gives nothing away. */
    public static final class ApiKey {
        private final String secret;

        public ApiKey(String secret) {
            this.secret = secret;
        }

        public String getSecret() {
            return secret;
        }

        @Override
        public String toString() {
            return "ApiKey(***)";
        }
    }

    /** An exception whose message is clean and whose {@code toString()} is not. */
    public static final class TokenRejected extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final String token;

        public TokenRejected(String token) {
            super("token rejected");
            this.token = token;
        }

        @Override
        public String toString() {
            return getClass().getName() + "[token=" + token + "]";
        }
    }

    /** The secret only in a suppressed exception, as try-with-resources attaches one. */
    @EffectfulTool(kind = EffectKind.SEND, name = "upload")
    public String upload(@IntentKey String id, @Redact String token) {
        IllegalStateException failed = new IllegalStateException("upload failed");
        failed.addSuppressed(new IOException("closing stream for " + token));
        throw failed;
    }

    /** The secret only in a cause's {@code toString()}. */
    @EffectfulTool(kind = EffectKind.SEND, name = "verify")
    public String verify(@IntentKey String id, @Redact String token) {
        throw new IllegalStateException("verification failed", new TokenRejected(token));
    }

    /** The secret only at depth 21 of the cause chain. */
    @EffectfulTool(kind = EffectKind.SEND, name = "relay")
    public String relay(@IntentKey String id, @Redact String token) {
        RuntimeException chain = new IllegalArgumentException("relay refused " + token);
        for (int depth = 20; depth >= 1; depth--) {
            chain = new IllegalStateException("hop " + depth, chain);
        }
        throw chain;
    }

    /** A record component quoted alone. */
    @EffectfulTool(kind = EffectKind.SEND, name = "sign_in")
    public String signIn(@IntentKey String id, @Redact Creds creds) {
        throw new IllegalArgumentException("token " + creds.token() + " expired");
    }

    /** A bean property quoted alone. */
    @EffectfulTool(kind = EffectKind.SEND, name = "connect")
    public String connect(@IntentKey String id, @Redact ApiKey key) {
        throw new IllegalStateException("key " + key.getSecret() + " revoked");
    }

    /** A byte[] secret quoted as Base64 and hex. */
    @EffectfulTool(kind = EffectKind.SEND, name = "sign")
    public String sign(@IntentKey String id, @Redact byte[] key) {
        throw new IllegalStateException("key " + Base64.getEncoder().encodeToString(key) + " (hex "
                + HexFormat.of().formatHex(key) + ") refused");
    }

    /** A ByteBuffer secret quoted as text. */
    @EffectfulTool(kind = EffectKind.SEND, name = "stream")
    public String stream(@IntentKey String id, @Redact ByteBuffer secret) {
        throw new IllegalStateException("stream " + StandardCharsets.UTF_8.decode(secret.duplicate()) + " closed");
    }

    /** A char[] secret quoted as the Base64 of its UTF-8 bytes. */
    @EffectfulTool(kind = EffectKind.SEND, name = "unlock")
    public String unlock(@IntentKey String id, @Redact char[] pin) {
        throw new IllegalStateException("pin " + Base64.getEncoder().encodeToString(new String(pin)
                .getBytes(StandardCharsets.UTF_8)) + " locked");
    }

    /** A byte[] secret returned: Jackson stores it as Base64, and a repeat would hand it back. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "derive")
    public byte[] derive(@IntentKey String id, @Redact byte[] seed) {
        DERIVE_BODIES.incrementAndGet();
        return seed.clone();
    }

    /** A String secret returned inside bytes, one byte in: its Base64 is at another alignment. */
    @EffectfulTool(kind = EffectKind.CREATE, name = "seal")
    public byte[] seal(@IntentKey String id, @Redact String token) {
        return ("x" + token + "yz").getBytes(StandardCharsets.UTF_8);
    }

    /** A long argument that holds the secret from its 191st character: the journal keeps only a head of it. */
    @EffectfulTool(kind = EffectKind.SEND, name = "archive")
    public String archive(@IntentKey String id, @Redact String token, String document) {
        return "archived " + document.length();
    }

    /** The secret in a JSON error body, escaped as Jackson escapes it ({@code \b}, {@code \f}). */
    @EffectfulTool(kind = EffectKind.SEND, name = "notify")
    public String notify(@IntentKey String id, @Redact String token) {
        String escaped = token.replace("\\", "\\\\").replace("\"", "\\\"").replace("\b", "\\b").replace("\f", "\\f");
        throw new IllegalStateException("HTTP 401: {\"error\":\"bad token\",\"token\":\"" + escaped + "\"}");
    }
}

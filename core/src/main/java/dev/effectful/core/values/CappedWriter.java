package dev.effectful.core.values;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Receives a value's JSON rendering and keeps it only while it fits the limit, so that one huge
 * argument costs bounded memory. Past the limit it either stops the rendering at once
 * ({@code digestAll == false}) or keeps measuring it and hashing all of it (for the truncation
 * marker, whose SHA-256 lets a person check a value they still hold against the journal).
 */
final class CappedWriter extends Writer {

    static final int HEAD_CHARS = 200;

    /** Thrown through Jackson to stop a rendering that can no longer be kept. */
    static final class LimitExceeded extends IOException {
        private static final long serialVersionUID = 1L;

        LimitExceeded() {
            super("rendering exceeds the size limit", null);
        }
    }

    private final int maxChars;
    private final boolean digestAll;
    private StringBuilder kept = new StringBuilder();
    private final StringBuilder head = new StringBuilder();
    private long length;
    private final MessageDigest digest;
    private final Writer hashing;

    CappedWriter(int maxChars, boolean digestAll) {
        this.maxChars = maxChars;
        this.digestAll = digestAll;
        this.digest = digestAll ? sha256() : null;
        this.hashing = digestAll
                ? new OutputStreamWriter(new DigestOutputStream(OutputStream.nullOutputStream(), digest), StandardCharsets.UTF_8)
                : null;
    }

    @Override
    public void write(char[] cbuf, int off, int len) throws IOException {
        length += len;
        if (head.length() < HEAD_CHARS) {
            head.append(cbuf, off, Math.min(len, HEAD_CHARS - head.length()));
        }
        if (kept != null) {
            if (length <= maxChars) {
                kept.append(cbuf, off, len);
            } else {
                kept = null;
                if (!digestAll) {
                    throw new LimitExceeded();
                }
            }
        }
        if (hashing != null) {
            hashing.write(cbuf, off, len);
        }
    }

    @Override
    public void flush() {
        // Nothing buffered that a caller could observe before finishing.
    }

    @Override
    public void close() {
        // Jackson closes its target; the text must outlive that.
    }

    boolean exceeded() {
        return kept == null;
    }

    /** The whole rendering; only while not {@link #exceeded()}. */
    String text() {
        return kept.toString();
    }

    long length() {
        return length;
    }

    String head() {
        return headOf(head, length);
    }

    String sha256Hex() throws IOException {
        hashing.flush();
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The first {@value #HEAD_CHARS} chars, never ending in half a surrogate pair. */
    static String headOf(CharSequence text, long fullLength) {
        int end = Math.min(text.length(), HEAD_CHARS);
        if (end > 0 && end < fullLength && Character.isHighSurrogate(text.charAt(end - 1))) {
            end--;
        }
        return text.subSequence(0, end).toString();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}

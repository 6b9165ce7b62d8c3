package dev.effectful.runtime.keys;

import dev.effectful.runtime.json.CanonicalJson;
import dev.effectful.runtime.json.NotCanonicalException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keyed fingerprints of {@code @Redact} values: HMAC-SHA-256 under a secret kept owner-only in the
 * journal directory. A plain hash would let anyone holding the journal recover a short secret (a
 * PIN, a card's last digits) by hashing guesses; without the key file they cannot.
 *
 * <p>The secret belongs to the journal: the same directory always gives the same fingerprints,
 * so a redacted {@code @IntentKey} argument still dedups across restarts.
 */
public final class Fingerprinter {

    static final String SECRET_FILE = "secret.key";
    static final int SECRET_BYTES = 32;
    private static final int HEX_DIGITS = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private static final Set<PosixFilePermission> OWNER_ONLY_FILE =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private final SecretKeySpec key;
    /**
     * Made by the first fingerprint, not at start: finding HmacSHA256 walks the JCA provider list
     * (some eighty JDK classes, the crypto policy files), which only a call with a {@code @Redact}
     * argument needs. Two threads racing to make it each make an equal one; either may stay.
     */
    private volatile Mac prototype;

    private Fingerprinter(byte[] secret) {
        key = new SecretKeySpec(secret, ALGORITHM);
    }

    /**
     * Loads {@code journalDir/secret.key}, creating it (and the directory) when missing.
     *
     * @throws IOException when the file cannot be created or read, is not a regular file, has the
     *     wrong size, or is accessible to group or others
     */
    public static Fingerprinter forJournal(Path journalDir) throws IOException {
        Path secretFile = journalDir.resolve(SECRET_FILE);
        if (!Files.exists(secretFile, LinkOption.NOFOLLOW_LINKS)) {
            create(journalDir, secretFile);
        }
        return new Fingerprinter(read(secretFile));
    }

    /**
     * {@code "hmac:"} + the first 32 hex digits of HMAC-SHA-256 over the value's canonical JSON,
     * or over its {@code toString()} when it has none. Equal values give equal fingerprints.
     * Exceptions thrown by the value's own {@code toString()} propagate.
     */
    public String fingerprint(Object value) {
        String text;
        try {
            text = CanonicalJson.of(value);
        } catch (NotCanonicalException e) {
            text = String.valueOf(value);
        }
        return "hmac:" + HexFormat.of().formatHex(mac().doFinal(text.getBytes(StandardCharsets.UTF_8))).substring(0, HEX_DIGITS);
    }

    /** Mac is stateful and not thread-safe; a clone of the initialised prototype skips key setup. */
    private Mac mac() {
        Mac p = prototype;
        if (p == null) {
            p = newMac(key);
            prototype = p;
        }
        try {
            return (Mac) p.clone();
        } catch (CloneNotSupportedException e) {
            return newMac(key);
        }
    }

    private static Mac newMac(SecretKeySpec key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            return mac;
        } catch (GeneralSecurityException e) {
            // Every Java SE platform is required to provide HmacSHA256.
            throw new IllegalStateException(ALGORITHM + " unavailable", e);
        }
    }

    private static void create(Path journalDir, Path secretFile) throws IOException {
        boolean posix = Files.getFileAttributeView(existingAncestor(journalDir), PosixFileAttributeView.class) != null;
        if (!Files.isDirectory(journalDir)) {
            if (posix) {
                Files.createDirectories(journalDir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
            } else {
                Files.createDirectories(journalDir);
            }
        }
        byte[] secret = new byte[SECRET_BYTES];
        new SecureRandom().nextBytes(secret);
        // Written under a temporary name, then linked into place: a concurrent reader never sees a
        // half-written key, and of two racing creators exactly one wins (link fails if the name exists).
        FileAttribute<?>[] attrs = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE)}
                : new FileAttribute<?>[0];
        Path temp = Files.createTempFile(journalDir, SECRET_FILE, ".tmp", attrs);
        try {
            Files.write(temp, secret);
            try {
                Files.createLink(secretFile, temp);
            } catch (FileAlreadyExistsException lostTheRace) {
                // Another process created it first; use theirs.
            } catch (UnsupportedOperationException noHardLinks) {
                try {
                    Files.move(temp, secretFile);
                } catch (FileAlreadyExistsException lostTheRace) {
                    // Another process created it first; use theirs.
                }
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static byte[] read(Path secretFile) throws IOException {
        if (!Files.isRegularFile(secretFile, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("Refusing journal secret " + secretFile + ": not a regular file");
        }
        PosixFileAttributeView view = Files.getFileAttributeView(secretFile, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS);
        if (view != null) {
            Set<PosixFilePermission> permissions = view.readAttributes().permissions();
            Set<PosixFilePermission> extra = EnumSet.noneOf(PosixFilePermission.class);
            extra.addAll(permissions);
            extra.removeAll(OWNER_ONLY_FILE);
            extra.remove(PosixFilePermission.OWNER_EXECUTE);
            if (!extra.isEmpty()) {
                throw new IOException("Refusing journal secret " + secretFile + ": its permissions are "
                        + PosixFilePermissions.toString(permissions) + ", but it must be accessible by its owner only"
                        + " (fix with: chmod 600 " + secretFile + ")");
            }
        }
        byte[] secret = Files.readAllBytes(secretFile);
        if (secret.length != SECRET_BYTES) {
            throw new IOException("Refusing journal secret " + secretFile + ": it holds " + secret.length
                    + " bytes, expected " + SECRET_BYTES + " (a damaged key would silently change every fingerprint)");
        }
        return secret;
    }

    private static Path existingAncestor(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p == null ? dir.toAbsolutePath().getRoot() : p;
    }
}

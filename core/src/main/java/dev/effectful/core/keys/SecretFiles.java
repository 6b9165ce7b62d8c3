package dev.effectful.core.keys;

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
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.Set;

import static dev.effectful.core.keys.Fingerprinter.SECRET_BYTES;
import static dev.effectful.core.keys.Fingerprinter.SECRET_FILE;

/**
 * The fingerprint secret's files in the journal directory: the secret itself, made once and then only read
 * (refused when others may read it or it has the wrong size), and the small id files beside it. Every write
 * goes to a temporary owner-only file first and is moved or linked into place, so no reader sees half of one.
 */
final class SecretFiles {

    private static final Set<PosixFilePermission> OWNER_ONLY_FILE =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE);

    private SecretFiles() {
    }

    /** The fleet's key as this journal's secret: written beside it, owner-only, then moved over it. */
    static void replaceSecret(Path journalDir, byte[] secret) throws IOException {
        replaceOwnerOnly(journalDir, SECRET_FILE, secret);
    }

    /** A small text file of the journal (a secret's id), stripped; null when there is none. */
    static String readSmall(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            return null;
        }
        if (Files.size(file) > 256) {
            throw new IOException(file + " is not an Effectful secret id (too large)");
        }
        return Files.readString(file, StandardCharsets.US_ASCII).strip();
    }

    /** Written under a temporary name, owner-only, then moved into place: a reader never sees half of it. */
    static void writeSmall(Path dir, String name, String text) throws IOException {
        replaceOwnerOnly(dir, name, (text + "\n").getBytes(StandardCharsets.US_ASCII));
    }

    /** {@code bytes} as {@code dir/name}, written beside it under a temporary name, owner-only, then moved over it. */
    private static void replaceOwnerOnly(Path dir, String name, byte[] bytes) throws IOException {
        boolean posix = Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null;
        Path temp = Files.createTempFile(dir, name, ".tmp", ownerOnlyFile(posix));
        try {
            Files.write(temp, bytes);
            Files.move(temp, dir.resolve(name), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    /** A new file's permissions: its owner's alone where the file system has POSIX permissions. */
    private static FileAttribute<?>[] ownerOnlyFile(boolean posix) {
        return posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY_FILE)}
                : new FileAttribute<?>[0];
    }

    /** Makes {@code journalDir} (owner-only) and a new random secret in it, unless another process made one first. */
    static void create(Path journalDir, Path secretFile) throws IOException {
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
        Path temp = Files.createTempFile(journalDir, SECRET_FILE, ".tmp", ownerOnlyFile(posix));
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

    /** The secret, refused unless a regular file of {@link Fingerprinter#SECRET_BYTES} bytes only its owner can read. */
    static byte[] read(Path secretFile) throws IOException {
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

    static Path existingAncestor(Path dir) {
        Path p = dir.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p == null ? dir.toAbsolutePath().getRoot() : p;
    }
}

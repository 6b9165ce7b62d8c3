package dev.effectful.core.journal;

import java.util.Locale;

/**
 * One damaged record found by a reader: where, and whose it is when that is known for sure.
 *
 * @param where    cycle file and byte offset when the reader knows them, else the queue index
 * @param index    the record's queue index, -1 when read outside Chronicle (a raw file scan)
 * @param task     the record's task when {@link #attributed}, else null
 * @param key      the record's intent key when {@link #attributed}, else null
 * @param type     the record's type word when attributed, else null
 * @param crc      CRC32C of the record's bytes as found
 */
public record RecordDamage(String where, long index, boolean attributed, String task, String key, String type,
                           int crc) {

    public static RecordDamage of(String where, long index, DecodedRecord d) {
        boolean a = d.attributed();
        JournalRecord r = d.record();
        return new RecordDamage(where, index, a, a ? r.task() : null, a ? r.intentKey() : null,
                a ? r.type().word() : null, d.crc());
    }

    /**
     * Damage found by reading a cycle file byte by byte (a zeroed or torn header with records after it,
     * or a record in a file a writer moved aside): never acted on, and whose it is is never known.
     */
    public static RecordDamage inFile(String fileName, long offset, int crc) {
        return new RecordDamage(fileName + " byte " + offset, -1, false, null, null, null, crc);
    }

    /** The type word of a record a writer left half written (see {@link #torn()}). */
    static final String TORN = "torn";

    /** A region found by a file scan: {@link #inFile}, or a torn record when {@code bad.torn()}. */
    public static RecordDamage inFile(String fileName, CycleFileScan.Bad bad) {
        return new RecordDamage(fileName + " byte " + bad.offset(), -1, false, null, null, bad.torn() ? TORN : null,
                bad.crc());
    }

    /**
     * True for a record its writer never finished (killed, or its JVM crashed, mid-append), skipped by
     * Chronicle. It was never acted on: an intent whose append did not return never ran its body, and the
     * other records it could be (an outcome, a probe, a resolution) leave their intent without them, which
     * the re-entry rules already treat as a crash (probe, or held for a person). So it holds no call itself.
     */
    public boolean torn() {
        return !attributed && TORN.equals(type);
    }

    /**
     * What names this damage in an acknowledgement: the record's index (or cycle file and offset) and
     * the CRC of its bytes as found, so acknowledging it does not also acknowledge a later, different
     * change to it. A file moved aside keeps its ids: the name is taken up to {@code .cq4}.
     */
    public String id() {
        String crc8 = String.format(Locale.ROOT, "%08x", crc);
        if (index >= 0) {
            return Long.toHexString(index) + ":" + crc8;
        }
        int cut = where.indexOf(".cq4");
        int sp = where.lastIndexOf(" byte ");
        String file = cut < 0 ? where.substring(0, Math.max(0, sp)) : where.substring(0, cut + 4);
        return file + "@" + where.substring(sp + 6) + ":" + crc8;
    }

    /** One line for logs and the CLI. */
    public String describe() {
        if (torn()) {
            return "a record left half written at " + where + " (id " + id() + ") by a writer that stopped mid-append;"
                    + " it was never acted on, and the intents it may belong to are those left without an outcome";
        }
        String whose = attributed
                ? type + " record of task " + (task == null ? "(none)" : dev.effectful.core.log.PrintableText.field(task)) + (key == null ? "" : ", intent " + key)
                : "a record whose task cannot be read";
        return "damaged record at " + where + " (" + (index >= 0 ? "index " + Long.toHexString(index) + ", " : "")
                + "id " + id() + "): " + whose
                + "; its bytes changed since they were written (checksum mismatch)";
    }
}

package dev.effectful.core.journal;

/**
 * Judges each record of one pass in journal order against those before it. A record without a
 * checksum is an older writer's, unless checksummed records came before it: a writer never stops
 * writing checksums, so such a record is one whose {@code crc} field was itself damaged (or a
 * downgraded agent wrote it, which is reported the same way: a person should know either).
 *
 * <p>What this cannot catch: damage that turns the very first checksummed record of a journal into a
 * plausible record without checksum fields (its last 7 bytes changed so as to decode as an older
 * field). Every later record is covered.
 */
public final class ChecksumWatch {

    private boolean seenChecked;

    /** Call in journal order; returns the record as it must be treated. */
    public DecodedRecord judge(DecodedRecord d) {
        if (d.integrity() == DecodedRecord.Integrity.CHECKED) {
            seenChecked = true;
            return d;
        }
        if (d.integrity() == DecodedRecord.Integrity.UNCHECKED && seenChecked) {
            return d.asDamaged();
        }
        return d;
    }

    /** For a pass that starts after records known to be checksummed (the tail after a snapshot). */
    public void assumeChecked() {
        seenChecked = true;
    }
}

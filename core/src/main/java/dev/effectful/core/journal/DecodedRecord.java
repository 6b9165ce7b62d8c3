package dev.effectful.core.journal;

/**
 * A record as read from disk, with how far it can be trusted.
 *
 * <p>Whose record a damaged one is: its task and intent key are taken only when its identity
 * checksum (over type, task, intent key and call, written with the record) matches those fields as
 * decoded. A single CRC over the whole record says that something changed, not what; without the
 * second checksum a damaged task name would read as another, plausible task, and the real task's
 * intent would be lost without a word. With it, a record damaged elsewhere (arguments, outcome,
 * times) is still known to belong to its task ({@link #attributed}), and one whose identity fields
 * changed is known to belong to nobody that can be named.
 *
 * @param record           what decoded; for {@link Integrity#DAMAGED} as far as it went (null when
 *                         not even the type did), never to be acted on
 * @param integrity        checked, unchecked (written before checksums) or damaged
 * @param identityVerified the type, task, intent key and call decoded match the identity checksum
 * @param crc              CRC32C of the record's bytes as found (0 for a checked record): names this
 *                         damage in an acknowledgement, so a further change to the record is new damage
 */
public record DecodedRecord(JournalRecord record, Integrity integrity, boolean identityVerified, int crc) {

    /** How far a record read from disk can be trusted. */
    public enum Integrity {
        /** Its checksum matches: every byte is as written. */
        CHECKED,
        /** Written before records carried checksums: read as before, nothing to check it against. */
        UNCHECKED,
        /** Its bytes changed since they were written (or it does not decode at all). */
        DAMAGED
    }

    /** The record when it may be acted on (checked or unchecked), else null. */
    public JournalRecord trusted() {
        return integrity == Integrity.DAMAGED ? null : record;
    }

    public boolean damaged() {
        return integrity == Integrity.DAMAGED;
    }

    /** A damaged record whose task (or intent key) is known for sure. */
    public boolean attributed() {
        return damaged() && identityVerified && record != null && (record.task() != null || record.intentKey() != null);
    }

    /** The same record, judged damaged by its context (no checksum among checksummed records). */
    public DecodedRecord asDamaged() {
        return new DecodedRecord(record, Integrity.DAMAGED, false, crc);
    }
}

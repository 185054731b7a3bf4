package dev.slipstream.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Verifies the last segment when a journal is opened: walks its records, and at the first one
 * that is not intact decides between a torn tail (a write a crash interrupted, nothing intact
 * after it: cut off and reported) and damage to complete records (refused, unless configured to
 * cut).
 */
final class Recovery {
    final RecoveryReport report;
    final int position;
    final long nextSequence;

    private Recovery(final RecoveryReport report, final int position, final long nextSequence) {
        this.report = report;
        this.position = position;
        this.nextSequence = nextSequence;
    }

    /** Whether a segment holds no record and nothing else. */
    static boolean isEmpty(final Segment segment) {
        return segment.endOfNonZero(segment.dataStart) == segment.dataStart;
    }

    /**
     * Walks the segment's records to the first one that is not intact, and decides what it is.
     * A torn write ({@link Segment#tornReason}) with nothing intact after it is cut off and
     * reported. Anything else (a complete record that fails its check, or a failing record that
     * intact records follow) is damage: refused with a {@link JournalCorruptException} unless
     * {@code truncateAtCorruption}, in which case it is cut off and reported too.
     *
     * @param restoredBytes how many zero bytes were added to the file because it had been cut short
     */
    static Recovery verifyTail(final Segment segment, final boolean truncateAtCorruption, final boolean force,
                               final long restoredBytes) {
        final CRC32C crc = new CRC32C();
        final ByteBuffer view = segment.newView();
        int offset = segment.dataStart;
        long sequence = segment.firstSequence;
        int size;
        while ((size = segment.check(offset, sequence, crc, view)) > 0) {
            offset += size;
            sequence++;
        }
        final String restored = restoredBytes == 0 ? null : "the file was " + restoredBytes + " bytes short of its"
                + " segment size (cut short by hand or by a copy) and was restored with zeros (truncateAtCorruption)";
        final int end = segment.endOfNonZero(offset);
        if (end == offset) {
            return restored == null
                    ? new Recovery(new RecoveryReport(false, segment.file, offset, sequence, 0, "clean"), offset, sequence)
                    : new Recovery(new RecoveryReport(true, segment.file, offset, sequence, 0, restored), offset, sequence);
        }
        String reason = size == Segment.BAD ? segment.describeProblem(offset, sequence)
                : "non-zero bytes after the end of the data (a record whose header was never written)";
        String damage = null;
        for (int q = offset + 8; q < end; q += 8) {
            if (segment.isIntactRecord(q, sequence, crc, view)) {
                damage = "an intact record (sequence " + segment.mapping.getLong(q + 8) + ") follows at offset " + q
                        + ", so complete records were damaged, not a write torn by a crash";
                break;
            }
        }
        final String torn = size == Segment.END ? "torn write: the record header was never written (its payload was)"
                : segment.tornReason(offset);
        if (damage == null && torn == null) {
            damage = "it is the last record and it was complete (its CRC32C is written and every page of it holds"
                    + " data), so it was damaged after it was written, not torn by a crash";
        }
        if (damage != null && !truncateAtCorruption) {
            throw new JournalCorruptException("segment " + segment.file + ": the record at offset " + offset
                    + " (sequence " + sequence + ") is corrupt: " + reason + "; " + damage + ". Nothing was truncated:"
                    + " restore the segment, or open with JournalConfig.truncateAtCorruption(true) to cut the journal"
                    + " at sequence " + sequence + (restored == null ? "" : "; " + restored),
                    segment.file, offset, sequence);
        }
        reason = damage != null ? reason + "; " + damage + "; it and everything after it were cut off too (truncateAtCorruption)"
                : torn + " (" + reason + ")";
        if (restored != null) {
            reason = reason + "; " + restored;
        }
        segment.zero(offset, end);
        clearIndexFrom(segment, sequence);
        if (force) {
            segment.mapping.force();
        }
        return new Recovery(new RecoveryReport(true, segment.file, offset, sequence, end - offset, reason),
                offset, sequence);
    }

    private static void clearIndexFrom(final Segment segment, final long sequence) {
        final long relative = sequence - segment.firstSequence;
        final int interval = segment.indexInterval;
        for (long k = (relative + interval - 1) / interval; k < segment.indexEntries; k++) {
            if (segment.indexEntry((int) k) != 0) {
                segment.putIndexEntry((int) k, 0);
            }
        }
    }
}

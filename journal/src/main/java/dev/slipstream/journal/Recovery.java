package dev.slipstream.journal;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Verifies the last segment when a journal is opened: walks its records, and at the first one
 * that is not intact decides between a torn tail (nothing intact after it: cut off and reported)
 * and damage to complete records (intact records after it: refused, unless configured to cut).
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

    static Recovery verifyTail(final Segment segment, final boolean truncateAtCorruption, final boolean force) {
        final CRC32C crc = new CRC32C();
        final ByteBuffer view = segment.newView();
        int offset = segment.dataStart;
        long sequence = segment.firstSequence;
        int size;
        while ((size = segment.check(offset, sequence, crc, view)) > 0) {
            offset += size;
            sequence++;
        }
        final int end = segment.endOfNonZero(offset);
        if (end == offset) {
            return new Recovery(new RecoveryReport(false, segment.file, offset, sequence, 0, "clean"), offset, sequence);
        }
        String reason = size == Segment.BAD ? segment.describeProblem(offset, sequence)
                : "non-zero bytes after the end of the data (a record whose header was never written)";
        for (int q = offset + 8; q < end; q += 8) {
            if (segment.isIntactRecord(q, sequence, crc, view)) {
                final long found = segment.mapping.getLong(q + 8);
                if (!truncateAtCorruption) {
                    throw new JournalCorruptException("segment " + segment.file + ": the record at offset " + offset
                            + " (sequence " + sequence + ") is corrupt: " + reason + "; an intact record (sequence "
                            + found + ") follows at offset " + q + ", so complete records were damaged, not a write"
                            + " torn by a crash. Nothing was truncated: restore the segment, or open with"
                            + " JournalConfig.truncateAtCorruption(true) to cut the journal at sequence " + sequence,
                            segment.file, offset, sequence);
                }
                reason = reason + "; intact records after it (from sequence " + found + " at offset " + q
                        + ") were cut off too (truncateAtCorruption)";
                break;
            }
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

package dev.slipstream.journal;

import java.nio.file.Path;

/**
 * What opening a journal found at its tail: a clean end, or a torn last record that it cut off
 * (or, with {@link JournalConfig#truncateAtCorruption(boolean)}, a damaged record and what
 * followed it, or the tail of a segment file cut short); {@link #reason()} says which.
 *
 * <pre>{@code
 * RecoveryReport report = journal.recovery();
 * if (report.truncated()) {
 *     log.warn("dropped {} bytes at {}:{} (sequence {}): {}", report.droppedBytes(), report.file(),
 *             report.offset(), report.sequence(), report.reason());
 * }
 * }</pre>
 *
 * @param truncated whether anything was cut off
 * @param file the segment that was cut, or the last segment when nothing was
 * @param offset where the cut was made (the first byte dropped), or the end of the data
 * @param sequence the sequence the dropped record would have had: the journal's next sequence
 * @param droppedBytes how many non-zero bytes were cleared
 * @param reason what was wrong with the dropped record, or "clean"
 */
public record RecoveryReport(boolean truncated, Path file, long offset, long sequence, long droppedBytes,
                             String reason) {
    @Override
    public String toString() {
        return truncated
                ? "cut the journal at " + file + " offset " + offset + " (sequence " + sequence + ", "
                        + droppedBytes + " bytes): " + reason
                : "clean tail at " + file + " offset " + offset + " (next sequence " + sequence + ")";
    }
}

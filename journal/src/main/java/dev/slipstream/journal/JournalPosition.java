package dev.slipstream.journal;

import java.nio.file.Path;

/**
 * Where a record is: its segment file and byte offset, as found by
 * {@link JournalReader#locate(long)}.
 *
 * <pre>{@code
 * JournalPosition at = reader.locate(1_000_000);
 * System.out.println(at.file() + ":" + at.offset());
 * }</pre>
 *
 * @param sequence the record's sequence
 * @param file the segment that holds it
 * @param offset its offset in that file
 */
public record JournalPosition(long sequence, Path file, long offset) {
}

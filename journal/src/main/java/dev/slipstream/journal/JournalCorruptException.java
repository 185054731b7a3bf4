package dev.slipstream.journal;

import java.nio.file.Path;

/**
 * A record that fails its check (length, sequence or CRC32C) where intact records follow it, a
 * complete last record (its CRC32C written) that fails its check, a segment file shorter than its
 * header says, or a segment whose header is damaged: not a torn tail that recovery may cut off,
 * but damage to records that were complete. The journal is left as it is: nothing is truncated.
 *
 * <pre>{@code
 * try (Journal journal = Journal.open(JournalConfig.of(dir))) { ... }
 * catch (JournalCorruptException e) {
 *     // restore the segment e.file() from a replica, or accept the loss explicitly:
 *     // JournalConfig.of(dir).truncateAtCorruption(true)
 * }
 * }</pre>
 */
public class JournalCorruptException extends JournalException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was found and what was expected
     * @param file the damaged file
     * @param offset the byte offset of the damaged record or header field
     * @param sequence the sequence the record there should have, or -1
     */
    public JournalCorruptException(final String message, final Path file, final long offset, final long sequence) {
        super(message, file, offset, sequence, null);
    }
}

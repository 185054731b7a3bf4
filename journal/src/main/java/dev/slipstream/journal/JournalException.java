package dev.slipstream.journal;

import java.nio.file.Path;

/**
 * A journal could not be opened, written or read. The message says what was wrong and what was
 * expected; {@link #file()}, {@link #offset()} and {@link #sequence()} say where, when known.
 * Nothing that was durable before the exception is lost by it.
 *
 * <pre>{@code
 * try (Journal journal = Journal.open(JournalConfig.of(dir))) {
 *     ...
 * } catch (JournalException e) {
 *     log.error("journal {} at offset {} (sequence {})", e.file(), e.offset(), e.sequence(), e);
 * }
 * }</pre>
 */
public class JournalException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The file concerned, as text (a {@link Path} is not serializable). */
    private final String file;
    /** The byte offset in the file, or -1. */
    private final long offset;
    /** The journal sequence concerned, or -1. */
    private final long sequence;

    /**
     * Creates the exception.
     *
     * @param message what was wrong and what was expected
     * @param file the file concerned, or null
     * @param offset the byte offset in {@code file}, or -1
     * @param sequence the journal sequence concerned, or -1
     * @param cause the underlying failure, or null
     */
    public JournalException(final String message, final Path file, final long offset, final long sequence,
                            final Throwable cause) {
        super(message, cause);
        this.file = file == null ? null : file.toString();
        this.offset = offset;
        this.sequence = sequence;
    }

    /**
     * The file concerned.
     *
     * @return the file, or null if the problem is not about one file
     */
    public Path file() {
        return file == null ? null : Path.of(file);
    }

    /**
     * The byte offset in {@link #file()}.
     *
     * @return the offset, or -1 if none
     */
    public long offset() {
        return offset;
    }

    /**
     * The journal sequence concerned.
     *
     * @return the sequence, or -1 if none
     */
    public long sequence() {
        return sequence;
    }
}

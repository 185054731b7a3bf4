package dev.slipstream.sequence;

/**
 * Thrown to a producer that claims or waits for space after the sequencer was closed, for
 * example because its pipeline was shut down or stopped by a fatal exception. Events published
 * before the close are not affected.
 *
 * <pre>{@code
 * try {
 *     ringBuffer.publishEvent(translator);
 * } catch (SequencerClosedException closed) {
 *     log.warn("pipeline stopped: " + closed.getMessage());
 * }
 * }</pre>
 */
public final class SequencerClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message why the sequencer is closed
     */
    public SequencerClosedException(final String message) {
        super(message);
    }
}

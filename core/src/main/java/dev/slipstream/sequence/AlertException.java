package dev.slipstream.sequence;

/**
 * Thrown by a {@link SequenceBarrier} that has been alerted: the waiting consumer should stop.
 *
 * <p>A singleton without a stack trace: it is control flow, thrown on shutdown, and must not
 * allocate.
 *
 * <pre>{@code
 * try {
 *     available = barrier.waitFor(next);
 * } catch (AlertException e) {
 *     return; // the processor was halted
 * }
 * }</pre>
 */
public final class AlertException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final AlertException INSTANCE = new AlertException();

    private AlertException() {
        super("sequence barrier alerted", null, false, false);
    }
}

package dev.slipstream.sequence;

/**
 * Thrown by {@code tryNext} when the ring has no room for the claim. A singleton without a
 * stack trace: a full ring is an expected condition, and reporting it allocates nothing.
 *
 * <pre>{@code
 * try {
 *     long seq = ringBuffer.tryNext();
 *     ...
 * } catch (InsufficientCapacityException full) {
 *     dropOrRetryLater();
 * }
 * }</pre>
 */
public final class InsufficientCapacityException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final InsufficientCapacityException INSTANCE = new InsufficientCapacityException();

    private InsufficientCapacityException() {
        super("ring buffer is full", null, false, false);
    }
}

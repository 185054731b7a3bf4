package dev.slipstream.sequence;

/**
 * Thrown by a timing-out {@link WaitStrategy} when nothing became available in time; a batch
 * event processor turns it into {@code EventHandler.onTimeout}.
 *
 * <p>A singleton without a stack trace, so that a timeout allocates nothing.
 *
 * <pre>{@code
 * try {
 *     available = barrier.waitFor(next);
 * } catch (TimeoutException e) {
 *     flushPendingWork();
 * }
 * }</pre>
 */
public final class TimeoutException extends Exception {
    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final TimeoutException INSTANCE = new TimeoutException();

    private TimeoutException() {
        super("wait strategy timed out", null, false, false);
    }
}

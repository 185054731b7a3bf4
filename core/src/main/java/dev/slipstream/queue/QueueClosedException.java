package dev.slipstream.queue;

/**
 * Thrown by {@code take()} of a closable blocking queue ({@link LprqBlockingQueue},
 * {@link LscqBlockingQueue}) once the queue is closed and every element it accepted has been
 * taken: nothing will ever come, so the consumer is released instead of waiting forever. A consumer
 * that is waiting in {@code take()} when the queue is closed gets the elements still left first,
 * then this exception. A timed {@code poll} returns null in the same state instead.
 *
 * <pre>{@code
 * try {
 *     while (true) {
 *         handle(inbox.take());
 *     }
 * } catch (QueueClosedException closed) {
 *     // inbox.close() was called and every request accepted before it was handled
 * }
 * }</pre>
 */
public final class QueueClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was called on the closed, empty queue
     */
    public QueueClosedException(final String message) {
        super(message);
    }
}

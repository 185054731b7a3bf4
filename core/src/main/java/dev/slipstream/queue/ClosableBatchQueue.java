package dev.slipstream.queue;

/**
 * An unbounded {@link BatchQueue} that can be closed to producers: what {@link LscqQueue} and
 * {@link LprqQueue} both offer, and what {@link UnboundedBlockingQueue} needs of the queue it
 * wraps.
 *
 * @param <E> the element type; null elements are rejected
 */
interface ClosableBatchQueue<E> extends BatchQueue<E> {
    /**
     * Closes the queue to producers: offers that start after this call returns fail; every
     * element already accepted can still be polled. Idempotent.
     */
    void close();

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    boolean isClosed();

    /**
     * Whether the queue is closed and every element it accepted has been taken.
     *
     * @return true if closed and drained for good; always false while open
     */
    boolean isDrained();
}

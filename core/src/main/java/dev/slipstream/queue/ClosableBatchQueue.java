package dev.slipstream.queue;

import java.util.Objects;
import java.util.function.Supplier;

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

    /**
     * {@link BatchQueue#fill} of an unbounded closable queue: offers until {@code limit} elements
     * are in or the queue is closed.
     *
     * @param queue the queue to fill
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @param <E> the element type
     * @return how many were inserted
     */
    static <E> int fillUntilClosed(final ClosableBatchQueue<E> queue, final Supplier<? extends E> supplier,
                                   final int limit) {
        Objects.requireNonNull(supplier, "supplier must not be null");
        ScqQueue.checkLimit(limit);
        int n = 0;
        while (n < limit && !queue.isClosed()) {
            final E e = supplier.get();
            if (e == null) {
                throw new NullPointerException("supplier returned null; queues do not hold null elements");
            }
            if (!queue.offer(e)) {
                break; // closed meanwhile: the element supplied last is not in the queue
            }
            n++;
        }
        return n;
    }

    /**
     * {@link java.util.Queue#add} of an unbounded closable queue: an offer refused only because
     * the queue is closed.
     *
     * @param queue the queue
     * @param e the element
     * @param <E> the element type
     * @return true
     * @throws IllegalStateException if the queue is closed
     */
    static <E> boolean addUnlessClosed(final ClosableBatchQueue<E> queue, final E e) {
        if (queue.offer(e)) {
            return true;
        }
        throw new IllegalStateException("queue is closed: add(" + e + ") was refused");
    }
}

package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * What {@link LprqBlockingQueue} and {@link LscqBlockingQueue} share: an unbounded queue that
 * can be closed inside, producers that never wait, every successful offer signalling the takers,
 * and a close that releases every waiting taker. The subclasses choose the queue and name its
 * capacity.
 *
 * @param <E> the element type; null elements are rejected
 */
abstract class UnboundedBlockingQueue<E> extends SignalledBlockingQueue<E> {
    /** The queue inside; the subclass names its capacity. */
    final ClosableBatchQueue<E> unbounded;

    UnboundedBlockingQueue(final ClosableBatchQueue<E> unbounded, final WaitStrategy waitStrategy) {
        super(unbounded, waitStrategy);
        this.unbounded = unbounded;
    }

    /**
     * Inserts an element; never waits.
     *
     * @param e the element
     * @return true, unless the queue has been {@linkplain #close() closed}
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public final boolean offer(final E e) {
        if (unbounded.offer(e)) {
            notEmpty.signal();
            return true;
        }
        return false;
    }

    /**
     * Inserts an element; never waits (the queue is unbounded).
     *
     * @param e the element
     * @throws NullPointerException if {@code e} is null
     * @throws IllegalStateException if the queue has been {@linkplain #close() closed}
     */
    @Override
    public final void put(final E e) {
        if (!offer(e)) {
            throw new IllegalStateException("queue is closed: put(" + e + ") was refused");
        }
    }

    /**
     * Inserts an element, or throws if the queue is closed.
     *
     * @param e the element
     * @return true
     * @throws NullPointerException if {@code e} is null
     * @throws IllegalStateException if the queue has been {@linkplain #close() closed}
     */
    @Override
    public final boolean add(final E e) {
        if (!offer(e)) {
            throw new IllegalStateException("queue is closed: add(" + e + ") was refused");
        }
        return true;
    }

    /**
     * Closes the queue to producers and releases every waiting consumer: offers that start after
     * this call returns fail ({@code offer} returns false, {@code put} and {@code add} throw
     * {@link IllegalStateException}); every element already accepted can still be taken.
     * Consumers waiting in {@link #take()} or {@link #poll(long, TimeUnit)}, and those that come
     * later, take what is left; once the queue is closed and drained, {@code take()} throws
     * {@link QueueClosedException} and a timed {@code poll} returns null at once. Idempotent, and
     * safe to call from several threads.
     *
     * <pre>{@code
     * // consumer thread
     * try {
     *     while (true) handle(inbox.take());
     * } catch (QueueClosedException closed) {
     *     // every request accepted before close() was handled
     * }
     *
     * // at shutdown
     * inbox.close();
     * }</pre>
     */
    public final void close() {
        unbounded.close();
        // after the close (a volatile store first): a taker that registered before this call's
        // load of the waiter count is signalled; one that registers later sees the close
        notEmpty.signal();
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    public final boolean isClosed() {
        return unbounded.isClosed();
    }

    /**
     * Whether the queue is closed and every element it accepted has been taken: an offer still
     * in progress when the queue closed may yet complete, and until it has (or has failed) this
     * returns false.
     *
     * @return true if closed and drained for good; always false while open
     */
    public final boolean isDrained() {
        return unbounded.isDrained();
    }

    @Override
    final boolean isClosedToProducers() {
        return unbounded.isClosed();
    }

    @Override
    final boolean isClosedAndDrained() {
        return unbounded.isDrained();
    }

    /**
     * Inserts an element; never waits (the queue is unbounded), so the timeout is not used.
     *
     * @param e the element
     * @param timeout not used
     * @param unit not used, but must not be null
     * @return true, unless the queue has been {@linkplain #close() closed}
     * @throws NullPointerException if {@code e} or {@code unit} is null
     */
    @Override
    public final boolean offer(final E e, final long timeout, final TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        return offer(e);
    }

    /**
     * Removes the oldest element, never waiting.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    public final E poll() {
        return unbounded.poll();
    }

    /**
     * Unbounded.
     *
     * @return {@link Integer#MAX_VALUE}
     */
    @Override
    public final int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, in FIFO
     * order; a consumer that throws loses only the element it was given.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public final int drain(final Consumer<? super E> consumer, final int limit) {
        return unbounded.drain(consumer, limit);
    }

    /**
     * Inserts {@code limit} elements from {@code supplier} (fewer once the queue is closed), then
     * wakes waiting takers once.
     *
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @return how many were inserted
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public final int fill(final Supplier<? extends E> supplier, final int limit) {
        try {
            return unbounded.fill(supplier, limit);
        } finally {
            notEmpty.signal();
        }
    }
}

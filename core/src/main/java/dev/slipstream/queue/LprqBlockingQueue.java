package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An unbounded, lock-free {@link BlockingQueue}: an {@link LprqQueue} (the unbounded queue to use
 * by default) whose {@link #take()} waits with a {@link WaitStrategy} (a
 * {@link HybridWaitStrategy} unless another is given) instead of taking a lock per operation.
 * Producers never wait: {@link #put} and the timed {@link #offer(Object, long, TimeUnit)} insert
 * at once, like {@link #offer(Object)}.
 *
 * <p>An offer costs what it costs on {@code LprqQueue} plus one volatile load of the count of
 * waiting takers, a cache line only takers write; only when a taker waits does the offer also
 * increment a padded event counter and call the strategy's {@code signalAllWhenBlocking()}. A
 * taker registers, re-checks the queue, then waits with the strategy for the counter to move.
 * {@link #poll(long, TimeUnit)} cannot park inside a strategy (which has no deadline): it spins,
 * yields, then sleeps in slices of at most 100 µs. Prefer {@code take} for threads that idle for
 * long.
 *
 * <pre>{@code
 * BlockingQueue<Request> inbox = new LprqBlockingQueue<>();
 * inbox.put(request);                             // never waits
 * Request next = inbox.take();                    // waits while empty
 * }</pre>
 *
 * <p>The limits of {@link LprqQueue} apply: the memory per ring given there, a weakly
 * consistent {@link #iterator()}, and no removal from the middle ({@code remove(Object)},
 * {@code removeAll}, {@code retainAll}, {@code removeIf} and {@code Iterator.remove} throw
 * {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LprqBlockingQueue<E> extends SignalledBlockingQueue<E> {
    private final LprqQueue<E> unbounded;

    /**
     * Creates a queue with {@link LprqQueue#DEFAULT_RING_CAPACITY} elements per ring that
     * waits with a {@link HybridWaitStrategy}.
     */
    public LprqBlockingQueue() {
        this(LprqQueue.DEFAULT_RING_CAPACITY, new HybridWaitStrategy());
    }

    /**
     * Creates a queue.
     *
     * @param ringCapacity elements per ring, a power of two from 1 to
     *     {@link LprqQueue#MAX_RING_CAPACITY}
     * @param waitStrategy how takers wait
     * @throws IllegalArgumentException if {@code ringCapacity} is not such a power of two
     * @throws NullPointerException if {@code waitStrategy} is null
     */
    public LprqBlockingQueue(final int ringCapacity, final WaitStrategy waitStrategy) {
        this(new LprqQueue<>(ringCapacity), waitStrategy);
    }

    private LprqBlockingQueue(final LprqQueue<E> unbounded, final WaitStrategy waitStrategy) {
        super(unbounded, waitStrategy);
        this.unbounded = unbounded;
    }

    /** For tests: every ring's counters start at {@code start}, 0 to 2^62. */
    LprqBlockingQueue(final int ringCapacity, final WaitStrategy waitStrategy, final long start) {
        this(new LprqQueue<>(ringCapacity, true, start), waitStrategy);
    }

    /**
     * Inserts an element; never waits.
     *
     * @param e the element
     * @return true, unless the queue has been {@linkplain #close() closed}
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public boolean offer(final E e) {
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
    public void put(final E e) {
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
    public boolean add(final E e) {
        if (!offer(e)) {
            throw new IllegalStateException("queue is closed: add(" + e + ") was refused");
        }
        return true;
    }

    /**
     * Closes the queue to producers, as {@link LprqQueue#close()}: offers that start after this
     * call returns fail ({@code offer} returns false, {@code put} and {@code add} throw
     * {@link IllegalStateException}); every element already accepted can still be taken.
     * Idempotent. A {@link #take()} on a closed, empty queue still waits (nothing will come): a
     * consumer of a closed queue ends on {@link #isDrained()}, or polls with a timeout.
     *
     * <pre>{@code
     * inbox.close();
     * while (!inbox.isDrained()) {
     *     Request r = inbox.poll(1, TimeUnit.MILLISECONDS);
     *     if (r != null) handle(r);
     * }
     * }</pre>
     */
    public void close() {
        unbounded.close();
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return unbounded.isClosed();
    }

    /**
     * Whether the queue is closed and every element it accepted has been taken (see
     * {@link LprqQueue#isDrained()}).
     *
     * @return true if closed and drained for good; always false while open
     */
    public boolean isDrained() {
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
    public boolean offer(final E e, final long timeout, final TimeUnit unit) {
        Objects.requireNonNull(unit, "unit must not be null");
        return offer(e);
    }

    /**
     * Removes the oldest element, never waiting.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    public E poll() {
        return unbounded.poll();
    }

    /**
     * Unbounded.
     *
     * @return {@link Integer#MAX_VALUE}
     */
    @Override
    public int remainingCapacity() {
        return Integer.MAX_VALUE;
    }

    /**
     * Elements per ring.
     *
     * @return a power of two
     */
    public int ringCapacity() {
        return unbounded.ringCapacity();
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, as
     * {@link LprqQueue#drain}.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int drain(final Consumer<? super E> consumer, final int limit) {
        return unbounded.drain(consumer, limit);
    }

    /**
     * Inserts {@code limit} elements from {@code supplier}, as {@link LprqQueue#fill}, then
     * wakes waiting takers once.
     *
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @return how many were inserted
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        try {
            return unbounded.fill(supplier, limit);
        } finally {
            notEmpty.signal();
        }
    }
}

package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.AbstractQueue;
import java.util.Collection;
import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * An unbounded, lock-free {@link BlockingQueue}: an {@link LscqQueue} whose {@link #take()}
 * waits with a {@link WaitStrategy} (a {@link HybridWaitStrategy} unless another is given)
 * instead of taking a lock per operation. Producers never wait: {@link #put} and the timed
 * {@link #offer(Object, long, TimeUnit)} insert at once, like {@link #offer(Object)}.
 *
 * <p>An offer costs what it costs on {@code LscqQueue} plus one volatile load of the count of
 * waiting takers, a cache line only takers write; only when a taker waits does the offer also
 * increment a padded event counter and call the strategy's {@code signalAllWhenBlocking()}. A
 * taker registers, re-checks the queue, then waits with the strategy for the counter to move.
 * {@link #poll(long, TimeUnit)} cannot park inside a strategy (which has no deadline): it spins,
 * yields, then sleeps in slices of at most 100 µs. Prefer {@code take} for threads that idle for
 * long.
 *
 * <pre>{@code
 * BlockingQueue<Request> inbox = new LscqBlockingQueue<>();
 * inbox.put(request);                             // never waits
 * Request next = inbox.take();                    // waits while empty
 * }</pre>
 *
 * <p>The limits of {@link LscqQueue} apply: at most {@code max(segmentCapacity, 64)} threads at
 * once, about {@code 36 * segmentCapacity} bytes per segment, no iteration
 * ({@link #iterator()}, {@code contains}, {@code remove(Object)} throw
 * {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LscqBlockingQueue<E> extends AbstractQueue<E> implements BlockingQueue<E>, BatchQueue<E> {
    private final LscqQueue<E> queue;
    private final QueueSignal notEmpty;

    /**
     * Creates a queue with {@link LscqQueue#DEFAULT_SEGMENT_CAPACITY} elements per segment that
     * waits with a {@link HybridWaitStrategy}.
     */
    public LscqBlockingQueue() {
        this(LscqQueue.DEFAULT_SEGMENT_CAPACITY, new HybridWaitStrategy());
    }

    /**
     * Creates a queue.
     *
     * @param segmentCapacity elements per segment, a power of two from 1 to
     *     {@link ScqQueue#MAX_CAPACITY}
     * @param waitStrategy how takers wait
     * @throws IllegalArgumentException if {@code segmentCapacity} is not such a power of two
     * @throws NullPointerException if {@code waitStrategy} is null
     */
    public LscqBlockingQueue(final int segmentCapacity, final WaitStrategy waitStrategy) {
        this.notEmpty = new QueueSignal(waitStrategy);
        this.queue = new LscqQueue<>(segmentCapacity);
    }

    /**
     * Inserts an element; never waits.
     *
     * @param e the element
     * @return true
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public boolean offer(final E e) {
        if (queue.offer(e)) {
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
     */
    @Override
    public void put(final E e) {
        offer(e);
    }

    /**
     * Inserts an element; never waits (the queue is unbounded), so the timeout is not used.
     *
     * @param e the element
     * @param timeout not used
     * @param unit not used, but must not be null
     * @return true
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
        return queue.poll();
    }

    /**
     * Removes the oldest element, waiting for one.
     *
     * @return the element
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public E take() throws InterruptedException {
        E e = queue.poll();
        if (e != null) {
            return e;
        }
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = queue.poll()) != null) {
                    return e;
                }
                notEmpty.await(seen);
            }
        } finally {
            notEmpty.deregister();
        }
    }

    /**
     * Removes the oldest element, waiting up to the timeout for one.
     *
     * @param timeout how long to wait; zero or less does not wait
     * @param unit the unit of {@code timeout}
     * @return the element, or null if the timeout passed with the queue still empty
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code unit} is null
     */
    @Override
    public E poll(final long timeout, final TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit must not be null");
        E e = queue.poll();
        if (e != null) {
            return e;
        }
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = queue.poll()) != null) {
                    return e;
                }
                if (!notEmpty.awaitUntil(seen, deadline)) {
                    return queue.poll();
                }
            }
        } finally {
            notEmpty.deregister();
        }
    }

    /**
     * Weakly consistent look at the oldest element, as {@link LscqQueue#peek()}.
     *
     * @return the element, or null
     */
    @Override
    public E peek() {
        return queue.peek();
    }

    /**
     * The number of elements, summed over the segments: an estimate while other threads operate.
     *
     * @return the count
     */
    @Override
    public int size() {
        return queue.size();
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if empty
     */
    @Override
    public boolean isEmpty() {
        return queue.isEmpty();
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
     * Elements per segment.
     *
     * @return a power of two
     */
    public int segmentCapacity() {
        return queue.segmentCapacity();
    }

    /**
     * The strategy takers wait with.
     *
     * @return the wait strategy
     */
    public WaitStrategy waitStrategy() {
        return notEmpty.strategy();
    }

    /**
     * Removes every element and adds it to {@code c}.
     *
     * @param c where the elements go
     * @return how many were moved
     * @throws NullPointerException if {@code c} is null
     * @throws IllegalArgumentException if {@code c} is this queue
     */
    @Override
    public int drainTo(final Collection<? super E> c) {
        return drainTo(c, Integer.MAX_VALUE);
    }

    /**
     * Removes up to {@code maxElements} elements and adds them to {@code c}, oldest first.
     *
     * @param c where the elements go
     * @param maxElements the most to move; zero or less moves none
     * @return how many were moved
     * @throws NullPointerException if {@code c} is null
     * @throws IllegalArgumentException if {@code c} is this queue
     */
    @Override
    public int drainTo(final Collection<? super E> c, final int maxElements) {
        ScqBlockingQueue.checkDrainTarget(c, this);
        return maxElements <= 0 ? 0 : queue.drain(c::add, maxElements);
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, as
     * {@link LscqQueue#drain}.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int drain(final Consumer<? super E> consumer, final int limit) {
        return queue.drain(consumer, limit);
    }

    /**
     * Inserts {@code limit} elements from {@code supplier}, as {@link LscqQueue#fill}, then
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
            return queue.fill(supplier, limit);
        } finally {
            notEmpty.signal();
        }
    }

    /** Removes every element, by polling until the queue is empty. */
    @Override
    public void clear() {
        queue.clear();
    }

    /**
     * Not supported: the rings cannot be walked without taking the elements out.
     *
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public Iterator<E> iterator() {
        throw ScqQueue.unsupported("iterator()");
    }

    /**
     * Not supported: the rings cannot be searched without taking the elements out.
     *
     * @param o ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public boolean contains(final Object o) {
        throw ScqQueue.unsupported("contains(Object)");
    }

    /**
     * Not supported: an element in the middle cannot be removed from a ring of indices.
     *
     * @param o ignored
     * @return never
     * @throws UnsupportedOperationException always
     */
    @Override
    public boolean remove(final Object o) {
        throw ScqQueue.unsupported("remove(Object)");
    }

    /**
     * A description of the queue (not its contents).
     *
     * @return segment capacity and estimated size
     */
    @Override
    public String toString() {
        return "LscqBlockingQueue[segmentCapacity=" + segmentCapacity() + ", size~" + size() + "]";
    }

    /** The not-empty signal, for tests. */
    QueueSignal notEmptySignal() {
        return notEmpty;
    }
}

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
 * A bounded, lock-free {@link BlockingQueue}: an {@link ScqQueue} whose {@link #take()} and
 * {@link #put} wait with a {@link WaitStrategy} (a {@link HybridWaitStrategy} unless another is
 * given) instead of taking a lock per operation.
 *
 * <p>Non-blocking operations cost what they cost on {@code ScqQueue}, plus one volatile load of a
 * counter of waiting threads that only waiters write: an offer reads the takers' count, a poll
 * the putters' count. Only when someone waits does the operation also increment a padded event
 * counter and call the strategy's {@code signalAllWhenBlocking()}. Waiters register, re-check
 * the queue, then wait with the strategy for the counter to move (spin, yield, then park, with
 * the hybrid strategy). Timed waits ({@link #poll(long, TimeUnit)},
 * {@link #offer(Object, long, TimeUnit)}) cannot park inside a strategy, which has no deadline:
 * they spin, yield, then sleep in slices of at most 100 µs, so they notice a change within about
 * that much. Prefer {@code take}/{@code put} for threads that idle for long.
 *
 * <pre>{@code
 * BlockingQueue<Job> jobs = new ScqBlockingQueue<>(1024);
 * jobs.put(job);                                  // waits while full
 * Job next = jobs.take();                         // waits while empty
 * Job maybe = jobs.poll(10, TimeUnit.MILLISECONDS);
 * }</pre>
 *
 * <p>The limits of {@link ScqQueue} apply: at most {@code max(capacity, 64)} threads at once, a
 * spurious "full" when several threads offer and poll at once ({@code put} then simply waits for
 * the next poll), and no iteration ({@link #iterator()}, {@code contains}, {@code remove(Object)}
 * throw {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class ScqBlockingQueue<E> extends AbstractQueue<E> implements BlockingQueue<E>, BatchQueue<E> {
    private final ScqQueue<E> queue;
    private final QueueSignal notEmpty;
    private final QueueSignal notFull;

    /**
     * Creates a queue that waits with a {@link HybridWaitStrategy}.
     *
     * @param capacity a power of two from 1 to {@link ScqQueue#MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public ScqBlockingQueue(final int capacity) {
        this(capacity, new HybridWaitStrategy());
    }

    /**
     * Creates a queue.
     *
     * @param capacity a power of two from 1 to {@link ScqQueue#MAX_CAPACITY}
     * @param waitStrategy how takers and putters wait; one instance serves both
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     * @throws NullPointerException if {@code waitStrategy} is null
     */
    public ScqBlockingQueue(final int capacity, final WaitStrategy waitStrategy) {
        this.notEmpty = new QueueSignal(waitStrategy);
        this.notFull = new QueueSignal(waitStrategy);
        this.queue = new ScqQueue<>(capacity);
    }

    /**
     * Inserts an element if there is room, never waiting.
     *
     * @param e the element
     * @return false if the queue was full
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
     * Inserts an element, waiting for room.
     *
     * @param e the element
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public void put(final E e) throws InterruptedException {
        if (offer(e)) {
            return;
        }
        notFull.register();
        try {
            while (true) {
                final long seen = notFull.seen();
                if (offer(e)) {
                    return;
                }
                notFull.await(seen);
            }
        } finally {
            notFull.deregister();
        }
    }

    /**
     * Inserts an element, waiting up to the timeout for room.
     *
     * @param e the element
     * @param timeout how long to wait; zero or less does not wait
     * @param unit the unit of {@code timeout}
     * @return false if the timeout passed with the queue still full
     * @throws InterruptedException if interrupted while waiting
     * @throws NullPointerException if {@code e} or {@code unit} is null
     */
    @Override
    public boolean offer(final E e, final long timeout, final TimeUnit unit) throws InterruptedException {
        Objects.requireNonNull(unit, "unit must not be null");
        if (offer(e)) {
            return true;
        }
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        notFull.register();
        try {
            while (true) {
                final long seen = notFull.seen();
                if (offer(e)) {
                    return true;
                }
                if (!notFull.awaitUntil(seen, deadline)) {
                    return offer(e);
                }
            }
        } finally {
            notFull.deregister();
        }
    }

    /**
     * Removes the oldest element, never waiting.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    public E poll() {
        final E e = queue.poll();
        if (e != null) {
            notFull.signal();
        }
        return e;
    }

    /**
     * Removes the oldest element, waiting for one.
     *
     * @return the element
     * @throws InterruptedException if interrupted while waiting
     */
    @Override
    public E take() throws InterruptedException {
        E e = poll();
        if (e != null) {
            return e;
        }
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = poll()) != null) {
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
        E e = poll();
        if (e != null) {
            return e;
        }
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        notEmpty.register();
        try {
            while (true) {
                final long seen = notEmpty.seen();
                if ((e = poll()) != null) {
                    return e;
                }
                if (!notEmpty.awaitUntil(seen, deadline)) {
                    return poll();
                }
            }
        } finally {
            notEmpty.deregister();
        }
    }

    /**
     * Weakly consistent look at the oldest element, as {@link ScqQueue#peek()}.
     *
     * @return the element, or null
     */
    @Override
    public E peek() {
        return queue.peek();
    }

    /**
     * The number of elements: exact when no other thread operates, an estimate otherwise.
     *
     * @return from 0 to the capacity
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
     * Room left: the capacity minus the estimated size.
     *
     * @return from 0 to the capacity
     */
    @Override
    public int remainingCapacity() {
        return queue.capacity() - queue.size();
    }

    /**
     * The fixed capacity.
     *
     * @return a power of two
     */
    public int capacity() {
        return queue.capacity();
    }

    /**
     * The strategy takers and putters wait with.
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
        checkDrainTarget(c, this);
        return maxElements <= 0 ? 0 : drain(c::add, maxElements);
    }

    static void checkDrainTarget(final Collection<?> c, final Object self) {
        Objects.requireNonNull(c, "collection must not be null");
        if (c == self) {
            throw new IllegalArgumentException("cannot drain a queue into itself");
        }
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, as
     * {@link ScqQueue#drain}, then wakes waiting putters once.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int drain(final Consumer<? super E> consumer, final int limit) {
        try {
            return queue.drain(consumer, limit);
        } finally {
            // also when the consumer threw: the slots freed before it are free for putters
            notFull.signal();
        }
    }

    /**
     * Inserts up to {@code limit} elements from {@code supplier}, as {@link ScqQueue#fill};
     * then wakes waiting takers once.
     *
     * @param supplier produces the elements; must not return null
     * @param limit the most to insert, {@code >= 0}
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
        while (poll() != null) {
            // keep polling; each poll signals putters
        }
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
     * @return capacity and estimated size
     */
    @Override
    public String toString() {
        return "ScqBlockingQueue[capacity=" + capacity() + ", size~" + size() + "]";
    }

    /** The not-empty signal, for tests. */
    QueueSignal notEmptySignal() {
        return notEmpty;
    }

    /** The not-full signal, for tests. */
    QueueSignal notFullSignal() {
        return notFull;
    }
}

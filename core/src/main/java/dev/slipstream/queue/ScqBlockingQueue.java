package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
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
 * <p>An offer or poll adds one volatile load (of the waiters' count, a line only waiters write)
 * to {@code ScqQueue}'s cost, and signals only while someone waits. Timed waits
 * ({@link #poll(long, TimeUnit)}, {@link #offer(Object, long, TimeUnit)}) have no strategy to park
 * in: they spin, yield, then sleep 100 µs slices; prefer {@code take}/{@code put}.
 *
 * <pre>{@code
 * BlockingQueue<Job> jobs = new ScqBlockingQueue<>(1024);
 * jobs.put(job);                                  // waits while full
 * Job next = jobs.take();                         // waits while empty
 * Job maybe = jobs.poll(10, TimeUnit.MILLISECONDS);
 * }</pre>
 *
 * <p>The limits of {@link ScqQueue} apply (threads, a spurious "full" that {@code put} simply
 * waits out, weakly consistent {@link #iterator()}, no removal from the middle: it throws
 * {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class ScqBlockingQueue<E> extends SignalledBlockingQueue<E> {
    private final ScqQueue<E> bounded;
    /** Putters wait on it; every successful poll signals it. */
    final QueueSignal notFull;

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
        this(new ScqQueue<>(capacity), waitStrategy);
    }

    private ScqBlockingQueue(final ScqQueue<E> bounded, final WaitStrategy waitStrategy) {
        super(bounded, waitStrategy);
        this.notFull = new QueueSignal(waitStrategy);
        this.bounded = bounded;
    }

    /** For tests: a queue whose ring counters start at {@code start}, anywhere in 64 bits. */
    ScqBlockingQueue(final int capacity, final WaitStrategy waitStrategy, final long start) {
        this(new ScqQueue<>(capacity, true, start), waitStrategy);
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
        if (bounded.offer(e)) {
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
     * Inserts an element, waiting up to the timeout for room. A timeout of zero or less
     * (however large its magnitude) tries once and returns; a huge one waits as long as
     * {@link TimeUnit#toNanos} allows (about 292 years), without overflowing.
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
        // saturates at Long.MIN_VALUE / Long.MAX_VALUE instead of overflowing
        final long nanos = unit.toNanos(timeout);
        if (nanos <= 0) {
            // no wait: one more try, as ArrayBlockingQueue makes (and, like it, an interrupt
            // pending on entry is reported)
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            return offer(e);
        }
        final long start = System.nanoTime();
        notFull.register();
        try {
            while (true) {
                final long seen = notFull.seen();
                if (offer(e)) {
                    return true;
                }
                if (!notFull.awaitNanos(seen, start, nanos)) {
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
        final E e = bounded.poll();
        if (e != null) {
            notFull.signal();
        }
        return e;
    }

    /**
     * Room left: the capacity minus the {@linkplain #size() size}; exact when no other thread
     * operates.
     *
     * @return from 0 to the capacity
     */
    @Override
    public int remainingCapacity() {
        return bounded.capacity() - bounded.size();
    }

    /**
     * The fixed capacity.
     *
     * @return a power of two
     */
    public int capacity() {
        return bounded.capacity();
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
            return bounded.drain(consumer, limit);
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
            return bounded.fill(supplier, limit);
        } finally {
            notEmpty.signal();
        }
    }
}

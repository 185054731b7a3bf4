package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An unbounded, lock-free {@link BlockingQueue}: an {@link LprqQueue} (the unbounded queue to use
 * by default) whose {@link #take()} waits with a {@link WaitStrategy} (a
 * {@link HybridWaitStrategy} unless another is given) instead of taking a lock per operation.
 * Producers never wait: {@link #put} and the timed {@link #offer(Object, long, TimeUnit)} insert
 * at once, like {@link #offer(Object)}.
 *
 * <p>An offer adds one volatile load (of the waiting takers' count, a line only takers write) to
 * {@code LprqQueue}'s cost, and signals only while a taker waits. {@link #poll(long, TimeUnit)}
 * has no strategy to park in: it spins, yields, then sleeps 100 µs slices; prefer {@code take}.
 *
 * <pre>{@code
 * BlockingQueue<Request> inbox = new LprqBlockingQueue<>();
 * inbox.put(request);                             // never waits
 * Request next = inbox.take();                    // waits while empty
 * }</pre>
 *
 * <p>{@link #close()} closes the queue to producers and releases every waiting consumer, which
 * then ends on a {@link QueueClosedException} once the accepted elements are taken (see there).
 *
 * <p>The limits of {@link LprqQueue} apply (memory, weakly consistent {@link #iterator()}, no
 * removal from the middle: it throws {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LprqBlockingQueue<E> extends UnboundedBlockingQueue<E> {
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
        super(new LprqQueue<>(ringCapacity), waitStrategy);
    }

    /** For tests: every ring's counters start at {@code start}, 0 to 2^62. */
    LprqBlockingQueue(final int ringCapacity, final WaitStrategy waitStrategy, final long start) {
        super(new LprqQueue<>(ringCapacity, true, start), waitStrategy);
    }

    /**
     * Elements per ring.
     *
     * @return a power of two
     */
    public int ringCapacity() {
        return ((LprqQueue<E>) unbounded).ringCapacity();
    }
}

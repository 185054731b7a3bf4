package dev.slipstream.queue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

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
 * <p>{@link #close()} closes the queue to producers and releases every waiting consumer: they
 * take what was accepted before the close, then {@link #take()} throws
 * {@link QueueClosedException} and a timed {@link #poll(long, TimeUnit)} returns null, at once
 * and ever after, so a consumer thread ends on the close:
 *
 * <pre>{@code
 * try {
 *     while (true) handle(inbox.take());
 * } catch (QueueClosedException closed) {
 *     // inbox.close() was called and every request accepted before it was handled
 * }
 * }</pre>
 *
 * <p>The limits of {@link LscqQueue} apply: at most {@code max(segmentCapacity, 64)} threads at
 * once, the memory per segment given there, a weakly consistent {@link #iterator()}, and no
 * removal from the middle ({@code remove(Object)}, {@code removeAll}, {@code retainAll},
 * {@code removeIf} and {@code Iterator.remove} throw {@link UnsupportedOperationException}).
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LscqBlockingQueue<E> extends UnboundedBlockingQueue<E> {
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
        super(new LscqQueue<>(segmentCapacity), waitStrategy);
    }

    /** For tests: every segment's counters start at {@code start}, 0 to 2^62. */
    LscqBlockingQueue(final int segmentCapacity, final WaitStrategy waitStrategy, final long start) {
        super(new LscqQueue<>(segmentCapacity, true, start), waitStrategy);
    }

    /**
     * Elements per segment.
     *
     * @return a power of two
     */
    public int segmentCapacity() {
        return ((LscqQueue<E>) unbounded).segmentCapacity();
    }
}

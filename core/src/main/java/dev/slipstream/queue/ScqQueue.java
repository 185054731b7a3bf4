package dev.slipstream.queue;

import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A bounded, lock-free, multi-producer multi-consumer FIFO queue of a fixed {@code capacity} (a
 * power of two, given to the constructor):
 * SCQ (Nikolaev, DISC 2019) on single-width {@code VarHandle} fetch-and-add and CAS.
 *
 * <p>Two rings of indices do the work: a ring of free indices that starts full and a ring of
 * allocated indices that starts empty, each a {@code long[]} of {@code 2n} entries whose words
 * pack the lap (cycle), an IsSafe bit and the index. {@link #offer} takes a free index, writes
 * the element into a plain array at that index and enqueues the index on the allocated ring;
 * {@link #poll} does the reverse. Head, tail and threshold of each ring sit on cache lines of
 * their own, and neighbouring positions are spread over different cache lines (the "remap",
 * which can be switched off for measurement). Polling an idle queue is cheap: once polls have
 * found it empty about {@code 3 * capacity} times (at least 65) since the last offer, each
 * further poll returns after a single load, touching nothing, until the next offer.
 *
 * <pre>{@code
 * ScqQueue<Order> queue = new ScqQueue<>(1024);     // capacity: a power of two
 * if (!queue.offer(order)) {
 *     // full: back off, or use ScqBlockingQueue.put
 * }
 * Order next = queue.poll();                         // null when empty
 * int moved = queue.drain(this::handle, 64);         // up to 64 at once
 * }</pre>
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li><b>Threads:</b> at most {@code max(capacity, 64)} threads may be inside one operation
 *       on the same queue at once (the paper's {@code k <= n}). Beyond that a poll may return
 *       null while an element is present until the next offer. Choose a capacity of at least the
 *       number of threads that use the queue.</li>
 *   <li><b>Spurious full:</b> an offer holds a slot from taking it off the free ring until its
 *       element is visible, and a poll holds one from removing its element until it gives the
 *       slot back. {@link #offer} returns false when, at one moment during the call, every slot
 *       holds an element <em>or is held by another thread's offer or poll in progress</em>, so it
 *       may return false on a queue with fewer than {@code capacity} elements. With one producer
 *       and one consumer this never shows (the queue is then a linearizable bounded FIFO queue,
 *       as the Lincheck tests check); with more it can, most visibly at tiny capacities. Nothing
 *       is lost: retry, or use a blocking put.</li>
 *   <li><b>Memory:</b> {@code 36 * capacity + 2024} bytes with compressed references (the
 *       default below 32 GB of heap; 4 more at capacity 1), {@code 40 * capacity + 2296} without,
 *       allocated once; offering and polling allocate nothing. Per element: two entries in each
 *       ring and one reference. The constant is padding that keeps other objects off the hot
 *       cache lines (head, tail and threshold 128 bytes apiece, 16 longs or 32 references at each
 *       end of each array). At capacity 16 that is 2600 bytes, 162 per element; at 1024, 38 KB.</li>
 *   <li><b>Iteration:</b> {@link #iterator()} (and what walks it: {@code contains},
 *       {@code toArray}, {@code stream}...), {@link #size()} and {@link #peek()} are weakly
 *       consistent (see there) and write nothing.</li>
 *   <li><b>Not supported:</b> removing from the middle ({@link #remove(Object)} and the like)
 *       throws {@link UnsupportedOperationException}: it would cost every offer and poll a check.</li>
 * </ul>
 *
 * @param <E> the element type; null elements are rejected
 */
public final class ScqQueue<E> extends PollOnlyQueue<E> implements BatchQueue<E> {
    /** The largest capacity: 2^29. */
    public static final int MAX_CAPACITY = 1 << IndexRing.MAX_ORDER;

    /** The rings; package-private so that tests in this package can inspect them. */
    final Scq scq;
    private final boolean remap;

    /**
     * Creates a queue with cache remap on.
     *
     * @param capacity a power of two from 1 to {@link #MAX_CAPACITY}
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public ScqQueue(final int capacity) {
        this(capacity, true);
    }

    /**
     * Creates a queue.
     *
     * @param capacity a power of two from 1 to {@link #MAX_CAPACITY}
     * @param cacheRemap whether neighbouring positions of the rings are spread over different
     *     cache lines (on by default; off only to measure what it buys)
     * @throws IllegalArgumentException if {@code capacity} is not such a power of two
     */
    public ScqQueue(final int capacity, final boolean cacheRemap) {
        this(capacity, cacheRemap, 0L);
    }

    /** For soak tests: head and tail of both rings start at {@code start}, anywhere in 64 bits. */
    ScqQueue(final int capacity, final boolean cacheRemap, final long start) {
        this.scq = new Scq(orderOf(capacity, "capacity"), cacheRemap, start, false);
        this.remap = cacheRemap;
    }

    /** log2 of a power-of-two capacity, or an exception naming the parameter. */
    static int orderOf(final int capacity, final String name) {
        if (capacity < 1 || capacity > MAX_CAPACITY || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException(name + " must be a power of two between 1 and "
                    + MAX_CAPACITY + ", got " + capacity);
        }
        return Integer.numberOfTrailingZeros(capacity);
    }

    /**
     * Inserts an element if there is room, never waiting.
     *
     * @param e the element
     * @return true if inserted; false if the queue was full (or spuriously full, see the
     *     class documentation)
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public boolean offer(final E e) {
        Objects.requireNonNull(e, "element must not be null");
        return scq.offer(e);
    }

    /**
     * Removes and returns the oldest element, never waiting.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        return (E) scq.poll();
    }

    /**
     * Returns the oldest element without removing it, weakly consistent: the element returned
     * was in the queue during the call, and null means no element was seen between head and
     * tail. While another thread's offer is between claiming its position and writing it, a
     * later element may be returned than the next poll will take. Exact when no other thread
     * operates on the queue.
     *
     * @return the element, or null
     */
    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) scq.peek();
    }

    /**
     * The number of elements, counted by walking the positions between head and tail: exact when
     * no other thread operates on the queue. While others do, it is not a snapshot: each position
     * is looked at once, at its own moment, so an element offered or polled during the call may
     * or may not be counted (the result is always between 0 and {@link #capacity()}). Takes time
     * proportional to the distance between head and tail (the elements plus the positions
     * enqueuers skipped) and writes nothing, so offer and poll pay nothing for it.
     *
     * @return from 0 to {@link #capacity()}
     */
    @Override
    public int size() {
        return scq.countElements();
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if {@link #peek()} found nothing
     */
    @Override
    public boolean isEmpty() {
        return scq.peek() == null;
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, in FIFO order.
     * Each element's slot is free again before the consumer sees it, so a consumer that throws
     * loses only that element, which has already left the queue.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    @SuppressWarnings("unchecked")
    public int drain(final Consumer<? super E> consumer, final int limit) {
        Objects.requireNonNull(consumer, "consumer must not be null");
        checkLimit(limit);
        return scq.drain((Consumer<Object>) consumer, limit);
    }

    /**
     * Inserts up to {@code limit} elements from {@code supplier}, stopping when the queue is
     * full. The supplier is called only when a slot is already reserved for its result, so
     * nothing it returns is dropped.
     *
     * @param supplier produces the elements; must not return null
     * @param limit the most to insert, {@code >= 0}
     * @return how many were inserted
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        Objects.requireNonNull(supplier, "supplier must not be null");
        checkLimit(limit);
        return scq.fill(supplier, limit);
    }

    static void checkLimit(final int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0, got " + limit);
        }
    }

    /**
     * The fixed capacity.
     *
     * @return a power of two
     */
    public int capacity() {
        return scq.capacity();
    }

    /**
     * Whether the rings spread neighbouring positions over different cache lines.
     *
     * @return the cache-remap setting
     */
    public boolean isCacheRemap() {
        return remap;
    }

    /**
     * A weakly consistent iterator over the elements, oldest first, that never throws
     * {@link java.util.ConcurrentModificationException}: it returns, once each and in FIFO order,
     * every element in the queue for the whole iteration, and none offered after it was created;
     * one polled meanwhile may or may not be returned. It writes nothing, so producers and
     * consumers do not pay for it. {@link Iterator#remove()} is not supported.
     *
     * <pre>{@code
     * for (Order o : queue) {          // a look at the backlog; poll() still takes them in order
     *     audit(o);
     * }
     * }</pre>
     *
     * @return the iterator
     */
    @Override
    public Iterator<E> iterator() {
        return ScqIterator.of(scq);
    }
}

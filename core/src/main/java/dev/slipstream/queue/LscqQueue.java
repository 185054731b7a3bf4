package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.sequence.Backoff;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** 120 bytes before the head pointer (the int fills the hole after the object header). */
abstract class LscqPad0<E> extends PollOnlyQueue<E> {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The segment consumers poll; moves forward when a drained segment has a successor. */
abstract class LscqHeadField<E> extends LscqPad0<E> {
    LscqQueue.Segment headSegment;
}

/** 120 bytes between the head and tail pointers. */
abstract class LscqPad1<E> extends LscqHeadField<E> {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The segment producers offer to; moves forward when a full segment gets a successor. */
abstract class LscqTailField<E> extends LscqPad1<E> {
    LscqQueue.Segment tailSegment;
}

/** 120 bytes after the tail pointer. */
abstract class LscqPad2<E> extends LscqTailField<E> {
    int pi2;
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/** Written only when a segment is allocated: the allocation gate and counters. */
abstract class LscqAllocation<E> extends LscqPad2<E> {
    int allocating;
    long segmentsAllocated;
    long segmentsLinked;
    long gateBypasses;
    boolean closed;
}

/**
 * An unbounded, lock-free, multi-producer multi-consumer FIFO queue: LSCQ (Nikolaev, DISC 2019),
 * a linked list of bounded SCQ segments of {@code segmentCapacity} elements each (a power of two,
 * {@link #DEFAULT_SEGMENT_CAPACITY} unless the constructor is given another). An offer never waits
 * for a consumer: when the last segment is full it is finalized (bit 63 of its allocated ring's
 * tail) and a new segment, already holding the element, is linked after it.
 *
 * <p>While consumers keep up, one segment is reused round and round and nothing is allocated.
 * A backlog larger than a segment allocates segments; drained ones are left to the garbage
 * collector (never recycled, since a slow thread may still hold one). When many producers find
 * the last segment full at once, only one of them allocates the next segment; the others wait
 * for it, spinning and then yielding, and allocate their own only if the allocating thread has
 * not finished after about a thousand yields (then a surplus segment is dropped).
 *
 * <pre>{@code
 * LscqQueue<Request> ingress = new LscqQueue<>();          // 4096 elements per segment
 * ingress.offer(request);                                  // always true until close()
 * Request r = ingress.poll();                              // null when empty
 * int n = ingress.drain(batch::add, 256);
 * }</pre>
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li><b>Threads:</b> at most {@code max(segmentCapacity, 64)} threads may be inside one
 *       operation on the queue at once. Beyond that the emptiness check of a segment may fail
 *       and, when the head segment is retired, an element may be lost. The default segment
 *       capacity, 4096, keeps this out of reach.</li>
 *   <li><b>Memory:</b> a segment takes {@code 36 * segmentCapacity + 2008} bytes with
 *       compressed references (the default below 32 GB of heap; 4 more at capacity 1),
 *       {@code 40 * segmentCapacity + 2280} without: 36 bytes per element (four ring entries
 *       and a reference) plus about 2 KB of cache-line padding (see {@link ScqQueue}). The
 *       queue object itself takes 440 bytes. An empty queue holds one segment (146 KiB at the
 *       default 4096; at 16, 2584 bytes, 162 bytes per element); a backlog of {@code m}
 *       elements holds about {@code m / segmentCapacity + 1} segments. Small segments pay the
 *       padding often: at 16 elements per segment it is about four fifths of the memory.</li>
 *   <li><b>Counters:</b> positions are 63-bit (bit 63 is the finalize bit): a segment can take
 *       2^63 operations, centuries at any realistic rate.</li>
 *   <li><b>Iteration:</b> {@link #iterator()} (and what walks it: {@code contains},
 *       {@code toArray}, {@code stream}...), {@link #size()} and {@link #peek()} are weakly
 *       consistent (see there) and write nothing.</li>
 *   <li><b>Not supported:</b> removing from the middle ({@link #remove(Object)} and the like)
 *       throws {@link UnsupportedOperationException}: it would cost every offer and poll a check.</li>
 * </ul>
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LscqQueue<E> extends LscqAllocation<E> implements ClosableBatchQueue<E> {
    /** The segment capacity used when none is given. */
    public static final int DEFAULT_SEGMENT_CAPACITY = 1 << 12;
    /**
     * How a producer waits for another producer's new segment (128 spins, then 1,000 yields);
     * once both are spent it stops waiting and links a segment of its own (the bypass). Shared:
     * each wait counts its own attempts.
     */
    static final Backoff GATE_WAIT = new Backoff(128, 1_000, 0L, 0L);

    private static final VarHandle HEAD = FieldHandles.of(LscqHeadField.class, "headSegment", Segment.class);
    private static final VarHandle TAIL = FieldHandles.of(LscqTailField.class, "tailSegment", Segment.class);
    private static final VarHandle ALLOCATING = FieldHandles.of(LscqAllocation.class, "allocating", int.class);
    private static final VarHandle ALLOCATED =
            FieldHandles.of(LscqAllocation.class, "segmentsAllocated", long.class);
    private static final VarHandle LINKED = FieldHandles.of(LscqAllocation.class, "segmentsLinked", long.class);
    private static final VarHandle BYPASSES = FieldHandles.of(LscqAllocation.class, "gateBypasses", long.class);
    private static final VarHandle CLOSED = FieldHandles.of(LscqAllocation.class, "closed", boolean.class);
    private static final VarHandle NEXT = FieldHandles.of(Segment.class, "next", Segment.class);

    /** One bounded SCQ whose allocated ring can be finalized, and the link to the next one. */
    static final class Segment extends Scq {
        /** Set once, by CAS; {@link #CLOSED_LINK} after {@link LscqQueue#close()}. */
        Segment next;

        Segment(final int order, final boolean remap, final long start) {
            super(order, remap, start, true);
        }

        /** Acquire: a successor is seen fully built, holding its first element. */
        Segment laNext() {
            return (Segment) NEXT.getAcquire(this);
        }

        /** Publishes the successor built by this thread. */
        boolean casNext(final Segment successor) {
            return NEXT.compareAndSet(this, null, successor);
        }

        @Override
        Scq successor() {
            final Segment n = laNext();
            return n == CLOSED_LINK ? null : n;
        }
    }

    /** Linked after the last segment by close(): no segment can follow it. */
    private static final Segment CLOSED_LINK = new Segment(0, false, 0L);

    /** The walks over the segments: acquire loads, as the polls read the list. */
    private static final RingWalk<LscqQueue<?>, Segment> RINGS = new RingWalk<>() {
        @Override
        Segment head(final LscqQueue<?> queue) {
            return queue.laHead();
        }

        @Override
        Segment next(final Segment ring) {
            return (Segment) ring.successor();
        }

        @Override
        Object peekRing(final Segment ring) {
            return ring.peek();
        }

        @Override
        long countRing(final Segment ring) {
            return ring.countElements();
        }

        @Override
        int drainHead(final LscqQueue<?> queue, final Consumer<Object> sink, final int limit) {
            return queue.laHead().drain(sink, limit);
        }

        @Override
        Object poll(final LscqQueue<?> queue) {
            return queue.poll();
        }
    };

    private final int order;
    private final boolean remap;
    private final long start;

    /** Creates a queue with {@link #DEFAULT_SEGMENT_CAPACITY} elements per segment and cache remap on. */
    public LscqQueue() {
        this(DEFAULT_SEGMENT_CAPACITY, true);
    }

    /**
     * Creates a queue.
     *
     * @param segmentCapacity elements per segment, a power of two from 1 to
     *     {@link ScqQueue#MAX_CAPACITY}; also the number of threads the queue supports at once
     *     (at least 64 whatever the capacity)
     * @throws IllegalArgumentException if {@code segmentCapacity} is not such a power of two
     */
    public LscqQueue(final int segmentCapacity) {
        this(segmentCapacity, true);
    }

    /**
     * Creates a queue.
     *
     * @param segmentCapacity elements per segment, a power of two from 1 to
     *     {@link ScqQueue#MAX_CAPACITY}
     * @param cacheRemap whether neighbouring positions of the rings are spread over different
     *     cache lines (on by default; off only to measure what it buys)
     * @throws IllegalArgumentException if {@code segmentCapacity} is not such a power of two
     */
    public LscqQueue(final int segmentCapacity, final boolean cacheRemap) {
        this(segmentCapacity, cacheRemap, 0L);
    }

    /** For soak tests: every segment's counters start at {@code start}, 0 to 2^62. */
    LscqQueue(final int segmentCapacity, final boolean cacheRemap, final long start) {
        this.order = ScqQueue.orderOf(segmentCapacity, "segmentCapacity");
        this.remap = cacheRemap;
        if (start < 0 || start > (1L << 62)) {
            throw new IllegalArgumentException("start must be between 0 and 2^62, got " + start);
        }
        this.start = start;
        final Segment first = new Segment(order, cacheRemap, start);
        this.segmentsAllocated = 1;
        this.segmentsLinked = 1;
        this.headSegment = first;
        this.tailSegment = first;
        // release fence: a thread that obtains the queue through a data race still sees both
        // pointers set (they are not final, so final-field semantics do not cover them)
        VarHandle.releaseFence();
    }

    /**
     * Inserts an element at the tail; never waits for a consumer.
     *
     * @param e the element
     * @return true, unless the queue has been {@linkplain #close() closed}
     * @throws NullPointerException if {@code e} is null
     */
    @Override
    public boolean offer(final E e) {
        Objects.requireNonNull(e, "element must not be null");
        // Hot path, small enough to be inlined.
        final Segment t = laTail();
        if (t.laNext() == null) {
            if (t.offer(e)) {
                return true;
            }
            return offerSlow(e, t);
        }
        return offerSlow(e, null);
    }

    /**
     * Offers past a full segment: moves the tail pointer forward, or links a new segment.
     *
     * @param full a segment whose offer already failed (so it is finalized), or null
     */
    private boolean offerSlow(final E e, Segment full) {
        // rounds waited for the gate at tail segment waitedAt: they count towards a bypass only
        // while the tail stays there (a moving tail means the gate holder is not stalled)
        Segment waitedAt = null;
        int waits = 0;
        int closing = 0;
        while (true) {
            final Segment t = laTail();
            final Segment next = t.laNext();
            if (next != null) {
                if (next == CLOSED_LINK) {
                    return false;
                }
                // help a slow linker: a lost race means someone else moved it
                casTail(t, next);
                continue;
            }
            if (t != waitedAt) {
                waitedAt = t;
                waits = 0;
            }
            if (t != full) {
                if (t.offer(e)) {
                    return true;
                }
                full = t; // finalized now: never offer to it again
            }
            if (appendSegment(t, e, GATE_WAIT.phaseAt(waits) == Backoff.Phase.PARK)) {
                return true;
            }
            if (lvClosed()) {
                // close() finalizes the tail and links CLOSED_LINK right after: wait for that,
                // counted apart from the gate's waits, which it must not turn into a bypass
                waits = 0;
                GATE_WAIT.idleAt(closing++);
                continue;
            }
            GATE_WAIT.idleAt(waits++);
        }
    }

    /**
     * Links a new segment holding {@code e} after the full segment {@code t}, if this thread gets
     * the allocation gate (or {@code bypass}, when the gate holder seems stalled).
     *
     * @return true if {@code e} is in the queue
     */
    private boolean appendSegment(final Segment t, final E e, final boolean bypass) {
        // load, then CAS: one allocating producer at a time; waiters only read the gate, so
        // they do not pull its cache line back and forth while they wait
        final boolean gate = lvAllocating() == 0 && casAllocating(0, 1);
        if (!gate && !bypass) {
            return false;
        }
        try {
            if (t.laNext() != null || lvClosed()) {
                return false; // someone linked one (or the queue closed) meanwhile: retry there
            }
            if (!gate) {
                faaBypasses(1L); // a statistic, on the rare path only
            }
            final Segment s = new Segment(order, remap, start);
            faaAllocated(1L); // a statistic, once per segment
            s.offer(e); // private to this thread: cannot fail on an empty segment
            if (t.casNext(s)) {
                faaLinked(1L); // a statistic, once per segment
                QueueCounters.count(QueueCounters.Event.RING_ADDED);
                casTail(t, s); // a lost race means another thread already helped
                return true;
            }
            QueueCounters.count(QueueCounters.Event.CAS_FAILED);
            return false; // lost to a bypassing producer or to close(): s is dropped
        } finally {
            if (gate) {
                // the next gate holder sees the link made above
                soAllocating(0);
            }
        }
    }

    /**
     * Removes and returns the oldest element, never waiting.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        // Hot path, small enough to be inlined.
        final Segment h = laHead();
        final Object e = h.poll();
        if (e != null) {
            return (E) e;
        }
        return pollSlow(h);
    }

    /** A poll that found segment {@code h} empty: crosses to the next segment if there is one. */
    @SuppressWarnings("unchecked")
    private E pollSlow(Segment h) {
        while (true) {
            final Segment next = h.laNext();
            if (next == null || next == CLOSED_LINK) {
                return null;
            }
            // h is finalized: late enqueuers may have completed after our failed poll, and the
            // threshold may have run out; search once more from a full threshold
            h.aq.resetThreshold();
            Object e = h.poll();
            if (e != null) {
                return (E) e;
            }
            // retire h; a lost race means another consumer already did
            casHead(h, next);
            h = laHead();
            e = h.poll();
            if (e != null) {
                return (E) e;
            }
        }
    }

    /**
     * Returns the oldest element without removing it, weakly consistent: the element returned
     * was in the queue during the call, and null means none was seen. While another thread's
     * offer is between claiming its position and writing it, a later element may be returned
     * than the next poll will take. Exact when no other thread operates on the queue.
     *
     * @return the element, or null
     */
    @Override
    @SuppressWarnings("unchecked")
    public E peek() {
        return (E) RINGS.peek(this);
    }

    /**
     * Whether no element was seen; weakly consistent like {@link #peek()}.
     *
     * @return true if {@link #peek()} found nothing
     */
    @Override
    public boolean isEmpty() {
        return peek() == null;
    }

    /**
     * The number of elements, counted by walking every segment's positions between head and
     * tail: exact when no other thread operates on the queue. While others do, it is not a
     * snapshot: each position is looked at once, at its own moment, so an element offered or
     * polled during the call may or may not be counted. Takes time proportional to the number of
     * elements (plus positions enqueuers skipped) and writes nothing, so offer and poll pay
     * nothing for it.
     *
     * @return the count, at most {@link Integer#MAX_VALUE}
     */
    @Override
    public int size() {
        return RINGS.size(this);
    }

    /**
     * Removes up to {@code limit} elements and hands each to {@code consumer}, in FIFO order.
     * A consumer that throws loses only the element it was given, which has left the queue.
     *
     * @param consumer receives the elements
     * @param limit the most to remove, {@code >= 0}
     * @return how many were removed
     * @throws NullPointerException if {@code consumer} is null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int drain(final Consumer<? super E> consumer, final int limit) {
        return RINGS.drain(this, consumer, limit);
    }

    /**
     * Inserts {@code limit} elements from {@code supplier} (all of them: the queue is unbounded),
     * unless the queue is closed.
     *
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @return how many were inserted: {@code limit}, or fewer once the queue is closed (if it
     *     closes during the call, the element supplied last may be dropped)
     * @throws NullPointerException if {@code supplier} is null or returns null
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        return ClosableBatchQueue.fillUntilClosed(this, supplier, limit);
    }

    /**
     * Closes the queue to producers: offers that start after this call returns fail (return
     * false; {@code add} throws {@link IllegalStateException}); every element whose offer
     * returned true can still be polled. Idempotent.
     *
     * <p>Offers already in progress when {@code close} is called may still succeed, and may do
     * so after {@code close} has returned: close is not linearizable with them (a poll right
     * after {@code close} can return null and a later one the late element). A consumer that
     * must take everything uses {@link #isDrained()} as its end condition.
     */
    @Override
    public void close() {
        // producers that find the tail full stop allocating
        svClosed(true);
        while (true) {
            Segment t = laTail();
            Segment next;
            while ((next = t.laNext()) != null && next != CLOSED_LINK) {
                t = next;
            }
            if (next == CLOSED_LINK) {
                return;
            }
            t.aq.finalizeRing();
            if (t.casNext(CLOSED_LINK)) {
                return;
            }
            // a producer linked a segment just before: finalize that one too
        }
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    @Override
    public boolean isClosed() {
        return lvClosed();
    }

    /**
     * Inserts an element, or throws if the queue is closed.
     *
     * @param e the element
     * @return true
     * @throws NullPointerException if {@code e} is null
     * @throws IllegalStateException if the queue is closed
     */
    @Override
    public boolean add(final E e) {
        return ClosableBatchQueue.addUnlessClosed(this, e);
    }

    /**
     * Whether the queue is closed and every element it accepted has been taken: the end
     * condition of a consumer that drains a closed queue. An offer still in progress when the
     * queue closed may yet complete; until it has (or has failed), this returns false, and the
     * consumer should keep polling (a poll resolves such offers).
     *
     * <pre>{@code
     * queue.close();
     * while (!queue.isDrained()) {
     *     Request r = queue.poll();
     *     if (r != null) handle(r); else Thread.onSpinWait();
     * }
     * }</pre>
     *
     * @return true if closed and drained for good; always false while open
     */
    @Override
    public boolean isDrained() {
        if (!isClosed()) {
            return false;
        }
        final Segment h = laHead();
        final Segment next = h.laNext();
        if (next != CLOSED_LINK) {
            return false; // more segments, or close() still linking
        }
        if (h.aq.lvHead() - h.aq.lvTailPosition() >= 0) {
            return true;
        }
        // positions left between head and tail: make the next poll search them
        h.aq.resetThreshold();
        return false;
    }

    /**
     * Elements per segment.
     *
     * @return a power of two
     */
    public int segmentCapacity() {
        return 1 << order;
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
     * A weakly consistent iterator over the elements, oldest first, across the segments, with
     * the guarantees of {@link ScqQueue#iterator()}. {@link Iterator#remove()} is not supported.
     *
     * <pre>{@code
     * List<Request> backlog = new ArrayList<>(ingress);   // a copy of what waits, oldest first
     * }</pre>
     *
     * @return the iterator
     */
    @Override
    public Iterator<E> iterator() {
        // acquire: the head segment as linked, read before the last one so that it is reachable
        final Segment first = laHead();
        final Segment last = RINGS.last(first);
        // volatile, after last was found: every offer that completed before this call put its
        // element below this position of last, or into an earlier segment
        return new ScqIterator<>(first, last, last.aq.lvTailPosition());
    }

    /**
     * Segments allocated so far, the first included: with the segment size, what the queue has
     * cost in memory over its life. Under a burst of producers it stays at the number of
     * segments the backlog needs (plus one per producer that found the allocating thread stalled).
     *
     * @return the count, from 1
     */
    public long segmentsAllocated() {
        return lvAllocated();
    }

    private Segment laHead() {
        return (Segment) HEAD.getAcquire(this);
    }

    private boolean casHead(final Segment expected, final Segment value) {
        return HEAD.compareAndSet(this, expected, value);
    }

    private Segment laTail() {
        return (Segment) TAIL.getAcquire(this);
    }

    private boolean casTail(final Segment expected, final Segment value) {
        return TAIL.compareAndSet(this, expected, value);
    }

    private int lvAllocating() {
        return (int) ALLOCATING.getVolatile(this);
    }

    private boolean casAllocating(final int expected, final int value) {
        return ALLOCATING.compareAndSet(this, expected, value);
    }

    private void soAllocating(final int value) {
        ALLOCATING.setRelease(this, value);
    }

    private boolean lvClosed() {
        return (boolean) CLOSED.getVolatile(this);
    }

    private void svClosed(final boolean value) {
        CLOSED.setVolatile(this, value);
    }

    private long lvAllocated() {
        return (long) ALLOCATED.getVolatile(this);
    }

    private void faaAllocated(final long delta) {
        ALLOCATED.getAndAdd(this, delta);
    }

    private void faaLinked(final long delta) {
        LINKED.getAndAdd(this, delta);
    }

    private void faaBypasses(final long delta) {
        BYPASSES.getAndAdd(this, delta);
    }
}

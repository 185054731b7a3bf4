package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.queue.QueueCounters.Event;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;

/** 120 bytes before the head pointer (the int fills the hole after the object header). */
abstract class LprqPad0<E> extends PollOnlyQueue<E> {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The ring consumers poll; moves forward when a drained ring has a successor. */
abstract class LprqHeadField<E> extends LprqPad0<E> {
    PrqRing headRing;
}

/** 120 bytes between the head and tail pointers. */
abstract class LprqPad1<E> extends LprqHeadField<E> {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The ring producers offer to; moves forward when a closed ring gets a successor. */
abstract class LprqTailField<E> extends LprqPad1<E> {
    PrqRing tailRing;
}

/** 120 bytes after the tail pointer. */
abstract class LprqPad2<E> extends LprqTailField<E> {
    int pi2;
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/** Written only when a ring is allocated, and once by {@code close()}. */
abstract class LprqAllocation<E> extends LprqPad2<E> {
    long ringsAllocated;
    boolean closed;
}

/**
 * An unbounded, lock-free, multi-producer multi-consumer FIFO queue: LPRQ (Romanov and Koval,
 * PPoPP 2023), a linked list of rings that hold the element references themselves. It is the
 * unbounded queue to use by default: per element, an offer costs one fetch-and-add and three
 * single-width CAS on one cell, a poll one fetch-and-add and one store, where
 * {@link LscqQueue} (Nikolaev's LSCQ, which stores indices and so needs two rings) costs four
 * fetch-and-adds and four ring-entry updates.
 *
 * <p>While consumers keep up, one ring is reused lap after lap and nothing is allocated. A ring
 * is closed (and a new one, already holding the element, linked after it) when it is full, or
 * when one offer has failed {@code 128} positions in it. Drained rings are left to the garbage
 * collector: a slow thread may still hold one.
 *
 * <pre>{@code
 * LprqQueue<Request> ingress = new LprqQueue<>();          // 4096 elements per ring
 * ingress.offer(request);                                  // always true until close()
 * Request r = ingress.poll();                              // null when empty
 * int n = ingress.drain(batch::add, 256);
 * }</pre>
 *
 * <p>{@link #close()} closes the queue to producers: offers that start after it returns fail,
 * every accepted element can still be polled, and {@link #isDrained()} tells a consumer when
 * the last one has been taken.
 *
 * <h2>Progress</h2>
 * Lock-free: a thread fails a step only because another completed one. An offer fails a bounded
 * number of positions before it closes the ring and puts its element into a new ring no one else
 * can reach yet (so consumers cannot starve it); a poll waits a bounded number of spins for the
 * producer of its position, then invalidates the position. An offer claims its cell with the
 * element and publishes it with a CAS on the cell's epoch, the single-width replacement for
 * LCRQ's double-width CAS.
 *
 * <h2>Limits</h2>
 * <ul>
 *   <li><b>Memory:</b> a ring takes {@code 12 * ringCapacity} bytes plus about 500 bytes with
 *       compressed references ({@code 16 *} without); an empty queue holds one ring (48 KiB at
 *       the default 4096). When producers find the last ring full at the same moment, each
 *       may allocate a ring; one is linked and the others are dropped.</li>
 *   <li><b>Counters:</b> 63-bit (bit 63 closes a ring): a ring can take 2^63 operations.</li>
 *   <li><b>Iteration:</b> {@link #iterator()} (and {@code contains}, {@code toArray},
 *       {@code toString}, {@code forEach}, {@code stream}) is weakly consistent and reads
 *       without writing. {@link #size()} is exact when no other thread operates.</li>
 *   <li><b>Not supported:</b> removing from the middle ({@link #remove(Object)} and the like)
 *       throws {@link UnsupportedOperationException}.</li>
 * </ul>
 *
 * @param <E> the element type; null elements are rejected
 */
public final class LprqQueue<E> extends LprqAllocation<E> implements ClosableBatchQueue<E> {
    /** The ring capacity used when none is given. */
    public static final int DEFAULT_RING_CAPACITY = 1 << 12;
    /** The largest ring capacity. */
    public static final int MAX_RING_CAPACITY = 1 << 30;

    private static final VarHandle HEAD = FieldHandles.of(LprqHeadField.class, "headRing", PrqRing.class);
    private static final VarHandle TAIL = FieldHandles.of(LprqTailField.class, "tailRing", PrqRing.class);
    private static final VarHandle ALLOCATED = FieldHandles.of(LprqAllocation.class, "ringsAllocated", long.class);
    private static final VarHandle CLOSED_FLAG = FieldHandles.of(LprqAllocation.class, "closed", boolean.class);

    /**
     * Linked after the last ring by {@link #close()}: no ring can follow it, and no offer uses
     * it (an offer that finds it fails). Everything that follows {@code next} treats it as the
     * end of the list. Shared by every queue; its own tail is closed and it never holds an
     * element.
     */
    static final PrqRing CLOSED_LINK = closedLink();

    private static PrqRing closedLink() {
        final PrqRing link = new PrqRing(1, false, 0L, null);
        link.closeTail();
        return link;
    }

    /** The walks over the rings: volatile loads, as the polls read the list. */
    private static final RingWalk<LprqQueue<?>, PrqRing> RINGS = new RingWalk<>() {
        @Override
        PrqRing head(final LprqQueue<?> queue) {
            return queue.lvHeadRing();
        }

        @Override
        PrqRing next(final PrqRing ring) {
            final PrqRing next = ring.lvNext();
            return next == CLOSED_LINK ? null : next;
        }

        @Override
        Object peekRing(final PrqRing ring) {
            return ring.peek();
        }

        @Override
        long countRing(final PrqRing ring) {
            return ring.countElements();
        }

        @Override
        int drainHead(final LprqQueue<?> queue, final Consumer<Object> sink, final int limit) {
            return 0; // a ring has no drain of its own: every element goes through poll
        }

        @Override
        Object poll(final LprqQueue<?> queue) {
            return queue.poll();
        }
    };

    /**
     * What a thread does after a step that another thread's step made fail: a choice for many
     * cores, where the failed steps of one thread are the cache misses of the others. {@link #EAGER}
     * is the default; the others are candidates that the many-core benchmarks compare with it
     * ({@code benchmarks/scripts/sixteen-cores.sh}), each proven by the same tests.
     *
     * <pre>{@code
     * LprqQueue<Request> q = new LprqQueue<>(4096, LprqQueue.Contention.BACK_OFF);
     * }</pre>
     */
    public enum Contention {
        /** Retry at once: a failed position is followed by the next fetch-and-add. */
        EAGER,
        /**
         * Pause before the next position after a failed one, 1, 2, 4 ... up to 64 spins: fewer
         * threads on the ring's counters at once, at the price of a later retry.
         */
        BACK_OFF,
        /**
         * A dequeuer whose position is at or past the tail (it overtook the offer coming for it)
         * waits for that offer as long as for one that holds its position already (a bounded
         * number of spins), instead of passing the cell at once: the offer then lands, where
         * passing would make it take another position.
         */
        WAIT_FOR_OFFER
    }

    private final int ringCapacity;
    private final boolean remap;
    private final long start;
    private final Contention contention;

    /** Creates a queue with {@link #DEFAULT_RING_CAPACITY} elements per ring. */
    public LprqQueue() {
        this(DEFAULT_RING_CAPACITY);
    }

    /**
     * Creates a queue.
     *
     * @param ringCapacity elements per ring, a power of two from 1 to {@link #MAX_RING_CAPACITY}
     * @throws IllegalArgumentException if {@code ringCapacity} is not such a power of two
     */
    public LprqQueue(final int ringCapacity) {
        this(ringCapacity, true, 0L, Contention.EAGER);
    }

    /**
     * Creates a queue that treats contention as {@code contention} says.
     *
     * @param ringCapacity elements per ring, a power of two from 1 to {@link #MAX_RING_CAPACITY}
     * @param contention what a thread does after a failed step
     * @throws IllegalArgumentException if {@code ringCapacity} is not such a power of two
     * @throws NullPointerException if {@code contention} is null
     */
    public LprqQueue(final int ringCapacity, final Contention contention) {
        this(ringCapacity, true, 0L, Objects.requireNonNull(contention, "contention must not be null"));
    }

    /** For soak tests: every ring's counters start at {@code start}, 0 to 2^62. */
    LprqQueue(final int ringCapacity, final boolean cacheRemap, final long start) {
        this(ringCapacity, cacheRemap, start, Contention.EAGER);
    }

    private LprqQueue(final int ringCapacity, final boolean cacheRemap, final long start,
                      final Contention contention) {
        if (ringCapacity < 1 || ringCapacity > MAX_RING_CAPACITY || Integer.bitCount(ringCapacity) != 1) {
            throw new IllegalArgumentException("ringCapacity must be a power of two from 1 to 2^30, got "
                    + ringCapacity);
        }
        if (start < 0 || start > (1L << 62)) {
            throw new IllegalArgumentException("start must be between 0 and 2^62, got " + start);
        }
        this.ringCapacity = ringCapacity;
        this.remap = cacheRemap;
        this.start = start;
        this.contention = contention;
        final PrqRing first = new PrqRing(ringCapacity, cacheRemap, start, null, contention);
        this.ringsAllocated = 1;
        this.headRing = first;
        this.tailRing = first;
        // release fence: a thread that obtains the queue through a data race still sees both
        // pointers set (they are not final, so final-field semantics do not cover them)
        VarHandle.releaseFence();
    }

    private PrqRing lvHeadRing() {
        return (PrqRing) HEAD.getVolatile(this);
    }

    private boolean casHeadRing(final PrqRing expected, final PrqRing value) {
        return HEAD.compareAndSet(this, expected, value);
    }

    private PrqRing lvTailRing() {
        return (PrqRing) TAIL.getVolatile(this);
    }

    private boolean casTailRing(final PrqRing expected, final PrqRing value) {
        return TAIL.compareAndSet(this, expected, value);
    }

    private boolean lvClosed() {
        return (boolean) CLOSED_FLAG.getVolatile(this);
    }

    private void svClosed(final boolean value) {
        CLOSED_FLAG.setVolatile(this, value);
    }

    private long lvRingsAllocated() {
        return (long) ALLOCATED.getVolatile(this);
    }

    private void faaRingsAllocated(final long delta) {
        ALLOCATED.getAndAdd(this, delta);
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
        // the tail ring as linked (its initialisation happens-before the link)
        final PrqRing t = lvTailRing();
        // the common offer, small enough to inline into the caller: the tail ring is the last
        // one and takes the element
        final boolean last = t.lvNext() == null;
        if (last && t.offer(e)) {
            return true;
        }
        return offerAfterMiss(e, t, last);
    }

    /**
     * The tail ring {@code t} had a successor, or refused the element (it is closed): moves
     * to the last ring, or links a new one that holds the element.
     */
    private boolean offerAfterMiss(final E e, final PrqRing tail, final boolean tailRefused) {
        PrqRing fresh = null;
        PrqRing t = tail;
        boolean refused = tailRefused;
        while (true) {
            if (!refused) {
                final PrqRing next = t.lvNext();
                if (next != null) {
                    if (next == CLOSED_LINK) {
                        return false; // close() sealed t (after closing its tail): nothing can follow
                    }
                    casTailRing(t, next); // help move the tail pointer past a closed ring
                    t = lvTailRing();
                    continue;
                }
                if (t.offer(e)) {
                    return true;
                }
            }
            refused = false;
            // once close() has begun, a refused offer links no new ring (so that close(), which
            // seals the last ring, is not kept chasing producers' new rings); e is in no ring,
            // so false is the answer
            if (lvClosed()) {
                return false;
            }
            // t is closed: link a new ring that already holds e (kept across retries: it is
            // not shared until linked)
            if (fresh == null) {
                fresh = new PrqRing(ringCapacity, remap, start, e, contention);
                faaRingsAllocated(1L);
            }
            if (t.casNext(fresh)) {
                QueueCounters.count(Event.RING_ADDED);
                casTailRing(t, fresh);
                return true;
            }
            QueueCounters.count(Event.CAS_FAILED); // another producer linked its ring first
            t = lvTailRing();
        }
    }

    /**
     * Removes the oldest element.
     *
     * @return the element, or null if the queue is empty
     */
    @Override
    @SuppressWarnings("unchecked")
    public E poll() {
        final PrqRing h = lvHeadRing();
        // the common poll, small enough to inline into the caller. The head before the tail, both
        // acquire loads: an empty answer held when the tail was read
        final long head = h.lvHead();
        final long tail = h.lvTail();
        if (PrqRing.isOpenAndEmpty(head, tail)) {
            return null; // the last ring, and empty: no load of next
        }
        if (PrqRing.hasPositions(head, tail)) {
            final Object e = h.take();
            if (e != null) {
                return (E) e;
            }
        }
        // h is closed, or was emptied by others meanwhile
        final PrqRing next = h.lvNext();
        if (next == null || next == CLOSED_LINK) {
            return null; // h is the last ring (sealed by close() or not): never retired
        }
        return pollAfterMiss(h, next);
    }

    /** The head ring {@code h} is closed and looked empty: drains it, retires it, moves on. */
    @SuppressWarnings("unchecked")
    private E pollAfterMiss(final PrqRing head, final PrqRing successor) {
        PrqRing h = head;
        PrqRing next = successor;
        while (true) {
            // h is closed (a ring is closed before it gets a successor): one more poll finds
            // what enqueuers that took positions before the close put into it
            Object e = h.poll();
            if (e != null) {
                return (E) e;
            }
            casHeadRing(h, next); // retire the drained ring
            h = lvHeadRing();
            e = h.poll();
            if (e != null) {
                return (E) e;
            }
            next = h.lvNext();
            if (next == null || next == CLOSED_LINK) {
                return null; // h is the last ring (sealed by close() or not): never retired
            }
        }
    }

    /**
     * The oldest element, without removing it; weakly consistent (an element polled
     * meanwhile may be returned).
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
     * The number of elements, counted by walking every ring's positions between head and tail:
     * exact when no other thread operates; while others do, each position is looked at once,
     * at its own moment. Takes time proportional to the positions walked and writes nothing.
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
     * Inserts {@code limit} elements from {@code supplier} (all of them: the queue is
     * unbounded), unless the queue is closed.
     *
     * @param supplier produces the elements; must not return null
     * @param limit how many to insert, {@code >= 0}
     * @return how many were inserted: {@code limit}, or fewer once the queue is closed (if it
     *     closes during the call, the element supplied last may be dropped)
     * @throws NullPointerException if {@code supplier} is null or returns null (the elements
     *     supplied before stay in the queue)
     * @throws IllegalArgumentException if {@code limit} is negative
     */
    @Override
    public int fill(final Supplier<? extends E> supplier, final int limit) {
        return ClosableBatchQueue.fillUntilClosed(this, supplier, limit);
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
     * Closes the queue to producers: offers that start after this call returns fail (return
     * false; {@code add} throws {@link IllegalStateException}); every element whose offer
     * returned true can still be polled. Idempotent, and safe to call from several threads.
     *
     * <p>Offers already in progress when {@code close} is called may still succeed, and may do
     * so after {@code close} has returned (an offer that took a position in the last ring before
     * the ring was closed writes its element after): close is not linearizable with them (a
     * poll right after {@code close} can return null and a later one the late element). A
     * consumer that must take everything uses {@link #isDrained()} as its end condition.
     *
     * <p>How: a flag stops refused offers from linking new rings; then the last ring's tail is
     * closed (bit 63, so that no offer can take a position in it any more) and a shared
     * sentinel is linked as its successor, by the same CAS that links a new ring, so that no
     * ring can be linked after it. If a producer linked a ring first, that ring is closed and
     * sealed in turn.
     */
    @Override
    public void close() {
        // offers refused by a closed ring from now on link no new ring
        svClosed(true);
        PrqRing t = lvTailRing();
        while (true) {
            // a ring linked after t is seen fully built
            final PrqRing next = t.lvNext();
            if (next == CLOSED_LINK) {
                return; // sealed already, by this close or a concurrent one
            }
            if (next != null) {
                t = next;
                continue;
            }
            // offers that take a position in t from now on fail
            t.closeTail();
            // after the OR: a thread that reads the closed link
            // also sees the closed tail, so the tail it reads next bounds every position an
            // offer can still fill
            if (t.casNext(CLOSED_LINK)) {
                return;
            }
            // a producer linked a ring (holding its element) before the CAS: seal that one
        }
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once closed
     */
    @Override
    public boolean isClosed() {
        return lvClosed(); // pairs with the store in close()
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
        final PrqRing h = lvHeadRing();
        // the closed link is CASed only after h's tail was closed, so from here
        // on no offer can take a position in h above the tail read below, and no ring follows
        if (h.lvNext() != CLOSED_LINK) {
            return false; // more rings, or close() still sealing
        }
        // head before tail (in isEmpty): head at or above tail at the moment
        // tail was read means a dequeuer has taken every position an offer could still fill,
        // and a position taken by a dequeuer either gives it the element or fails its offer
        // (which then finds the closed link)
        return h.isEmpty();
    }

    /**
     * Elements per ring.
     *
     * @return a power of two
     */
    public int ringCapacity() {
        return ringCapacity;
    }

    /**
     * What a thread does after a failed step.
     *
     * @return the contention setting given to the constructor ({@link Contention#EAGER} by default)
     */
    public Contention contention() {
        return contention;
    }

    /**
     * Rings allocated so far, the first included (dropped ones too): with the ring capacity,
     * what the queue has cost in memory over its life. It stays at 1 while consumers keep the
     * backlog below a ring.
     *
     * @return the count, from 1
     */
    public long ringsAllocated() {
        return lvRingsAllocated();
    }

    /**
     * A weakly consistent iterator over the elements, oldest first, across the rings, with the
     * guarantees of {@link ScqQueue#iterator()}. {@link Iterator#remove()} is not supported.
     *
     * <pre>{@code
     * List<Request> backlog = new ArrayList<>(ingress);   // a copy of what waits, oldest first
     * }</pre>
     *
     * @return the iterator
     */
    @Override
    public Iterator<E> iterator() {
        // the head ring, read before the last one so that the last is reachable
        final PrqRing first = lvHeadRing();
        final PrqRing last = RINGS.last(first);
        // after last was found: every offer that completed before this call put
        // its element below this position of last, or into an earlier ring
        return new PrqIterator<>(first, last, last.lvTail() & ~PrqRing.CLOSED);
    }
}

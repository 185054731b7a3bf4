package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.queue.QueueCounters.Event;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/** 120 bytes in front of the head counter (the int fills the hole after the object header). */
abstract class PrqRingPad0 {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The next position a dequeuer takes; only ever grows, by fetch-and-add. */
abstract class PrqRingHead extends PrqRingPad0 {
    long head;
}

/** 120 bytes between the head and tail counters. */
abstract class PrqRingPad1 extends PrqRingHead {
    int pi1;
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The next position an enqueuer takes, with the closed bit (bit 63). */
abstract class PrqRingTail extends PrqRingPad1 {
    long tail;
}

/** 120 bytes after the tail counter, in front of the read-mostly fields. */
abstract class PrqRingPad2 extends PrqRingTail {
    int pi2;
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/**
 * One ring of LPRQ (Romanov and Koval, "The State-of-the-Art LCRQ Concurrent Queue Algorithm
 * Does NOT Require CAS2", PPoPP 2023): a bounded ring that holds the element references
 * themselves, with fetch-and-add on two counters and single-width CAS on the cells, and that
 * can be <em>closed</em> to enqueuers (bit 63 of the tail) when it is full.
 *
 * <h2>Cells</h2>
 * Cell {@code j} is {@code epochs[j]}, whose low 63 bits are the lowest position that may still
 * use the cell and whose bit 63 is the UNSAFE flag (a dequeuer passed while an older element sat
 * there), and {@code values[j]}: null, an element, or a {@link Reservation} (an enqueuer claimed
 * an unsafe empty cell and is about to write the epoch). An element is position {@code p}'s only
 * once the epoch is {@code p + size}; before that it is an enqueuer's claim. Position {@code p}
 * uses cell {@code remap(p mod size)}.
 *
 * <h2>Enqueue at position t (from the tail's fetch-and-add)</h2>
 * CAS the value from null to the element (the claim), then CAS the epoch to {@code t + size}
 * (the publication) from {@code t}, the word an earlier lap leaves, or from the witness if it is
 * a safe word below {@code t}. No load comes first: each CAS takes its line in one transfer. A
 * dequeuer that passes the cell without taking an element changes the epoch word (moves it on
 * or sets UNSAFE), so the publication fails if any dequeuer of {@code t} or later has passed;
 * the enqueuer then takes its element back (no one else removes an unpublished element) and
 * tries a new position. A claim never looks published: while a value is null, the dequeuer of
 * the position its epoch names has been there. Epoch words only grow, so no CAS succeeds on a
 * word that changed and changed back.
 *
 * <p>If the word is unsafe, the enqueuer takes its claim back and, if no dequeuer has passed
 * {@code t}, takes the article's three steps (a dequeuer passing an unsafe cell that holds an
 * older element or claim may leave the word as it is): CAS the value from null to the thread's
 * own reservation, check again that the head has not passed {@code t}, CAS the epoch to
 * {@code t + size}, then CAS the reservation to the element. A dequeuer that gives up meanwhile
 * nulls the reservation and the last CAS fails; the reservation is unique to the thread, which
 * rules out the ABA that a shared one would allow (and that double-width CAS avoids in LCRQ).
 *
 * <h2>Dequeue at position h</h2>
 * An element with epoch {@code h + size}: take it (the value goes back to null). An element with
 * an older epoch (a late older lap, or an unpublished claim): wait a bounded number of spins while
 * an enqueuer may hold h, then mark the cell UNSAFE, which fails a claim's publication. Empty, or
 * a reservation under {@code h + size} (the enqueuer of h is swapping its element in): wait the
 * same bound, then invalidate it (epoch to {@code h + size}, reservation to null) so that
 * enqueuer retries. A reservation under an older epoch: change only the word (unsafe moves to
 * {@code h + size}, safe becomes unsafe). Then, if the tail is at or below {@code h + 1}, the
 * ring is empty: move the tail up to the head and report empty.
 *
 * <p>The invariant: until the dequeuer of h has settled it, an epoch of {@code h + size} comes
 * with h's element, claim or reservation, never with null; so the next lap cannot claim the cell
 * early, and a dequeuer that reads that epoch and then a value reads h's element. Nulling a
 * reservation under an older epoch before moving the epoch broke this when the enqueuer set its
 * epoch between the two steps: the next lap's element was taken ahead of older ones.
 *
 * <p>Counters are 63-bit and start at a given position: a ring can take 2^63 minus its size
 * operations, centuries at any realistic rate.
 */
final class PrqRing extends PrqRingPad2 {
    /** Bit 63 of an epoch word: a dequeuer passed while an older element was in the cell. */
    static final long UNSAFE = Long.MIN_VALUE;
    /** Bit 63 of the tail: the ring takes no more elements. */
    static final long CLOSED = Long.MIN_VALUE;
    /** Failed CAS attempts at closing exactly at one's own position before closing by OR. */
    static final int CLOSE_TRIES = 10;
    /** Positions an enqueuer may fail in one ring before it closes the ring and moves on. */
    static final int STARVATION_LIMIT = 128;
    /**
     * Spins a dequeuer waits on an empty cell while an enqueuer holds its position. The
     * enqueuer needs a few instructions between its fetch-and-add and its reservation; a longer
     * wait only pays when it was descheduled there, and then a time slice is too long to wait
     * anyway (the enqueuer retries at a new position instead). A bound of LPRQ's dequeue, not a
     * wait: when it runs out the dequeuer invalidates the cell for its position and moves on,
     * which decides which element it may take, so it stays here and not in a {@code Backoff}.
     */
    static final int ENQUEUER_PATIENCE = 32;
    /** Rotation that spreads consecutive positions 16 cells apart (128-byte lines of longs). */
    static final int REMAP_SHIFT = 4;

    private static final VarHandle HEAD = FieldHandles.of(PrqRingHead.class, "head", long.class);
    private static final VarHandle TAIL = FieldHandles.of(PrqRingTail.class, "tail", long.class);
    private static final VarHandle NEXT = FieldHandles.of(PrqRing.class, "next", PrqRing.class);
    private static final VarHandle EPOCHS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle VALUES = MethodHandles.arrayElementVarHandle(Object[].class);

    /** The placeholder an enqueuer puts into an unsafe empty cell before it writes the epoch. */
    static final class Reservation {
        @Override
        public String toString() {
            return "reservation of " + Thread.currentThread().getName();
        }
    }

    /** Each thread's reservation: unique to the thread, shared by every ring it uses. */
    private static final ThreadLocal<Reservation> RESERVATION = ThreadLocal.withInitial(Reservation::new);

    final long[] epochs;
    final Object[] values;
    /** Cells in the ring, a power of two. */
    final int size;
    private final int mask;
    private final int bits;
    private final int remapShift;
    /** The position the ring started at: the counters never go below it. */
    final long start;
    /**
     * The ring after this one, or {@link LprqQueue#CLOSED_LINK} once the queue is closed; set
     * once, by CAS, only after this ring was closed.
     */
    PrqRing next;
    /** {@link LprqQueue.Contention#BACK_OFF}: pause after a failed position before the next. */
    private final boolean backOff;
    /**
     * {@link LprqQueue.Contention#WAIT_FOR_OFFER}: a dequeuer whose position is at or past the
     * tail waits, as for an enqueuer that holds its position, before it passes the cell.
     */
    private final boolean waitForOffer;

    /** A ring with {@link LprqQueue.Contention#EAGER} contention (see the full constructor). */
    PrqRing(final int size, final boolean remap, final long start, final Object first) {
        this(size, remap, start, first, LprqQueue.Contention.EAGER);
    }

    /**
     * A ring whose counters start at {@code start}, optionally holding one element already (at
     * position {@code start}), for the thread that links it: it is not yet shared, so plain
     * writes suffice; the CAS that links it publishes them. {@code size} is a power of two,
     * {@code 0 <= start < 2^62}.
     */
    PrqRing(final int size, final boolean remap, final long start, final Object first,
            final LprqQueue.Contention contention) {
        this.backOff = contention == LprqQueue.Contention.BACK_OFF;
        this.waitForOffer = contention == LprqQueue.Contention.WAIT_FOR_OFFER;
        this.size = size;
        this.mask = size - 1;
        this.bits = Integer.numberOfTrailingZeros(size);
        this.remapShift = remap && bits > REMAP_SHIFT ? REMAP_SHIFT : 0;
        this.start = start;
        this.epochs = new long[size];
        this.values = new Object[size];
        // every cell may first be used by any position from start on: no earlier position
        // maps to it in this ring
        Arrays.fill(epochs, start);
        head = start;
        tail = start;
        if (first != null) {
            final int j = cell(start);
            values[j] = first;
            epochs[j] = start + size;
            tail = start + 1;
        }
    }

    /** The cell of position {@code p}: rotated so that neighbouring positions do not share a line. */
    int cell(final long p) {
        final int i = (int) p & mask;
        return ((i << remapShift) | (i >>> (bits - remapShift))) & mask;
    }

    long lvHead() {
        return (long) HEAD.getVolatile(this);
    }

    long lvTail() {
        return (long) TAIL.getVolatile(this);
    }

    PrqRing lvNext() {
        return (PrqRing) NEXT.getVolatile(this);
    }

    boolean casNext(final PrqRing ring) {
        // publishes the new ring's plain initialisation (release) to the threads that read next
        // with lvNext (acquire)
        return NEXT.compareAndSet(this, null, ring);
    }

    private long faaHead(final long delta) {
        return (long) HEAD.getAndAdd(this, delta);
    }

    private long faaTail(final long delta) {
        return (long) TAIL.getAndAdd(this, delta);
    }

    private boolean casTail(final long expected, final long value) {
        return TAIL.compareAndSet(this, expected, value);
    }

    /** The old word is not needed, so the JIT may emit a plain atomic OR. */
    private void faoTail(final long bits) {
        TAIL.getAndBitwiseOr(this, bits);
    }

    long lvEpoch(final int j) {
        return (long) EPOCHS.getVolatile(epochs, j);
    }

    Object lvValue(final int j) {
        return VALUES.getVolatile(values, j);
    }

    /** Returns the witness, so that a failed CAS needs no second load. */
    private long caxEpoch(final int j, final long expected, final long value) {
        return (long) EPOCHS.compareAndExchange(epochs, j, expected, value);
    }

    /** Returns the witness, so that a failed CAS needs no second load. */
    private Object caxValue(final int j, final Object expected, final Object value) {
        return VALUES.compareAndExchange(values, j, expected, value);
    }

    private void soValue(final int j, final Object value) {
        VALUES.setRelease(values, j, value);
    }

    private boolean casEpoch(final int j, final long expected, final long value) {
        return EPOCHS.compareAndSet(epochs, j, expected, value);
    }

    private boolean casValue(final int j, final Object expected, final Object value) {
        return VALUES.compareAndSet(values, j, expected, value);
    }

    /**
     * Enqueues {@code e} unless the ring is closed (or closes it: when full, or when this
     * enqueuer has failed {@link #STARVATION_LIMIT} positions).
     *
     * <p>The common case, one position that takes the element, is kept small enough for the
     * JIT to inline into the caller's loop; a position that fails goes to
     * {@link #offerAfterMiss}, which the common case never reaches.
     */
    boolean offer(final Object e) {
        // the position; volatile, so the cell reads stay after it
        final long t = faaTail(1L);
        if (t < 0) {
            return false; // closed bit
        }
        if (enqueueAt(t, e)) {
            return true;
        }
        return offerAfterMiss(e, t);
    }

    /**
     * Position {@code t} did not take the element: closes the ring if it is full or this
     * enqueuer is starving, else takes new positions until one takes the element.
     */
    private boolean offerAfterMiss(final Object e, final long missed) {
        int closeTries = 0;
        int failures = 0;
        long t = missed;
        while (true) {
            QueueCounters.count(Event.ENQUEUE_RETRY); // position t did not take the element
            if (t - lvHead() >= size || ++failures > STARVATION_LIMIT) {
                if (close(t, ++closeTries > CLOSE_TRIES || failures > STARVATION_LIMIT)) {
                    QueueCounters.count(Event.RING_CLOSED);
                    return false;
                }
                QueueCounters.count(Event.CAS_FAILED); // another enqueuer took a position meanwhile
            }
            if (backOff) {
                ContentionBackOff.pause(failures);
            }
            t = faaTail(1L);
            if (t < 0) {
                return false; // closed bit
            }
            if (enqueueAt(t, e)) {
                return true;
            }
        }
    }

    /** Puts {@code e} into the cell of position {@code t} if that position may still use it. */
    private boolean enqueueAt(final long t, final Object e) {
        final int j = cell(t);
        // the claim, with no load of the cell before it. A load first would bring
        // the line over shared and the CAS would then have to take it again; the CAS takes it
        // once. A non-null witness means the cell is occupied (an element, a claim or a
        // reservation), and position t cannot use it
        if (caxValue(j, null, e) != null) {
            QueueCounters.count(Event.CELL_OCCUPIED);
            return false;
        }
        // the publication, expecting the epoch an earlier lap leaves behind
        // (position t - size published or passed: exactly t). Epoch words only grow, so a word
        // still at t means no dequeuer of position t or later has passed the cell
        long epoch = caxEpoch(j, t, t + size);
        if (epoch == t) {
            return true;
        }
        // the witness: a safe word below t (a new ring's first lap, or an earlier lap left
        // unfinished) may still be used, from that word
        if (epoch >= 0 && epoch < t && casEpoch(j, epoch, t + size)) {
            return true;
        }
        // position t is passed or the cell is unsafe: the element is unpublished and no other
        // thread removes an unpublished element, so a release store takes it back (before any
        // later lap can claim the cell, which needs the null)
        soValue(j, null);
        if (epoch < 0) {
            // the word to reserve from
            epoch = lvEpoch(j);
            return epoch < 0 && (epoch & ~UNSAFE) <= t && lvHead() <= t && enqueueIntoUnsafe(j, t, epoch, e);
        }
        return false;
    }

    /**
     * Puts {@code e} into the unsafe cell {@code j} for position {@code t} through the thread's
     * reservation: reserve, check that no dequeuer has taken position {@code t}, publish the
     * epoch, then swap the element in.
     */
    private boolean enqueueIntoUnsafe(final int j, final long t, final long epoch, final Object e) {
        final Reservation reservation = RESERVATION.get();
        // volatile CASes and load, in this order: reserve the value, read the head, mark the
        // epoch, then publish the element (the release that pairs with the dequeuer's volatile
        // load)
        if (casValue(j, null, reservation)) {
            // The head after the reservation, not only before it: a dequeuer that passes this
            // unsafe cell while it holds another enqueuer's claim leaves the word as it is, and
            // that claim may be taken back before this CAS. A head still at or below t means the
            // dequeuer of t takes its position after the reservation is in place, so it finds
            // the reservation (and nulls it, failing the last CAS) or the published element.
            if (lvHead() <= t && casEpoch(j, epoch, t + size)) {
                // false: a dequeuer gave up on position t and nulled the reservation
                return casValue(j, reservation, e);
            }
            casValue(j, reservation, null);
        }
        return false;
    }

    /**
     * Closes the ring: exactly behind position {@code t} if no enqueuer took a position since
     * (so that no position is wasted), or unconditionally when {@code force}.
     */
    private boolean close(final long t, final boolean force) {
        if (!force) {
            return casTail(t + 1, (t + 1) | CLOSED);
        }
        // positions taken after it see the bit and fail
        faoTail(CLOSED);
        return true;
    }

    /**
     * Closes the ring to enqueuers for good, whatever the positions taken: for
     * {@link LprqQueue#close()} (an offer that refuses a ring closes it in {@code offer}).
     */
    void closeTail() {
        // positions taken after it see the bit and fail; a thread that reads the queue's closed
        // link (CASed after this) sees the bit too
        faoTail(CLOSED);
    }

    /**
     * Whether no position between head and tail is left: a dequeue now would find nothing.
     * Head is read before tail, so a true answer held at the moment tail was read.
     */
    boolean isEmpty() {
        final long h = lvHead();
        return !hasPositions(h, lvTail());
    }

    /**
     * Whether a ring whose head read {@code head}, and whose tail read {@code tail} after it, was
     * empty with its tail open at the moment the tail was read. A ring is closed before a
     * successor is linked to it, so an open ring was then the queue's last ring.
     *
     * <p>One compare: with both sign bits flipped a signed compare orders the two as unsigned
     * numbers, and a closed tail (bit 63 set) is then above every head. On JDK 17 this form is
     * what makes the queue's empty poll three loads and one branch; {@code Long.compareUnsigned}
     * compiles to a three-way compare and made the same poll slower than four loads
     * (docs/benchmarks/history/speed-study.md, eighteenth series).
     */
    static boolean isOpenAndEmpty(final long head, final long tail) {
        return (head ^ Long.MIN_VALUE) >= (tail ^ Long.MIN_VALUE);
    }

    /**
     * Whether a ring whose head read {@code head}, and whose tail read {@code tail} after it, had
     * a position left for a dequeuer, closed or not.
     */
    static boolean hasPositions(final long head, final long tail) {
        return head < (tail & ~CLOSED);
    }

    /** Dequeues the oldest element, or null if the ring was empty. */
    Object poll() {
        if (isEmpty()) {
            return null; // no write to head on an empty ring
        }
        return take();
    }

    /**
     * Takes a position and its element; for a caller that has just seen positions left (an
     * empty ring's head is never moved by a poll).
     *
     * <p>The common case, a position whose element is there, is kept small enough for the JIT
     * to inline into the caller's loop; anything else goes to {@link #pollAfterMiss}.
     */
    Object take() {
        final long h = faaHead(1L);
        final int j = cell(h);
        // epoch first (see offer)
        final long epoch = lvEpoch(j);
        final Object v = lvValue(j);
        if ((epoch & ~UNSAFE) == h + size && v != null && !(v instanceof Reservation)) {
            // after the read of the element above; the enqueuer of the next lap CASes the null,
            // so it cannot overwrite before this read
            soValue(j, null);
            return v;
        }
        return pollAfterMiss(h);
    }

    /**
     * Position {@code h} had no element for this dequeuer at first look: settles its cell, and
     * takes new positions until one gives an element or the ring is found empty.
     */
    private Object pollAfterMiss(final long missed) {
        long h = missed;
        int failures = 0;
        while (true) {
            final Object v = takeOrPass(h);
            if (v != null) {
                return v;
            }
            QueueCounters.count(Event.DEQUEUE_RETRY);
            if ((lvTail() & ~CLOSED) <= h + 1) {
                fixState();
                return null;
            }
            if (backOff) {
                ContentionBackOff.pause(++failures);
            }
            h = faaHead(1L);
        }
    }

    /**
     * Takes the element of position {@code h} (already this dequeuer's), or leaves the cell so
     * that no enqueuer can put an element there for {@code h} or an earlier lap.
     */
    private Object takeOrPass(final long h) {
        final int j = cell(h);
        final long mine = h + size;
        int spins = 0;
        while (true) {
            // epoch first (see offer)
            final long epoch = lvEpoch(j);
            final Object v = lvValue(j);
            final long index = epoch & ~UNSAFE;
            if (index > mine) {
                return null; // a later lap already passed: nothing for position h
            }
            if (v != null && !(v instanceof Reservation)) {
                if (index == mine) {
                    // as in take()
                    soValue(j, null);
                    return v;
                }
                // an enqueuer may hold position h and be about to publish its
                // claim; give it the same bounded wait as an empty cell
                final long tail = lvTail();
                if (epoch >= 0 && (tail & ~CLOSED) > h && tail >= 0 && spins++ <= ENQUEUER_PATIENCE) {
                    QueueCounters.count(Event.ENQUEUER_WAIT);
                    Thread.onSpinWait();
                    continue;
                }
                // an element of an older lap whose dequeuer is late, or a claim not published:
                // make the cell unsafe, so that no enqueuer of a lap this dequeuer has passed
                // uses it and the claim's publication (a CAS from the safe word) fails. An
                // already unsafe word needs no change: a claim made on the safe word fails on
                // it, and an unsafe cell is claimed only through a reservation
                if (epoch < 0) {
                    if (lvEpoch(j) == epoch) {
                        return null;
                    }
                } else if (casEpoch(j, epoch, epoch | UNSAFE)) {
                    QueueCounters.count(Event.CELL_PASSED);
                    return null;
                } else {
                    QueueCounters.count(Event.CAS_FAILED);
                }
            } else if (v != null && index < mine) {
                // a reservation under an epoch older than h's: never null it here (that broke the
                // invariant of the class comment); change only the word: an unsafe word moves to
                // h + size, failing the reservation's epoch CAS; a safe one (the element follows)
                // is marked unsafe, as for an older lap's element
                if (casEpoch(j, epoch, epoch < 0 ? UNSAFE | mine : epoch | UNSAFE)) {
                    QueueCounters.count(Event.CELL_PASSED);
                    return null;
                }
                QueueCounters.count(Event.CAS_FAILED);
            } else {
                // empty, or this position's own reservation (a reservation under the epoch
                // h + size can only be that of the enqueuer of h)
                // a close or a tail fixed back behind h ends the wait at once
                final long tail = lvTail();
                // (with WAIT_FOR_OFFER a tail at or below h waits too: this dequeuer overtook
                // the offer coming for h, which is likely on its way)
                if (epoch < 0 || tail < 0 || spins > ENQUEUER_PATIENCE
                        || ((tail & ~CLOSED) <= h && !waitForOffer)) {
                    // no enqueuer is coming for position h, or it took too long: invalidate
                    // the cell for h (a reservation goes first, failing its enqueuer)
                    if (v != null && !casValue(j, v, null)) {
                        QueueCounters.count(Event.CAS_FAILED);
                        continue;
                    }
                    if (casEpoch(j, epoch, (epoch & UNSAFE) | mine)) {
                        QueueCounters.count(Event.CELL_PASSED);
                        return null;
                    }
                    QueueCounters.count(Event.CAS_FAILED);
                } else {
                    QueueCounters.count(Event.ENQUEUER_WAIT);
                    Thread.onSpinWait();
                }
                spins++;
            }
        }
    }

    /** Moves the tail up to the head after dequeuers overran it; never reopens a closed ring. */
    private void fixState() {
        while (true) {
            final long t = lvTail();
            final long h = lvHead();
            if (lvTail() != t) {
                continue;
            }
            if (t < 0 || h <= t) {
                return;
            }
            if (casTail(t, h)) {
                QueueCounters.count(Event.TAIL_FIXED);
                return;
            }
            QueueCounters.count(Event.CAS_FAILED);
        }
    }

    /**
     * The element at position {@code p} if one is there now, validated by its epoch (read after
     * the value: an element of a later lap is written only after the epoch moved past
     * {@code p + size}).
     */
    Object elementAt(final long p) {
        final int j = cell(p);
        final Object v = lvValue(j);
        if (v == null || v instanceof Reservation) {
            return null;
        }
        return (lvEpoch(j) & ~UNSAFE) == p + size ? v : null;
    }

    /** The first position worth looking at for an element: the head, read now. */
    long firstPosition() {
        return lvHead();
    }

    /**
     * One past the last position that can hold an element: the tail, read now. Not a ring's
     * length past the head: an offer publishes at its position whenever the cell's epoch word is
     * still a safe position below it, which is the case while every earlier position of that cell
     * was skipped (taken by an offer that failed there, none published or passed), so an element
     * can sit a lap or more past the head. The walk stays short: an offer that fails at a position
     * a ring's length past the head closes the ring.
     */
    long endPosition() {
        return lvTail() & ~CLOSED;
    }

    /** Counts the elements between head and tail: exact when no other thread operates. */
    long countElements() {
        final long from = firstPosition();
        final long end = endPosition();
        long n = 0;
        for (long p = from; p < end; p++) {
            if (elementAt(p) != null) {
                n++;
            }
        }
        return n;
    }

    /** The oldest element present, without removing it; weakly consistent. */
    Object peek() {
        final long from = firstPosition();
        final long end = endPosition();
        for (long p = from; p < end; p++) {
            final Object v = elementAt(p);
            if (v != null) {
                return v;
            }
        }
        return null;
    }
}

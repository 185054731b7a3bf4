package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.queue.QueueCounters.Event;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** 120 bytes before the head counter (the int fills the hole after the object header). */
abstract class IndexRingPad0 {
    int pi0;
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14;
}

/** The dequeuers' counter: every dequeue round takes a position from it by fetch-and-add. */
abstract class IndexRingHead extends IndexRingPad0 {
    long head;
}

/** 120 bytes between head and tail. */
abstract class IndexRingPad1 extends IndexRingHead {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34;
}

/** The enqueuers' counter; bit 63 is the finalize bit on a finalizable ring. */
abstract class IndexRingTail extends IndexRingPad1 {
    long tail;
}

/** 120 bytes between tail and threshold. */
abstract class IndexRingPad2 extends IndexRingTail {
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54;
}

/** Failed dequeue rounds left before the ring is known empty; negative means empty. */
abstract class IndexRingThreshold extends IndexRingPad2 {
    long threshold;
}

/** 120 bytes after the threshold, so the read-only fields below stay clean. */
abstract class IndexRingPad3 extends IndexRingThreshold {
    long p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p70, p71, p72, p73, p74;
}

/**
 * One SCQ ring of indices (Nikolaev, DISC 2019): a lock-free FIFO of the small integers
 * {@code 0 .. n-1} in {@code 2n} entries of a {@code long[]}, driven by fetch-and-add on a head
 * and a tail counter and a single-width CAS per entry.
 *
 * <p>Entry word: bits {@code 0 .. order} hold the index ({@code 2n - 1}, all ones, is the empty
 * index, written {@code ⊥}), bit {@code order + 1} is IsSafe, bits {@code order + 2 .. 63} the
 * cycle (the lap of the ring the entry was last written for). A counter position {@code p} maps
 * to entry {@code remap(p mod 2n)} and cycle {@code p / 2n}; {@code (p << 1) | (4n - 1)} is its
 * cycle in entry form, so two cycles compare by OR-ing both words with {@code 4n - 1} and taking
 * the signed difference, which stays right when the counters wrap around 64 bits.
 *
 * <p>The caller guarantees that at most {@code n} indices are in the ring at once, so
 * {@link #enqueue(int)} always finds room. {@link #dequeue()} returns {@link #EMPTY} without
 * touching the ring once {@code threshold} is negative: it is reset by every enqueue and
 * decremented by every failed dequeue round, and starts at {@code 2n + k - 1} where
 * {@code k = max(n, 64)} is the number of threads the ring supports at once (the paper's
 * {@code 3n - 1} for {@code n >= 64}; the floor keeps tiny rings exact for up to 64 threads).
 *
 * <p>A finalizable ring (the allocated ring of an LSCQ segment) reserves bit 63 of the tail: once
 * {@link #finalizeRing()} sets it, every later enqueue fails, and catch-up never clears it.
 * Counters of such a ring must therefore stay below {@code 2^63}.
 */
final class IndexRing extends IndexRingPad3 {
    /** What {@link #dequeue()} returns when the ring is empty. */
    static final int EMPTY = -1;
    /** Bit 63 of a finalizable ring's tail: set, no enqueue may succeed any more. */
    static final long FINALIZE = Long.MIN_VALUE;
    /** The largest order: 2^29 indices need 2^30 entries, the most a long[] comfortably holds. */
    static final int MAX_ORDER = 29;
    /** Threads the threshold tolerates in one ring, at least, whatever its size. */
    static final int MIN_THREADS = 64;
    /** Unused longs on each side of the entries, so no other object shares their cache lines. */
    static final int ENTRY_PAD = 16;
    /** Rotation of the entry number: 16 longs, 128 bytes, apart for neighbouring positions. */
    static final int REMAP_SHIFT = 4;
    /**
     * Re-reads of an empty entry a dequeuer makes while an enqueuer is probably about to fill it.
     * A bound of the dequeue step, not a wait: when it runs out the dequeuer closes the entry for
     * its lap and moves on (it never yields or parks here), so it decides which element a dequeuer
     * may still take and belongs to the algorithm, not to a {@code Backoff}.
     */
    static final int DEQUEUE_SPINS = 16;

    private static final VarHandle HEAD = FieldHandles.of(IndexRingHead.class, "head", long.class);
    private static final VarHandle TAIL = FieldHandles.of(IndexRingTail.class, "tail", long.class);
    private static final VarHandle THRESHOLD = FieldHandles.of(IndexRingThreshold.class, "threshold", long.class);
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] entries;
    /** log2 of the number of indices. */
    private final int order;
    /** order + 1: the width of the index field and of an entry number. */
    private final int entryBits;
    /** 2n - 1: masks an entry number; also the index field, and the empty index ⊥ itself. */
    private final int entryMask;
    /** 2n: the IsSafe bit. */
    private final long safeBit;
    /** 4n - 1: index and IsSafe bits, OR-ed into words before their cycles are compared. */
    private final long cycleMask;
    /** Rotation applied to entry numbers: REMAP_SHIFT clamped, or 0 with remap off. */
    private final int remapShift;
    /** The threshold a successful enqueue restores (package-private: tests compare with it). */
    final long thresholdMax;
    /** FINALIZE for a finalizable ring, 0 otherwise (then the tail may use all 64 bits). */
    private final long finalizeMask;

    /**
     * Creates a ring.
     *
     * @param order log2 of the number of indices, 0 to {@link #MAX_ORDER}
     * @param remap whether neighbouring positions are spread over different cache lines
     * @param full whether the ring starts holding every index {@code 0 .. n-1} (in the order
     *     {@link #spreadIndex} gives) instead of empty
     * @param start the first position of head and tail (near the top of the range in tests)
     * @param finalizable whether bit 63 of the tail is the finalize bit
     */
    IndexRing(final int order, final boolean remap, final boolean full, final long start,
              final boolean finalizable) {
        if (order < 0 || order > MAX_ORDER) {
            throw new IllegalArgumentException("order must be between 0 and " + MAX_ORDER + ", got " + order);
        }
        final int n = 1 << order;
        final int entryCount = n << 1;
        this.order = order;
        this.entryBits = order + 1;
        this.entryMask = entryCount - 1;
        this.safeBit = entryCount;
        this.cycleMask = (2L * entryCount) - 1;
        this.remapShift = remap ? Math.min(REMAP_SHIFT, Math.max(0, entryBits - 1)) : 0;
        this.thresholdMax = 2L * n + Math.max(n, MIN_THREADS) - 1;
        this.finalizeMask = finalizable ? FINALIZE : 0L;
        if (finalizable && (start < 0 || start > (1L << 62))) {
            throw new IllegalArgumentException("start of a finalizable ring must be between 0 and 2^62, got " + start);
        }
        final long[] e = new long[entryCount + 2 * ENTRY_PAD];
        for (int k = 0; k < entryCount; k++) {
            final long position = start + k;
            e[slot(position)] = (full && k < n)
                    // cycle of the position, safe, holding the k-th index
                    ? (cycleWord(position) & ~(long) entryMask) | spreadIndex(k, order, remap)
                    // the lap before the position's: safe, ⊥, usable by the first enqueuer
                    : cycleWord(position) - (2L * entryCount);
        }
        this.entries = e;
        // Plain stores: the ring reaches other threads through a final field or a volatile
        // reference (an LSCQ segment's link), which publishes everything written here.
        this.head = start;
        this.tail = full ? start + n : start;
        this.threshold = full ? thresholdMax : -1L;
    }

    /**
     * The index a full ring holds at its k-th position: with remap on, consecutive positions
     * hold indices 16 apart, so that neighbouring elements of the data array are not written by
     * two threads at once.
     */
    static int spreadIndex(final int k, final int order, final boolean remap) {
        final int shift = remap ? Math.min(REMAP_SHIFT, Math.max(0, order - 1)) : 0;
        final int mask = (1 << order) - 1;
        return ((k << shift) | (k >>> (order - shift))) & mask;
    }

    /** The array element of a position: rotation of its low entryBits bits, past the padding. */
    int slot(final long position) {
        final int j = (int) position & entryMask;
        return ENTRY_PAD + (((j << remapShift) | (j >>> (entryBits - remapShift))) & entryMask);
    }

    /** A position's cycle in entry form: cycle bits, with the index and IsSafe bits all ones. */
    long cycleWord(final long position) {
        return (position << 1) | cycleMask;
    }

    /**
     * Puts {@code index} at the tail.
     *
     * @param index an index in {@code 0 .. n-1} not currently in the ring
     * @return true; false only on a finalized ring
     */
    boolean enqueue(final int index) {
        // Hot path, small enough to be inlined into the queue's offer and poll.
        final long t = faaTail(1L);
        if ((t & finalizeMask) != 0) {
            return false;
        }
        final long tCycle = cycleWord(t);
        // the usual state of the entry: previous lap, safe, ⊥ (consumed, or closed by a dequeuer)
        final long usual = tCycle - (cycleMask + 1);
        // No load first: CAS straight from the usual state, so that the cache line comes over
        // once, for writing, instead of once to read and again to write.
        // publishes the caller's write of data[index] with the index
        final long witness = caxEntry(entries, slot(t), usual, (tCycle & ~(long) entryMask) | index);
        if (witness == usual) {
            resetThresholdIfNeeded();
            return true;
        }
        return enqueueSlow(index, t, witness);
    }

    /**
     * The rest of an enqueue whose first CAS at position {@code t} found {@code entry} instead of
     * the usual state: use the entry if it is usable, else claim new positions until one is.
     */
    private boolean enqueueSlow(final int index, long t, long entry) {
        final long[] e = entries;
        while (true) {
            final long tCycle = cycleWord(t);
            final int j = slot(t);
            // cycle of t, safe, our index
            final long desired = (tCycle & ~(long) entryMask) | index;
            while ((entry | cycleMask) - tCycle < 0
                    && (entry & entryMask) == entryMask
                    // an unsafe entry is usable while no dequeuer passed t
                    && ((entry & safeBit) != 0 || lvHead() - t <= 0)) {
                // publishes the caller's write of data[index] with the index
                final long witness = caxEntry(e, j, entry, desired);
                if (witness == entry) {
                    resetThresholdIfNeeded();
                    return true;
                }
                QueueCounters.count(Event.CAS_FAILED);
                entry = witness;
            }
            // not usable: claim another position, one no other enqueuer gets
            QueueCounters.count(Event.ENQUEUE_RETRY);
            t = faaTail(1L);
            if ((t & finalizeMask) != 0) {
                return false;
            }
            // the entry as the last dequeuer or enqueuer of this slot left it
            entry = lvEntry(e, slot(t));
        }
    }

    /** After a successful enqueue: dequeuers must search again. */
    private void resetThresholdIfNeeded() {
        // a later threshold check sees this enqueue done; the load keeps the line shared while
        // the threshold is already at its maximum
        if (lvThreshold() != thresholdMax) {
            svThreshold(thresholdMax);
        }
    }

    /**
     * Takes the index at the head.
     *
     * @return an index in {@code 0 .. n-1}, or {@link #EMPTY}
     */
    int dequeue() {
        // Hot path, small enough to be inlined into the queue's poll and offer.
        // negative after enough failed rounds, until an enqueue resets it
        if (lvThreshold() < 0) {
            return EMPTY;
        }
        final long h = faaHead(1L);
        final int j = slot(h);
        // sees the enqueuer's CAS and, through it, the data it published
        final long entry = lvEntry(entries, j);
        if ((entry | cycleMask) == cycleWord(h) && (entry & entryMask) != entryMask) {
            markConsumed(entries, j, entry);
            return (int) (entry & entryMask);
        }
        return dequeueSlow(h, entry);
    }

    /**
     * Marks entry {@code j}, read as {@code entry} holding this dequeuer's index, consumed: its
     * index becomes ⊥, its cycle and IsSafe stay. This is the paper's atomic OR with ⊥, done as an
     * atomic add of {@code ⊥ - index}: while the entry holds an index, no other thread changes its
     * index bits (enqueuers write only over ⊥, a late dequeuer of the next lap only clears
     * IsSafe), so the add turns exactly those bits to ⊥ with no carry into IsSafe or the cycle.
     * An add whose result is unused is one locked instruction, where an OR that returns the old
     * word is a load and a CAS loop.
     */
    private void markConsumed(final long[] e, final int j, final long entry) {
        // atomic: keeps cycle and IsSafe, which a late dequeuer of the next lap may be clearing
        // at this very moment (a plain store would undo that and lose an element)
        faaEntry(e, j, (long) entryMask - (entry & entryMask));
    }

    /**
     * The rest of a dequeue whose position {@code h} did not hold its index when first read as
     * {@code entry}: settle that entry, then try further positions while the threshold lasts.
     */
    private int dequeueSlow(long h, long entry) {
        final long[] e = entries;
        while (true) {
            final long hCycle = cycleWord(h);
            final int j = slot(h);
            examine:
            while (true) {
                final long diff = (entry | cycleMask) - hCycle;
                if (diff == 0) {
                    if ((entry & entryMask) != entryMask) {
                        markConsumed(e, j, entry);
                        return (int) (entry & entryMask);
                    }
                    break; // ⊥ in our own lap: nothing to take (defensive, no path writes it first)
                }
                if (diff > 0) {
                    break; // a later lap already wrote it: position h holds nothing
                }
                final long desired;
                if ((entry & entryMask) != entryMask) {
                    // an older lap's index whose dequeuer is late: no enqueuer of our lap may use it
                    desired = entry & ~safeBit;
                    if (desired == entry) {
                        break;
                    }
                } else {
                    // ⊥ of an older lap: if enqueuers are ahead of us, the one holding position h
                    // is probably about to fill it; give it a moment before closing the entry
                    if ((lvTail() & ~finalizeMask) - (h + 1) > 0) {
                        for (int spin = 0; spin < DEQUEUE_SPINS; spin++) {
                            QueueCounters.count(Event.ENQUEUER_WAIT);
                            Thread.onSpinWait();
                            final long now = lvEntry(e, j);
                            if (now != entry) {
                                entry = now;
                                continue examine;
                            }
                        }
                    }
                    // close it: our cycle, ⊥, IsSafe kept as it is (setting it would let an
                    // enqueuer of our lap use an entry a late dequeuer still owns)
                    desired = (hCycle & ~safeBit) | (entry & safeBit);
                }
                // fails if an enqueuer or late dequeuer got there first
                final long witness = caxEntry(e, j, entry, desired);
                if (witness == entry) {
                    QueueCounters.count(Event.CELL_PASSED);
                    break;
                }
                QueueCounters.count(Event.CAS_FAILED);
                entry = witness;
            }
            final long t = lvTail();
            if ((t & ~finalizeMask) - (h + 1) <= 0) {
                catchup(t, h + 1);
                faaThreshold(-1L);
                return EMPTY;
            }
            // one failed round; the ring is empty once none is left
            if (faaThreshold(-1L) <= 0) {
                return EMPTY;
            }
            QueueCounters.count(Event.DEQUEUE_RETRY);
            h = faaHead(1L);
            entry = lvEntry(e, slot(h));
        }
    }

    /**
     * Moves the tail up to the head after dequeuers overran it, so that the next enqueuer does
     * not walk through positions already closed. Never touches a finalized tail.
     */
    private void catchup(long t, long h) {
        while ((t & finalizeMask) == 0 && t - h < 0) {
            // fails if an enqueuer moved the tail meanwhile
            if (casTail(t, h)) {
                QueueCounters.count(Event.TAIL_FIXED);
                return;
            }
            QueueCounters.count(Event.CAS_FAILED);
            h = lvHead();
            t = lvTail();
        }
    }

    /** Sets the finalize bit: every enqueue that starts afterwards fails. */
    void finalizeRing() {
        // atomic: later FAAs on the tail all return a word with the bit set
        faoTail(FINALIZE);
    }

    /** Restores the threshold, so that the next dequeue searches the ring again. */
    void resetThreshold() {
        // the next dequeue's threshold check sees it
        svThreshold(thresholdMax);
    }

    /**
     * The index held at a position, for a peek: the entry at {@code position} read with
     * {@link #lvEntryAt}, if it was written for that position's lap and not consumed.
     *
     * @return the index, or -1
     */
    int indexAt(final long entry, final long position) {
        if ((entry | cycleMask) == cycleWord(position) && (entry & entryMask) != entryMask) {
            return (int) (entry & entryMask);
        }
        return -1;
    }

    /** The entry word of a position; a peek validates what it read against it. */
    long lvEntryAt(final long position) {
        return lvEntry(entries, slot(position));
    }

    /** The tail counter without its finalize bit. */
    long lvTailPosition() {
        return lvTail() & ~finalizeMask;
    }

    long lvHead() {
        return (long) HEAD.getVolatile(this);
    }

    private long faaHead(final long delta) {
        return (long) HEAD.getAndAdd(this, delta);
    }

    /** The raw tail counter, finalize bit included. */
    long lvTail() {
        return (long) TAIL.getVolatile(this);
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

    long lvThreshold() {
        return (long) THRESHOLD.getVolatile(this);
    }

    private void svThreshold(final long value) {
        THRESHOLD.setVolatile(this, value);
    }

    private long faaThreshold(final long delta) {
        return (long) THRESHOLD.getAndAdd(this, delta);
    }

    private static long lvEntry(final long[] e, final int j) {
        return (long) ENTRIES.getVolatile(e, j);
    }

    /** Returns the witness, so that a failed CAS needs no second load. */
    private static long caxEntry(final long[] e, final int j, final long expected, final long value) {
        return (long) ENTRIES.compareAndExchange(e, j, expected, value);
    }

    /** The result is not used, so the add is one locked instruction (see markConsumed). */
    private static void faaEntry(final long[] e, final int j, final long delta) {
        ENTRIES.getAndAdd(e, j, delta);
    }

    @Override
    public String toString() {
        return "IndexRing[order=" + order + ", head=" + lvHead() + ", tail=" + lvTail()
                + ", threshold=" + lvThreshold() + "]";
    }
}

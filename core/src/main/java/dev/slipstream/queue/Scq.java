package dev.slipstream.queue;

import java.lang.invoke.VarHandle;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One bounded SCQ of references: a ring of free indices ({@code fq}, starts full), a ring of
 * allocated indices ({@code aq}, starts empty) and the data array the indices point into.
 * {@link ScqQueue} is one of these; {@link LscqQueue} links them as segments.
 *
 * <p>{@code data[i]} is read and written with plain accesses: the writer owns index {@code i}
 * between taking it from one ring and putting it into the other, and the rings' volatile CAS and
 * volatile loads order each owner's accesses before the next owner's.
 */
class Scq {
    /** Unused references on each side of the data, so no other object shares their cache lines. */
    static final int DATA_PAD = 32;

    final IndexRing fq;
    final IndexRing aq;
    /** The elements, at {@code DATA_PAD + index}; package-private so that tests can inspect it. */
    final Object[] data;
    private final int capacity;
    /** Whether this is an LSCQ segment: a failed offer finalizes {@code aq}. */
    private final boolean finalizable;

    Scq(final int order, final boolean remap, final long start, final boolean finalizable) {
        this.fq = new IndexRing(order, remap, true, start, false);
        this.aq = new IndexRing(order, remap, false, start, finalizable);
        this.capacity = 1 << order;
        this.data = new Object[capacity + 2 * DATA_PAD];
        this.finalizable = finalizable;
    }

    final int capacity() {
        return capacity;
    }

    /** Inserts {@code e} if a free index is left; on a finalizable segment, false also means it is now finalized. */
    final boolean offer(final Object e) {
        final int i = fq.dequeue();
        if (i == IndexRing.EMPTY) {
            if (finalizable) {
                aq.finalizeRing();
                QueueCounters.count(QueueCounters.Event.RING_CLOSED);
            }
            return false;
        }
        return publish(i, e);
    }

    /** Writes the element and hands its index to aq; gives the index back if aq is finalized. */
    private boolean publish(final int i, final Object e) {
        // plain store: aq's volatile CAS in enqueue publishes it
        data[DATA_PAD + i] = e;
        if (aq.enqueue(i)) {
            return true;
        }
        // finalized under us: nobody will read this slot; plain store published by fq's CAS
        data[DATA_PAD + i] = null;
        fq.enqueue(i);
        return false;
    }

    /** Removes the oldest element, or null if none was found. */
    final Object poll() {
        final int i = aq.dequeue();
        if (i == IndexRing.EMPTY) {
            return null;
        }
        return take(i);
    }

    private Object take(final int i) {
        // plain load: aq's volatile load of the entry made the producer's store visible
        final Object e = data[DATA_PAD + i];
        // plain store, ordered before the next producer's store by fq's CAS below
        data[DATA_PAD + i] = null;
        fq.enqueue(i);
        return e;
    }

    /** Removes up to {@code limit} elements, handing each to {@code consumer} after its slot is free again. */
    final int drain(final Consumer<Object> consumer, final int limit) {
        int n = 0;
        while (n < limit) {
            final int i = aq.dequeue();
            if (i == IndexRing.EMPTY) {
                break;
            }
            final Object e = take(i);
            n++;
            consumer.accept(e);
        }
        return n;
    }

    /**
     * Inserts up to {@code limit} elements from {@code supplier}, asking it only when a free
     * index is already held, so that nothing it supplies is dropped.
     *
     * Only for a bounded queue: a finalizable segment could refuse an element already supplied.
     *
     * @throws NullPointerException if the supplier returns null (the index is given back first)
     */
    final int fill(final Supplier<?> supplier, final int limit) {
        if (finalizable) {
            throw new IllegalStateException("fill on a finalizable segment");
        }
        int n = 0;
        while (n < limit) {
            final int i = fq.dequeue();
            if (i == IndexRing.EMPTY) {
                break;
            }
            final Object e;
            try {
                e = supplier.get();
            } catch (RuntimeException | Error failure) {
                fq.enqueue(i);
                throw failure;
            }
            if (e == null) {
                fq.enqueue(i);
                throw new NullPointerException("supplier returned null; queues do not hold null elements");
            }
            publish(i, e); // cannot fail: aq of a bounded queue is never finalized
            n++;
        }
        return n;
    }

    /**
     * A weakly consistent look at the oldest element: scans from the head to the tail for the
     * first position holding an element and returns it if the head has not moved meanwhile.
     */
    final Object peek() {
        restart:
        while (true) {
            final long h = aq.lvHead();
            for (long p = h; ; p++) {
                if (aq.lvTailPosition() - p <= 0) {
                    if (aq.lvHead() == h) {
                        return null;
                    }
                    continue restart;
                }
                final long entry = aq.lvEntryAt(p);
                final int i = aq.indexAt(entry, p);
                if (i >= 0) {
                    // plain load, validated below
                    final Object e = data[DATA_PAD + i];
                    // the load above completes before the re-checks below
                    VarHandle.acquireFence();
                    if (e != null && aq.lvHead() == h && aq.lvEntryAt(p) == entry) {
                        return e;
                    }
                    continue restart;
                }
            }
        }
    }

    /**
     * The element held at position {@code p} of {@code aq}, if {@code p} holds one that was not
     * taken while it was read; null otherwise. Writes nothing.
     */
    final Object elementAt(final long p) {
        final long entry = aq.lvEntryAt(p);
        final int i = aq.indexAt(entry, p);
        if (i < 0) {
            return null; // ⊥, or an entry of another lap: position p holds no element now
        }
        // plain load: the volatile load of the entry made the producer's store visible
        final Object e = data[DATA_PAD + i];
        // the load above completes before the re-check below
        VarHandle.acquireFence();
        // unchanged entry: nobody consumed p meanwhile, so data[i] was not yet handed to a later
        // producer and e is the element of position p (a consumed entry never comes back: the
        // consumer's atomic add leaves it ⊥ until a later lap's cycle is written)
        return e != null && aq.lvEntryAt(p) == entry ? e : null;
    }

    /**
     * The number of elements: counts the positions between head and tail of {@code aq} that
     * hold an element. Positions an enqueuer skipped (their entry was unusable) hold none, which
     * is why {@code tail - head} alone over-counts. Exact when no other thread operates; while
     * others do, each position is looked at once, at its own moment, so elements offered or
     * polled during the call may or may not be counted. Writes nothing.
     */
    final int countElements() {
        // volatile loads, head then tail: positions below the head are taken or being taken;
        // each entry is then read volatile (lvEntryAt), seeing the CAS that wrote it
        long p = aq.lvHead();
        final long t = aq.lvTailPosition();
        int count = 0;
        int sinceHead = 0;
        while (t - p > 0 && count < capacity) {
            final long entry = aq.lvEntryAt(p);
            if (aq.indexAt(entry, p) >= 0) {
                count++;
            }
            p++;
            if (++sinceHead == SCAN_HEAD_INTERVAL) {
                // a scan that falls behind the consumers jumps to the head instead of walking
                // positions that are already taken
                sinceHead = 0;
                final long h = aq.lvHead();
                if (h - p > 0) {
                    p = h;
                }
            }
        }
        return count;
    }

    /** Positions a scan walks between looks at the head. */
    static final int SCAN_HEAD_INTERVAL = 64;

    /** The segment after this one, for iteration; a bounded queue has none. */
    Scq successor() {
        return null;
    }
}

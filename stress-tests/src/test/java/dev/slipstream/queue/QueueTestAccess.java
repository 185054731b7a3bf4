package dev.slipstream.queue;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Opens the package-private constructors that start the counters at a chosen position, for the
 * soak tests in {@code dev.slipstream.stress.queue}. Lives in the test sources of the stress
 * module only; the library does not export these constructors.
 */
public final class QueueTestAccess {
    private QueueTestAccess() {
    }

    /**
     * A bounded queue whose ring counters start at {@code start}.
     *
     * @param <E> element type
     * @param capacity a power of two
     * @param start any 64-bit value
     * @return the queue
     */
    public static <E> ScqQueue<E> scq(final int capacity, final long start) {
        return new ScqQueue<>(capacity, true, start);
    }

    /**
     * An {@link LprqQueue} whose rings' counters start at {@code start}.
     *
     * @param ringCapacity elements per ring
     * @param start the first position of every ring, 0 to 2^62
     * @param <E> the element type
     * @return the queue
     */
    public static <E> LprqQueue<E> lprq(final int ringCapacity, final long start) {
        return new LprqQueue<>(ringCapacity, true, start);
    }

    /**
     * An unbounded queue whose every segment's counters start at {@code start}.
     *
     * @param <E> element type
     * @param segmentCapacity a power of two
     * @param start 0 to 2^62
     * @return the queue
     */
    public static <E> LscqQueue<E> lscq(final int segmentCapacity, final long start) {
        return new LscqQueue<>(segmentCapacity, true, start);
    }

    /**
     * Segments allocated so far.
     *
     * @param q the queue
     * @return the count, the first segment included
     */
    public static long segmentsAllocated(final LscqQueue<?> q) {
        return q.segmentsAllocated();
    }

    /**
     * A seeded bug for the iterator stress test to catch: a copy of the iteration logic of
     * {@code ScqIterator} and {@code Scq.elementAt} over a bounded queue, with one check removed:
     * an entry is taken as the element of the position being walked whatever lap (cycle) it was
     * written for. Single-threaded it behaves exactly like the real iterator; under concurrency
     * an iterator that falls a lap behind returns newer elements out of order.
     *
     * @param <E> element type
     * @param q the queue
     * @return an iterator with the cycle check removed
     */
    public static <E> Iterator<E> iteratorWithoutCycleCheck(final ScqQueue<E> q) {
        return new CycleBlindIterator<>(q.scq);
    }

    /** See {@link #iteratorWithoutCycleCheck}. */
    private static final class CycleBlindIterator<E> implements Iterator<E> {
        private final Scq scq;
        private final long end;
        private long position;
        private Object next;

        CycleBlindIterator(final Scq scq) {
            this.scq = scq;
            this.end = scq.aq.lvTailPosition();
            this.position = scq.aq.lvHead();
            advance();
        }

        /** ScqIterator.advance for one segment, with elementAt inlined. */
        private void advance() {
            int sinceHead = 0;
            while (end - position > 0) {
                final long p = position++;
                final long entry = scq.aq.lvEntryAt(p);
                final int emptyIndex = (int) (scq.aq.cycleWord(0L) >>> 1); // 2n - 1, the ⊥ index
                // SEEDED BUG: the real code (IndexRing.indexAt) also requires
                // (entry | cycleMask) == cycleWord(p): the entry must belong to p's lap
                final int i = (int) (entry & emptyIndex);
                if (i != emptyIndex) {
                    final Object e = scq.data[Scq.DATA_PAD + i];
                    java.lang.invoke.VarHandle.acquireFence();
                    if (e != null && scq.aq.lvEntryAt(p) == entry) {
                        next = e;
                        return;
                    }
                }
                if (++sinceHead == Scq.SCAN_HEAD_INTERVAL) {
                    sinceHead = 0;
                    final long h = scq.aq.lvHead();
                    if (h - position > 0) {
                        position = h;
                    }
                }
            }
            next = null;
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public E next() {
            final Object e = next;
            if (e == null) {
                throw new NoSuchElementException();
            }
            advance();
            return (E) e;
        }
    }
}

package dev.slipstream.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A seeded bug for {@code IndexRingConsumeMarkLincheckTest} to catch: a copy of
 * {@link IndexRing}'s algorithm (empty ring, no remap, not finalizable; same threshold, catch-up
 * and entry layout) with one change: a dequeuer marks its entry consumed with a plain store of
 * the word it read with ⊥ in the index field, instead of an atomic update of the index bits
 * alone. A late dequeuer of the next lap may clear the entry's IsSafe bit between that read and
 * the store; the store sets it again, and an enqueuer of the next lap then fills a position that
 * the late dequeuer has already passed, so its element is never dequeued.
 *
 * <p>Beside the seeded bug the copy differs only in form: its enqueue reads the entry before its
 * first CAS instead of trying the usual state first, which admits the same outcomes. With the
 * mark written as the library writes it (an atomic add of {@code ⊥ - index}) the copy passes the
 * same model check. Nothing in the library uses it.
 */
final class PlainStoreConsumeRing {
    static final int EMPTY = -1;
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle THRESHOLD;
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            HEAD = lookup.findVarHandle(PlainStoreConsumeRing.class, "head", long.class);
            TAIL = lookup.findVarHandle(PlainStoreConsumeRing.class, "tail", long.class);
            THRESHOLD = lookup.findVarHandle(PlainStoreConsumeRing.class, "threshold", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long head;
    private volatile long tail;
    private volatile long threshold = -1L;
    private final long[] entries;
    private final int entryMask;
    private final long safeBit;
    private final long cycleMask;
    private final long thresholdMax;

    /** An empty ring of {@code 2^order} indices, counters starting at 0. */
    PlainStoreConsumeRing(final int order) {
        final int n = 1 << order;
        final int entryCount = n << 1;
        entryMask = entryCount - 1;
        safeBit = entryCount;
        cycleMask = (2L * entryCount) - 1;
        thresholdMax = 2L * n + Math.max(n, IndexRing.MIN_THREADS) - 1;
        entries = new long[entryCount];
        for (int k = 0; k < entryCount; k++) {
            // the lap before the position's: safe, ⊥
            entries[k] = cycleWord(k) - (2L * entryCount);
        }
    }

    private long cycleWord(final long position) {
        return (position << 1) | cycleMask;
    }

    private int slot(final long position) {
        return (int) position & entryMask;
    }

    boolean enqueue(final int index) {
        long t = (long) TAIL.getAndAdd(this, 1L);
        long entry = (long) ENTRIES.getVolatile(entries, slot(t));
        while (true) {
            final long tCycle = cycleWord(t);
            final int j = slot(t);
            final long desired = (tCycle & ~(long) entryMask) | index;
            while ((entry | cycleMask) - tCycle < 0
                    && (entry & entryMask) == entryMask
                    && ((entry & safeBit) != 0 || (long) HEAD.getVolatile(this) - t <= 0)) {
                final long witness = (long) ENTRIES.compareAndExchange(entries, j, entry, desired);
                if (witness == entry) {
                    if ((long) THRESHOLD.getVolatile(this) != thresholdMax) {
                        THRESHOLD.setVolatile(this, thresholdMax);
                    }
                    return true;
                }
                entry = witness;
            }
            t = (long) TAIL.getAndAdd(this, 1L);
            entry = (long) ENTRIES.getVolatile(entries, slot(t));
        }
    }

    int dequeue() {
        if ((long) THRESHOLD.getVolatile(this) < 0) {
            return EMPTY;
        }
        long h = (long) HEAD.getAndAdd(this, 1L);
        long entry = (long) ENTRIES.getVolatile(entries, slot(h));
        while (true) {
            final long hCycle = cycleWord(h);
            final int j = slot(h);
            examine:
            while (true) {
                final long diff = (entry | cycleMask) - hCycle;
                if (diff == 0) {
                    if ((entry & entryMask) != entryMask) {
                        // THE SEEDED BUG: a plain store of the word read, with ⊥ as its index;
                        // an IsSafe bit cleared since the read is set again
                        ENTRIES.setVolatile(entries, j, entry | entryMask);
                        return (int) (entry & entryMask);
                    }
                    break;
                }
                if (diff > 0) {
                    break;
                }
                final long desired;
                if ((entry & entryMask) != entryMask) {
                    desired = entry & ~safeBit;
                    if (desired == entry) {
                        break;
                    }
                } else {
                    if ((long) TAIL.getVolatile(this) - (h + 1) > 0) {
                        for (int spin = 0; spin < IndexRing.DEQUEUE_SPINS; spin++) {
                            final long now = (long) ENTRIES.getVolatile(entries, j);
                            if (now != entry) {
                                entry = now;
                                continue examine;
                            }
                        }
                    }
                    desired = (hCycle & ~safeBit) | (entry & safeBit);
                }
                final long witness = (long) ENTRIES.compareAndExchange(entries, j, entry, desired);
                if (witness == entry) {
                    break;
                }
                entry = witness;
            }
            final long t = (long) TAIL.getVolatile(this);
            if (t - (h + 1) <= 0) {
                catchup(t, h + 1);
                THRESHOLD.getAndAdd(this, -1L);
                return EMPTY;
            }
            if ((long) THRESHOLD.getAndAdd(this, -1L) <= 0) {
                return EMPTY;
            }
            h = (long) HEAD.getAndAdd(this, 1L);
            entry = (long) ENTRIES.getVolatile(entries, slot(h));
        }
    }

    private void catchup(long t, long h) {
        while (t - h < 0) {
            if (TAIL.compareAndSet(this, t, h)) {
                return;
            }
            h = (long) HEAD.getVolatile(this);
            t = (long) TAIL.getVolatile(this);
        }
    }
}

package dev.slipstream.queue;

import dev.slipstream.internal.FieldHandles;
import java.lang.invoke.VarHandle;

/**
 * The package-private state of the queues, for the tests of this package only: the library
 * itself has no accessor that exists just for tests.
 */
final class QueueInternals {
    private static final VarHandle WAITING = FieldHandles.of(QueueSignalWaiting.class, "waiting", int.class);
    private static final VarHandle ALLOCATING = FieldHandles.of(LscqAllocation.class, "allocating", int.class);
    private static final VarHandle LINKED = FieldHandles.of(LscqAllocation.class, "segmentsLinked", long.class);
    private static final VarHandle BYPASSES = FieldHandles.of(LscqAllocation.class, "gateBypasses", long.class);
    private static final VarHandle HEAD_SEGMENT =
            FieldHandles.of(LscqHeadField.class, "headSegment", LscqQueue.Segment.class);

    private QueueInternals() {
    }

    /** The rings and data array of a bounded queue. */
    static Scq rings(final ScqQueue<?> q) {
        return q.scq;
    }

    /** The current head segment of an unbounded queue. */
    static LscqQueue.Segment headSegment(final LscqQueue<?> q) {
        return (LscqQueue.Segment) HEAD_SEGMENT.getAcquire(q);
    }

    /** Segments linked into the list so far, the first included. */
    static long segmentsLinked(final LscqQueue<?> q) {
        return (long) LINKED.getVolatile(q);
    }

    /** Segments allocated without the gate because its holder seemed stalled. */
    static long gateBypasses(final LscqQueue<?> q) {
        return (long) BYPASSES.getVolatile(q);
    }

    /** Takes the allocation gate as a producer linking a segment would; false if it is held. */
    static boolean takeGate(final LscqQueue<?> q) {
        return ALLOCATING.compareAndSet(q, 0, 1);
    }

    /** Gives the allocation gate back. */
    static void releaseGate(final LscqQueue<?> q) {
        ALLOCATING.setVolatile(q, 0);
    }

    /** Threads registered as waiting on a signal. */
    static int waiting(final QueueSignal signal) {
        return (int) WAITING.getVolatile(signal);
    }

    /** The number of indices of a ring, n, read back from its cycle mask {@code 4n - 1}. */
    static int capacity(final IndexRing ring) {
        return (int) ((ring.cycleWord(0L) + 1) / 4);
    }

    /** The entry word for a position's cycle, IsSafe and index. */
    static long pack(final IndexRing ring, final long position, final boolean safe, final int index) {
        final long entryMask = 2L * capacity(ring) - 1;
        final long safeBit = 2L * capacity(ring);
        final long word = ring.cycleWord(position) & ~entryMask & ~safeBit;
        return word | (safe ? safeBit : 0L) | (index & entryMask);
    }

    /** The raw entry that position {@code position} maps to. */
    static long rawEntry(final IndexRing ring, final long position) {
        return ring.lvEntryAt(position);
    }

    /** Whether the finalize bit of the ring's tail is set. */
    static boolean isFinalized(final IndexRing ring) {
        return (ring.lvTail() & IndexRing.FINALIZE) != 0;
    }
}

package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/**
 * Sleeps on a monitor until a producer signals a publication, and costs nothing while idle: the
 * choice when CPU matters more than latency (shared machines, background stages). A publish takes
 * the monitor only if a consumer has gone to sleep since the last signal, and wakes every sleeper;
 * otherwise it pays one fence and one load. A sleeping consumer costs a thread wake-up (tens of
 * microseconds); nothing is allocated. Waiting for a slow upstream stage (the cursor has moved)
 * spins briefly, yields, then parks for short intervals. Prefer {@link HybridWaitStrategy} when
 * latency matters too.
 *
 * <pre>{@code
 * RingBuffer<LogLine> ring =
 *         RingBuffer.createMultiProducer(LogLine::new, 4096, new BlockingWaitStrategy());
 * }</pre>
 */
public final class BlockingWaitStrategy implements WaitStrategy {
    /**
     * A plain monitor rather than a {@code ReentrantLock}: on JDK 17 a contended lock and every
     * {@code Condition.await} allocate a queue node, which would put garbage on the hot path.
     */
    private final Object mutex = new Object();

    /** Who sleeps on the monitor; see {@link SleeperCount} for the handshake and its ordering. */
    private final SleeperCount sleepers = new SleeperCount();

    /** Creates the strategy; share one instance between a ring and all its barriers. */
    public BlockingWaitStrategy() {
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        // acquire: fast path, no lock and no count when the cursor is already there
        if (cursor.get() < sequence) {
            synchronized (mutex) {
                // A signaller zeroes the count as it wakes the whole wait set, so a woken thread
                // counts itself again before it sleeps again. A spurious wake-up or an interrupt
                // leaves this round's count in: one needless signal, never a lost one.
                while (!sleepers.countInUnlessReached(sequence, cursor, barrier)) {
                    mutex.wait();
                }
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier);
    }

    /**
     * Wakes every consumer sleeping on the monitor. Takes the monitor only when a consumer has gone
     * to sleep since the last signal; otherwise it costs a full fence and one load.
     */
    @Override
    public void signalAllWhenBlocking() {
        if (sleepers.anyAsleep()) {
            synchronized (mutex) {
                sleepers.reset();
                mutex.notifyAll();
            }
        }
    }

    @Override
    public String toString() {
        return "BlockingWaitStrategy";
    }
}

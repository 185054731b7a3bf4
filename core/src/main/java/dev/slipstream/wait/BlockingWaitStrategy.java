package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

/**
 * Sleeps on a monitor until a producer signals a publication, and costs nothing
 * while idle: the choice when CPU matters more than latency (shared machines, many pipelines,
 * background stages), at the price of a lock acquisition on every publish and a thread wake-up
 * (tens of microseconds) for a sleeping consumer. When the cursor has moved but an upstream
 * stage is still behind, it spins briefly, then yields, then parks for short intervals, so a
 * slow upstream stage costs its followers little CPU either. Prefer
 * {@link LiteBlockingWaitStrategy} or {@link HybridWaitStrategy} when producers publish often.
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

    /** Creates the strategy; share one instance between a ring and all its barriers. */
    public BlockingWaitStrategy() {
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        // acquire: fast path, no lock when the cursor is already there
        if (cursor.get() < sequence) {
            synchronized (mutex) {
                // Checked under the monitor: a producer that published after this check must take
                // the monitor to signal, which it can only do once wait() has released it, so the
                // signal cannot fall between the check and the wait.
                while (cursor.get() < sequence) {
                    barrier.checkAlert();
                    mutex.wait();
                }
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier);
    }

    /** Wakes every consumer sleeping on the monitor; takes the monitor on every call. */
    @Override
    public void signalAllWhenBlocking() {
        synchronized (mutex) {
            mutex.notifyAll();
        }
    }

    @Override
    public String toString() {
        return "BlockingWaitStrategy";
    }
}

package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sleeps on a lock and condition until a producer signals a publication, and costs nothing
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
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();

    /** Creates the strategy; share one instance between a ring and all its barriers. */
    public BlockingWaitStrategy() {
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        // acquire: fast path, no lock when the cursor is already there
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                // Checked under the lock: a producer that published after this check must take
                // the lock to signal, which it can only do once await() has released it, so the
                // signal cannot fall between the check and the await.
                while (cursor.get() < sequence) {
                    barrier.checkAlert();
                    published.await();
                }
            } finally {
                lock.unlock();
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier);
    }

    /** Wakes every consumer sleeping on the condition; takes the lock on every call. */
    @Override
    public void signalAllWhenBlocking() {
        lock.lock();
        try {
            published.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "BlockingWaitStrategy";
    }
}

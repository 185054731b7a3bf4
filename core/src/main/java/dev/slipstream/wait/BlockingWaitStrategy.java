package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

abstract class BlockingLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

abstract class BlockingSleepers extends BlockingLhsPadding {
    /**
     * Consumers that went to sleep since the last signal (more after a spurious wake-up, never
     * fewer); changed only under the monitor.
     */
    volatile long sleepers;
}

abstract class BlockingRhsPadding extends BlockingSleepers {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * Sleeps on a monitor until a producer signals a publication, and costs nothing
 * while idle: the choice when CPU matters more than latency (shared machines, many pipelines,
 * background stages). A consumer that finds nothing to read counts itself as a sleeper and waits
 * on the monitor; a publish that finds the count above zero takes the monitor, zeroes the count
 * and wakes every sleeper, and later publishes skip the monitor until a consumer sleeps again. A
 * producer pays one fence and one load per publish and the monitor once per sleep; a sleeping
 * consumer costs a thread wake-up (tens of microseconds). Nothing is allocated, even when the
 * monitor is contended. When the cursor has moved but an
 * upstream stage is still behind, it spins briefly, then yields, then parks for short intervals,
 * so a slow upstream stage costs its followers little CPU either. Prefer
 * {@link HybridWaitStrategy} when latency matters too.
 *
 * <pre>{@code
 * RingBuffer<LogLine> ring =
 *         RingBuffer.createMultiProducer(LogLine::new, 4096, new BlockingWaitStrategy());
 * }</pre>
 */
public final class BlockingWaitStrategy extends BlockingRhsPadding implements WaitStrategy {
    private static final VarHandle SLEEPERS;

    static {
        try {
            SLEEPERS = MethodHandles.lookup().findVarHandle(BlockingSleepers.class, "sleepers", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        // acquire: fast path, no lock and no count when the cursor is already there
        if (cursor.get() < sequence) {
            synchronized (mutex) {
                while (true) {
                    // volatile store of the count, full fence, then the volatile re-check of the
                    // cursor: a StoreLoad pair with signalAllWhenBlocking, which stores the cursor
                    // (or the alert), fences and reads the count. Either this re-check sees the
                    // publish, or the producer sees the count and signals; it signals under the
                    // monitor, so not before wait() below has released it. The fence keeps the
                    // order when the given cursor's getVolatile() is only an acquire load (a view
                    // over the sequencer).
                    SLEEPERS.setVolatile(this, sleepers + 1L);
                    VarHandle.fullFence();
                    if (cursor.getVolatile() >= sequence) {
                        // not sleeping after all: take this round's count back. A signaller
                        // resets the count only under the monitor, held here since the count
                        // went up, so this round's count is still in it.
                        SLEEPERS.setVolatile(this, sleepers - 1L);
                        break;
                    }
                    if (barrier.isAlerted()) {
                        SLEEPERS.setVolatile(this, sleepers - 1L);
                        barrier.checkAlert();
                    }
                    // A signaller zeroes the count as it wakes the whole wait set, so a woken
                    // thread counts itself again before it sleeps again. A spurious wake-up or an
                    // interrupt leaves this round's count in: one needless signal, never a lost one.
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
        // full fence (StoreLoad): the caller's publishing store is visible before the count is read
        VarHandle.fullFence();
        if ((long) SLEEPERS.getVolatile(this) != 0L) {
            synchronized (mutex) {
                // volatile store under the monitor: every sleeper is woken here, so until one of
                // them (or another consumer) counts itself again, publishes skip the monitor
                SLEEPERS.setVolatile(this, 0L);
                mutex.notifyAll();
            }
        }
    }

    @Override
    public String toString() {
        return "BlockingWaitStrategy";
    }
}

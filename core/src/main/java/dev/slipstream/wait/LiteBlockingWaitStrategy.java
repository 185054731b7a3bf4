package dev.slipstream.wait;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** 56 bytes before the flag; the int fills the gap after the header, where a subclass field would go. */
abstract class LiteBlockingLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

/** 1 when a sleeping waiter needs a signal, read on every publish; a long, so it stays inside the padding. */
abstract class LiteBlockingFlag extends LiteBlockingLhsPadding {
    volatile long signalNeeded;
}

/** 56 bytes after the flag. */
abstract class LiteBlockingRhsPadding extends LiteBlockingFlag {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A blocking strategy that signals a sleeping consumer once: a waiter raises a "signal needed"
 * flag before it sleeps on a {@code ReentrantLock} condition, and the first producer to see the
 * flag up clears it and signals; later publishes read the flag (one load, no write while it is
 * down) and skip the lock until a consumer sleeps again. Prefer {@link BlockingWaitStrategy}, which
 * never allocates; this one is for code that wants a {@code ReentrantLock} (whose contended
 * {@code lock} and {@code await} allocate a queue node on JDK 17). It costs nothing while idle.
 *
 * <pre>{@code
 * RingBuffer<Order> ring =
 *         RingBuffer.createSingleProducer(Order::new, 1024, new LiteBlockingWaitStrategy());
 * }</pre>
 */
public final class LiteBlockingWaitStrategy extends LiteBlockingRhsPadding implements WaitStrategy {
    private static final VarHandle SIGNAL_NEEDED = FieldHandles.of(LiteBlockingFlag.class, "signalNeeded", long.class);

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition published = lock.newCondition();

    /** Creates the strategy; share one instance between a ring and all its barriers. */
    public LiteBlockingWaitStrategy() {
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        // acquire: fast path, no lock and no flag when the cursor is already there
        if (cursor.get() < sequence) {
            lock.lock();
            try {
                while (true) {
                    // volatile store then volatile load (a StoreLoad pair): either this re-check
                    // sees the producer's publish, or the producer, which publishes, fences and
                    // then reads the flag, sees it raised and signals; it signals under the lock,
                    // so not before await() below has released it
                    svSignalNeeded(1L);
                    // full fence: keeps the StoreLoad order even when the given cursor's
                    // getVolatile() is only an acquire load (a view over the sequencer)
                    VarHandle.fullFence();
                    if (cursor.getVolatile() >= sequence) {
                        break;
                    }
                    barrier.checkAlert();
                    published.await();
                }
            } finally {
                lock.unlock();
            }
        }
        return UpstreamWait.await(sequence, dependentSequence, barrier);
    }

    /** Wakes sleeping consumers if one has raised the flag; otherwise a fence and one load. */
    @Override
    public void signalAllWhenBlocking() {
        VarHandle.fullFence();
        // volatile load first, so that with nobody asleep the flag's cache line is never written;
        // the getAndSet then lets exactly one of several racing producers take the lock
        if (lvSignalNeeded() != 0L && xchgSignalNeeded(0L) != 0L) {
            lock.lock();
            try {
                published.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    @Override
    public String toString() {
        return "LiteBlockingWaitStrategy";
    }

    private long lvSignalNeeded() {
        return (long) SIGNAL_NEEDED.getVolatile(this);
    }

    private void svSignalNeeded(final long flag) {
        SIGNAL_NEEDED.setVolatile(this, flag);
    }

    /** Volatile get-and-set of the signal flag. */
    private long xchgSignalNeeded(final long flag) {
        return (long) SIGNAL_NEEDED.getAndSet(this, flag);
    }
}

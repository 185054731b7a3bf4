package dev.slipstream.wait;

import dev.slipstream.internal.FieldHandles;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;

import java.lang.invoke.VarHandle;

abstract class SleeperCountLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

abstract class SleeperCountValue extends SleeperCountLhsPadding {
    /**
     * Consumers that went to sleep since the last reset (more after a timeout, a spurious wake-up
     * or an interrupt, never fewer); written only under the strategy's lock.
     */
    volatile long sleepers;
}

abstract class SleeperCountRhsPadding extends SleeperCountValue {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * The lock-elision handshake of the blocking strategies, on a cache line of its own: producers
 * read it on every publish, consumers write it only when they go to sleep. A consumer about to
 * sleep calls {@link #countIn()} under the strategy's lock, then takes its last look at the cursor;
 * a producer publishes, then calls {@link #anyAsleep()} and, only when it says so, takes the lock,
 * calls {@link #reset()} and wakes every sleeper. Either the consumer's last look sees the publish
 * or the producer sees the count (a StoreLoad pair: a full fence on each side), and the producer
 * signals under the lock, so not before the consumer's wait has released it. Because the count is
 * written only under the lock, a consumer woken by a signal and asleep again before the next
 * publish is always counted.
 *
 * <pre>{@code
 * synchronized (mutex) {                        // consumer
 *     sleepers.countIn();
 *     if (cursor.getVolatile() >= sequence) { sleepers.countOut(); } else { mutex.wait(); }
 * }
 * cursor.set(sequence);                          // producer
 * if (sleepers.anyAsleep()) { synchronized (mutex) { sleepers.reset(); mutex.notifyAll(); } }
 * }</pre>
 */
final class SleeperCount extends SleeperCountRhsPadding {
    private static final VarHandle SLEEPERS = FieldHandles.of(SleeperCountValue.class, "sleepers", long.class);

    /** Counts the caller as asleep; under the lock, before its last look at the cursor. */
    void countIn() {
        // volatile store, then a full fence: the caller's following load of the cursor (or the
        // alert) stays after it even when that load is only an acquire (a view over the sequencer)
        svSleepers(sleepers + 1L);
        VarHandle.fullFence();
    }

    /**
     * A blocking strategy's round under its lock: counts the caller in, then takes its last look
     * at the cursor (volatile) and at the alert. Counted in before that look: either the look
     * sees the publish, or the producer sees the count and signals under the lock, so not before
     * the caller's wait has released it.
     *
     * @return true, with the count taken back, if the cursor has reached {@code sequence};
     *         false, still counted in, if the caller should sleep
     * @throws AlertException with the count taken back, if the barrier is alerted
     */
    boolean countInUnlessReached(final long sequence, final Sequence cursor, final SequenceBarrier barrier)
            throws AlertException {
        countIn();
        if (cursor.getVolatile() >= sequence) {
            countOut();
            return true;
        }
        if (barrier.isAlerted()) {
            countOut();
            barrier.checkAlert();
        }
        return false;
    }

    /**
     * Takes back the caller's count when it does not sleep after all; under the lock, held since
     * its {@link #countIn()}, so no reset has removed that count.
     */
    void countOut() {
        // volatile store: a producer that still reads the old count only signals once too often
        svSleepers(sleepers - 1L);
    }

    /** Whether someone counted in since the last reset; call after the publishing store. */
    boolean anyAsleep() {
        VarHandle.fullFence();
        return lvSleepers() != 0L;
    }

    /**
     * Zeroes the count; under the lock, as every sleeper is woken: until one of them (or another
     * consumer) counts in again, publishes skip the lock.
     */
    void reset() {
        svSleepers(0L);
    }

    private long lvSleepers() {
        return (long) SLEEPERS.getVolatile(this);
    }

    private void svSleepers(final long count) {
        SLEEPERS.setVolatile(this, count);
    }
}

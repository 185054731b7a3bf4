package dev.slipstream.sequence;

import java.util.concurrent.locks.LockSupport;

/**
 * The producer wait used when none is given ({@link ProducerWaitStrategy#defaultStrategy()}):
 * spin briefly (space usually frees within a consumer batch), then yield, then park for short,
 * growing intervals capped at 100 us, so a producer held up by a stalled consumer does not burn a
 * core.
 */
final class DefaultProducerWait implements ProducerWaitStrategy {
    static final DefaultProducerWait INSTANCE = new DefaultProducerWait();

    static final int SPINS = 100;
    static final int YIELDS = 10;
    static final long MIN_PARK_NANOS = 1_000L;
    static final long MAX_PARK_NANOS = 100_000L;

    private DefaultProducerWait() {
    }

    @Override
    public void idle(final int attempt) {
        if (attempt < 0) {
            // the caller's counter wrapped after 2^31 waits: it has waited long enough to park
            LockSupport.parkNanos(MAX_PARK_NANOS);
        } else if (attempt < SPINS) {
            Thread.onSpinWait();
        } else if (attempt < SPINS + YIELDS) {
            Thread.yield();
        } else {
            final int parks = attempt - SPINS - YIELDS;
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, MIN_PARK_NANOS << Math.min(parks, 7)));
        }
    }

    @Override
    public String toString() {
        return "ProducerWaitStrategy.defaultStrategy(): " + SPINS + " spins, " + YIELDS + " yields, then parks of "
                + MIN_PARK_NANOS + " ns doubling up to " + MAX_PARK_NANOS + " ns";
    }
}

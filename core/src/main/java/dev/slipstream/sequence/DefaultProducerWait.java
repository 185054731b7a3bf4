package dev.slipstream.sequence;

/**
 * The producer wait used when none is given ({@link ProducerWaitStrategy#defaultStrategy()}):
 * spin briefly (space usually frees within a consumer batch), then yield, then park for short,
 * growing intervals capped at 100 us, so a producer held up by a stalled consumer does not burn a
 * core.
 */
final class DefaultProducerWait implements ProducerWaitStrategy {
    static final DefaultProducerWait INSTANCE = new DefaultProducerWait();

    /** Shared by every producer: each passes its own attempt count. */
    static final Backoff BACKOFF = new Backoff(100, 10, 1_000L, 100_000L);

    private DefaultProducerWait() {
    }

    @Override
    public void idle(final int attempt) {
        // a negative attempt (the caller's counter wrapped after 2^31 waits) parks the longest
        BACKOFF.idleAt(attempt);
    }

    @Override
    public String toString() {
        return "ProducerWaitStrategy.defaultStrategy(): " + BACKOFF;
    }
}

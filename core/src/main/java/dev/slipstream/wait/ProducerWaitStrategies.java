package dev.slipstream.wait;

import dev.slipstream.sequence.Backoff;
import dev.slipstream.sequence.ProducerWaitStrategy;


/**
 * Ready-made ways for a producer to wait for space when the ring is full (the slowest consumer
 * is a whole ring behind). A full ring should not burn a core: {@link #defaultStrategy()} spins
 * briefly, yields, then parks.
 *
 * <p>Strategies are stateless (the attempt number passed to {@link ProducerWaitStrategy#idle(int)}
 * carries the escalation): one instance serves any number of producers. An interrupt does not
 * end a producer's wait; its status stays set, so parks return at once and the producer spins.
 *
 * <pre>{@code
 * RingBuffer<Order> ring = RingBuffer.create(ProducerType.MULTI, Order::new, 1024,
 *         new HybridWaitStrategy(), ProducerWaitStrategies.hybrid(100, 10, 20_000));
 * }</pre>
 */
public final class ProducerWaitStrategies {
    private static final ProducerWaitStrategy BUSY_SPIN = new BusySpin();
    private static final ProducerWaitStrategy YIELDING = new Yielding();

    private ProducerWaitStrategies() {
    }

    /**
     * Spins ({@link Thread#onSpinWait()}) for as long as the ring is full: the fastest reaction,
     * one core burnt per waiting producer. Only for producers with a core of their own.
     *
     * @return the shared instance
     */
    public static ProducerWaitStrategy busySpin() {
        return BUSY_SPIN;
    }

    /**
     * Yields the core on every attempt: low latency, and other threads (the consumers the
     * producer waits for) get to run; still 100% of a core when nothing else is runnable.
     *
     * @return the shared instance
     */
    public static ProducerWaitStrategy yielding() {
        return YIELDING;
    }

    /**
     * Parks for {@code nanos} on every attempt: almost no CPU while the ring stays full, a
     * reaction time of about the park length (at least some tens of microseconds on Linux).
     *
     * @param nanos how long each park lasts, {@code > 0}
     * @return the strategy
     * @throws IllegalArgumentException if {@code nanos} is not positive
     */
    public static ProducerWaitStrategy parking(final long nanos) {
        return new Hybrid(0, 0, Checks.positive("nanos", nanos));
    }

    /**
     * Spins {@code spins} times, then yields {@code yields} times, then parks {@code parkNanos}
     * per attempt.
     *
     * @param spins attempts spent spinning, {@code >= 0}
     * @param yields attempts spent yielding after the spins, {@code >= 0}
     * @param parkNanos how long each later park lasts, {@code > 0}
     * @return the strategy
     * @throws IllegalArgumentException if a count is negative or {@code parkNanos} is not positive
     */
    public static ProducerWaitStrategy hybrid(final int spins, final int yields, final long parkNanos) {
        return new Hybrid(Checks.nonNegative("spins", spins), Checks.nonNegative("yields", yields),
                Checks.positive("parkNanos", parkNanos));
    }

    /**
     * The strategy ring buffers and pipelines use unless told otherwise, the same instance as
     * {@link ProducerWaitStrategy#defaultStrategy()}: 100 spins, 10 yields, then parks growing
     * from 1 us to 100 us.
     *
     * @return the shared instance
     */
    public static ProducerWaitStrategy defaultStrategy() {
        return ProducerWaitStrategy.defaultStrategy();
    }

    private static final class BusySpin implements ProducerWaitStrategy {
        @Override
        public void idle(final int attempt) {
            Thread.onSpinWait();
        }

        @Override
        public String toString() {
            return "ProducerWaitStrategies.busySpin()";
        }
    }

    private static final class Yielding implements ProducerWaitStrategy {
        @Override
        public void idle(final int attempt) {
            Thread.yield();
        }

        @Override
        public String toString() {
            return "ProducerWaitStrategies.yielding()";
        }
    }

    private static final class Hybrid implements ProducerWaitStrategy {
        private final int spins;
        private final int yields;
        private final long parkNanos;
        /** Shared by the producers: each passes its own attempt count. */
        private final Backoff backoff;

        Hybrid(final int spins, final int yields, final long parkNanos) {
            this.spins = spins;
            this.yields = yields;
            this.parkNanos = parkNanos;
            this.backoff = new Backoff(spins, yields, parkNanos, parkNanos);
        }

        @Override
        public void idle(final int attempt) {
            // a negative attempt means the caller's counter wrapped after a very long wait: park
            backoff.idleAt(attempt);
        }

        @Override
        public String toString() {
            return "ProducerWaitStrategies.hybrid(" + spins + ", " + yields + ", " + parkNanos + ")";
        }
    }
}

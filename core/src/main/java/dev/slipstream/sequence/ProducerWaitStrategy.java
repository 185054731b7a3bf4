package dev.slipstream.sequence;

/**
 * How a producer waits for space when the ring is full (the slowest consumer is a whole ring
 * behind).
 *
 * <p>Called in a loop: {@code idle(0)}, {@code idle(1)}, ... until space appears. The attempt
 * number lets a strategy escalate, spin first, then yield, then park, so that a full ring does
 * not burn a core. Implementations live in {@code dev.slipstream.wait.ProducerWaitStrategies}.
 *
 * <pre>{@code
 * ProducerWaitStrategy onFull = attempt -> {
 *     if (attempt < 100) Thread.onSpinWait();
 *     else LockSupport.parkNanos(50_000);
 * };
 * }</pre>
 */
@FunctionalInterface
public interface ProducerWaitStrategy {
    /**
     * Waits a little before the producer checks for space again.
     *
     * @param attempt how many times the producer has already found the ring full in this claim,
     *     starting at 0
     */
    void idle(int attempt);

    /**
     * The strategy every ring buffer and pipeline uses when none is given: 100 spins
     * ({@link Thread#onSpinWait()}; space usually frees within one consumer batch), then 10 yields,
     * then parks that grow from 1 us to 100 us, so a producer held up by a stalled consumer does not
     * burn a core and still notices space within 100 us. Also
     * {@code dev.slipstream.wait.ProducerWaitStrategies.defaultStrategy()}.
     *
     * @return the shared, stateless instance
     */
    static ProducerWaitStrategy defaultStrategy() {
        return DefaultProducerWait.INSTANCE;
    }
}

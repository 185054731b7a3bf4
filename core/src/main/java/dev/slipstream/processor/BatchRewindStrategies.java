package dev.slipstream.processor;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Ready-made {@link BatchRewindStrategy batch rewind strategies}. Remember that a rewound batch
 * delivers some events again: the handler must be idempotent for them.
 *
 * <pre>{@code
 * processor.setRewindStrategy(BatchRewindStrategies.withPause(5, Duration.ofMillis(100)));
 * }</pre>
 */
public final class BatchRewindStrategies {
    private static final BatchRewindStrategy ALWAYS = new BatchRewindStrategy() {
        @Override
        public Decision decide(final RewindableException exception, final int attempt) {
            return Decision.RETRY;
        }

        @Override
        public String toString() {
            return "BatchRewindStrategies.always()";
        }
    };

    private BatchRewindStrategies() {
    }

    /**
     * Retries for as long as the handler asks. A handler that keeps failing stalls the stage
     * (and, once the ring fills, its producers) until the processor is halted; prefer
     * {@link #atMost(int)} unless the failure is sure to clear.
     *
     * @return the shared instance
     */
    public static BatchRewindStrategy always() {
        return ALWAYS;
    }

    /**
     * Retries a batch at most {@code retries} times, so it runs at most {@code retries + 1}
     * times; then gives up.
     *
     * @param retries how many retries, {@code >= 0} (0 gives up at once)
     * @return the strategy
     * @throws IllegalArgumentException if {@code retries} is negative
     */
    public static BatchRewindStrategy atMost(final int retries) {
        return new Bounded(checkRetries(retries), 0L);
    }

    /**
     * Retries a batch at most {@code retries} times, parking the processor's thread for
     * {@code pause} before each retry, to give a failing resource time to recover. A pause also
     * delays a {@code halt()} of the processor by up to its length.
     *
     * @param retries how many retries, {@code >= 0}
     * @param pause how long to wait before each retry, not negative
     * @return the strategy
     * @throws IllegalArgumentException if {@code retries} or {@code pause} is negative
     * @throws NullPointerException if {@code pause} is null
     */
    public static BatchRewindStrategy withPause(final int retries, final Duration pause) {
        if (Objects.requireNonNull(pause, "pause must not be null").isNegative()) {
            throw new IllegalArgumentException("pause must be >= 0, got " + pause);
        }
        long nanos;
        try {
            nanos = pause.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE;
        }
        return new Bounded(checkRetries(retries), nanos);
    }

    private static int checkRetries(final int retries) {
        if (retries < 0) {
            throw new IllegalArgumentException("retries must be >= 0, got " + retries);
        }
        return retries;
    }

    private static final class Bounded implements BatchRewindStrategy {
        private final int retries;
        private final long pauseNanos;

        Bounded(final int retries, final long pauseNanos) {
            this.retries = retries;
            this.pauseNanos = pauseNanos;
        }

        @Override
        public Decision decide(final RewindableException exception, final int attempt) {
            // attempt counts failures: failure n is followed by retry n, allowed while n <= retries
            return attempt > retries || pauseNanos > 0 && !pause() ? Decision.GIVE_UP : Decision.RETRY;
        }

        /** Parks for the pause; false if the thread was interrupted (its status is kept). */
        private boolean pause() {
            final long deadline = System.nanoTime() + pauseNanos;
            long left = pauseNanos;
            while (left > 0) {
                LockSupport.parkNanos(this, left);
                if (Thread.currentThread().isInterrupted()) {
                    return false;
                }
                left = deadline - System.nanoTime();
            }
            return true;
        }

        @Override
        public String toString() {
            return pauseNanos == 0
                    ? "BatchRewindStrategies.atMost(" + retries + ")"
                    : "BatchRewindStrategies.withPause(" + retries + ", " + Duration.ofNanos(pauseNanos) + ")";
        }
    }
}

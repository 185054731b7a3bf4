package dev.slipstream.wait;

import java.time.Duration;

/** Argument checks shared by the strategies, so that every message has the same shape. */
final class Checks {
    private Checks() {
    }

    static int nonNegative(final String name, final int value) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + value);
        }
        return value;
    }

    static long positive(final String name, final long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be > 0, got " + value);
        }
        return value;
    }

    /** A non-null, non-negative duration in nanoseconds, saturated at Long.MAX_VALUE. */
    static long nonNegativeNanos(final String name, final Duration duration) {
        if (duration == null) {
            throw new NullPointerException(name + " must not be null");
        }
        if (duration.isNegative()) {
            throw new IllegalArgumentException(name + " must be >= 0, got " + duration);
        }
        return saturatedNanos(duration);
    }

    /** A non-null, strictly positive duration in nanoseconds, saturated at Long.MAX_VALUE. */
    static long positiveNanos(final String name, final Duration duration) {
        if (duration == null) {
            throw new NullPointerException(name + " must not be null");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be > 0, got " + duration);
        }
        return saturatedNanos(duration);
    }

    private static long saturatedNanos(final Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    static long saturatedAdd(final long a, final long b) {
        final long sum = a + b;
        // both are >= 0 here, so overflow shows up as a negative sum
        return sum < 0 ? Long.MAX_VALUE : sum;
    }
}

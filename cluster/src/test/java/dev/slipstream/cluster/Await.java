package dev.slipstream.cluster;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition while doing some work (polling a client), failing with a message at a deadline. */
final class Await {
    private Await() {
    }

    static void until(final String what, final Duration limit, final Runnable work, final BooleanSupplier done) {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + limit + " waiting for " + what);
            }
            work.run();
            LockSupport.parkNanos(100_000);
        }
    }
}

package dev.slipstream.topology;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waits for a condition another thread makes true, parking between checks; fails after a generous timeout. */
final class Await {
    private Await() {
    }

    static void until(final String what, final BooleanSupplier condition) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            LockSupport.parkNanos(100_000L);
        }
    }
}

package dev.slipstream.examples.docs;

/**
 * Stands in for {@code net.openhft.affinity.AffinityLock} (a {@code Closeable} that holds a core)
 * so that the pinning sample runs without native code; it records how many cores are held.
 */
final class AffinityLock implements AutoCloseable {
    static final java.util.concurrent.atomic.AtomicInteger HELD = new java.util.concurrent.atomic.AtomicInteger();

    private AffinityLock() {
        HELD.incrementAndGet();
    }

    static AffinityLock acquireCore() {
        return new AffinityLock();
    }

    @Override
    public void close() {
        HELD.decrementAndGet();
    }
}

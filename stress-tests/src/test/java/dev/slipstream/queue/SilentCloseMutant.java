package dev.slipstream.queue;

/**
 * MUTANT (test sources only): {@link UnboundedBlockingQueue#close()} without its signal. The
 * queue inside closes, so consumers that look at the queue after the close are released, but
 * one already waiting for the signal of an offer is never woken: a {@code take()} waits forever
 * and a timed {@code poll} until its timeout. {@link CloseReleasesWaitersTest} must catch it.
 *
 * <pre>{@code
 * SilentCloseMutant.close(queue);   // as queue.close(), less the wake-up of its waiters
 * }</pre>
 */
final class SilentCloseMutant {
    private SilentCloseMutant() {
    }

    /** Closes the queue inside {@code q} to producers and wakes nobody. */
    static void close(final UnboundedBlockingQueue<?> q) {
        ((ClosableBatchQueue<?>) q.queue).close();
    }
}

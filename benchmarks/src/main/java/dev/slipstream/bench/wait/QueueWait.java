package dev.slipstream.bench.wait;

import java.util.concurrent.BlockingQueue;

/**
 * How the queue peers wait, matched to the ring's wait strategies: {@code blocking} uses
 * {@code put}/{@code take} (a lock and a condition, like a blocking wait strategy),
 * {@code yielding} retries {@code offer}/{@code poll} 100 times then yields (like a yielding
 * wait strategy), {@code busyspin} retries with {@link Thread#onSpinWait()} only.
 *
 * <pre>{@code
 * QueueWait w = QueueWait.of("yielding");
 * w.put(queue, event);
 * ValueEvent e = w.take(queue);
 * }</pre>
 */
public enum QueueWait {
    /** put/take. */
    BLOCKING,
    /** offer/poll, spin 100 times, then yield. */
    YIELDING,
    /** offer/poll with onSpinWait. */
    BUSYSPIN;

    /**
     * The mode for a wait strategy name; other ring strategies (sleeping, hybrid...) map to
     * the nearest queue behaviour: every one that parks maps to {@code blocking}.
     *
     * @param name a wait strategy name
     * @return the queue mode
     */
    public static QueueWait of(final String name) {
        return switch (name) {
            case "busyspin" -> BUSYSPIN;
            case "yielding" -> YIELDING;
            default -> BLOCKING;
        };
    }

    /**
     * Adds {@code e}, waiting for space in this mode.
     *
     * @param q the queue
     * @param e the element
     * @param <T> the element type
     * @throws InterruptedException if interrupted while waiting
     */
    public <T> void put(final BlockingQueue<T> q, final T e) throws InterruptedException {
        if (this == BLOCKING) {
            q.put(e);
            return;
        }
        int spins = 0;
        while (!q.offer(e)) {
            spins = backOff(spins);
        }
    }

    /**
     * Removes the head, waiting for one in this mode.
     *
     * @param q the queue
     * @param <T> the element type
     * @return the head
     * @throws InterruptedException if interrupted while waiting
     */
    public <T> T take(final BlockingQueue<T> q) throws InterruptedException {
        if (this == BLOCKING) {
            return q.take();
        }
        int spins = 0;
        T e;
        while ((e = q.poll()) == null) {
            spins = backOff(spins);
        }
        return e;
    }

    private int backOff(final int spins) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("queue wait interrupted");
        }
        if (this == YIELDING && spins >= 100) {
            Thread.yield();
            return spins;
        }
        Thread.onSpinWait();
        return spins + 1;
    }
}

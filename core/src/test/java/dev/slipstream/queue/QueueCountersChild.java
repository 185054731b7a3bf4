package dev.slipstream.queue;

import java.util.Map;
import java.util.Queue;
import java.util.function.Supplier;

/**
 * Runs one thread's offers and polls on each unbounded queue and prints the counts, one line per
 * queue: {@code COUNTS LprqQueue ENQUEUE_RETRY=9 DEQUEUE_RETRY=0 ...}. {@link QueueCountersTest}
 * runs it in a JVM of its own, with counting on or off.
 */
public final class QueueCountersChild {
    /** Ring or segment capacity: the elements fill {@value #RINGS} of them. */
    static final int CAPACITY = 8;
    static final int RINGS = 10;

    private QueueCountersChild() {
    }

    /** @param args none */
    public static void main(final String[] args) {
        run("LprqQueue", () -> new LprqQueue<>(CAPACITY));
        run("LscqQueue", () -> new LscqQueue<>(CAPACITY));
    }

    private static void run(final String name, final Supplier<Queue<Integer>> make) {
        final Queue<Integer> queue = make.get();
        QueueCounters.reset();
        for (int i = 0; i < CAPACITY * RINGS; i++) {
            queue.offer(i);
        }
        for (int i = 0; i < CAPACITY * RINGS; i++) {
            if (queue.poll() != i) {
                throw new AssertionError(name + ": element " + i + " out of order");
            }
        }
        final StringBuilder line = new StringBuilder("COUNTS ").append(name);
        for (final Map.Entry<QueueCounters.Event, Long> count : QueueCounters.snapshot().entrySet()) {
            line.append(' ').append(count.getKey()).append('=').append(count.getValue());
        }
        System.out.println(line);
    }
}

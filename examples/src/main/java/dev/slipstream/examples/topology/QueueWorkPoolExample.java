package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.ShutdownResult;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A work pool fed by a queue: producers never block (the queue is unbounded and lock-free), each
 * order goes to exactly one of three workers, and wake-up is biased toward worker 0. Any
 * thread-safe {@link java.util.Queue} works; an unbounded lock-free MPMC queue suits best.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.QueueWorkPoolExample
 * </pre>
 */
public final class QueueWorkPoolExample {
    private QueueWorkPoolExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional item count
     */
    public static void main(final String[] args) {
        System.out.println("handled " + run(Examples.events(args, 3_000_000)));
    }

    /**
     * Offers {@code items} numbers to a pool of three workers and drains it.
     *
     * @param items how many items
     * @return how many the workers handled
     */
    public static long run(final long items) {
        final Worker[] workers = {new Worker(), new Worker(), new Worker()};
        final QueueWorkerPool<Long> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Long>())
                .handlers(workers)
                .name("orders")
                .build();
        pool.start();
        final long start = System.nanoTime();
        for (long i = 0; i < items; i++) {
            pool.offer(i);                              // never blocks
        }
        final ShutdownResult result = pool.shutdown(Duration.ofSeconds(60));
        Examples.printThroughput("queue-fed pool of 3", items, start);
        System.out.println(result + "; wake-ups " + pool.wakeUps());
        long handled = 0;
        for (final Worker worker : workers) {
            handled += worker.count;                    // the shutdown joined the workers: their counts are visible
        }
        return handled;
    }

    /** Counts the items it handles; each worker has its own instance, called by one thread only. */
    private static final class Worker implements EventHandler<Long> {
        long count;

        @Override
        public void onEvent(final Long item, final long sequence, final boolean endOfBatch) {
            count++;
        }
    }
}

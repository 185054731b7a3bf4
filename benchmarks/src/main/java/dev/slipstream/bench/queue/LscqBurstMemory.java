package dev.slipstream.bench.queue;

import dev.slipstream.queue.LscqQueue;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;

/**
 * Memory of the unbounded queue under a burst: P producers offer M elements each at the same
 * moment, nobody consumes. Reports the segments LSCQ allocated against the fewest the backlog
 * needs, and the heap each queue holds once the burst is in (after a GC), next to a
 * ConcurrentLinkedQueue holding the same elements.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar dev.slipstream.bench.queue.LscqBurstMemory [P] [M]}
 */
public final class LscqBurstMemory {
    private LscqBurstMemory() {
    }

    /**
     * Runs the measurement.
     *
     * @param args optional: producers (default 16) and elements per producer (default 200 000)
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        final int producers = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        final int perProducer = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        for (final int segment : new int[] {1 << 4, 1 << 8, 1 << 12}) {
            final long before = usedHeap();
            final LscqQueue<Integer> q = new LscqQueue<>(segment);
            burst(producers, perProducer, q::offer);
            final long held = usedHeap() - before;
            final long total = (long) producers * perProducer;
            final long needed = (total + segment - 1) / segment + 1;
            System.out.printf(Locale.ROOT,
                    "LSCQ segment %5d: %2d producers x %,d: %,d segments allocated (%,d needed), heap held %,d KiB (%.1f B/element)%n",
                    segment, producers, perProducer, q.segmentsAllocated(), needed, held / 1024, (double) held / total);
            if (q.size() != total) {
                throw new IllegalStateException("lost elements: " + q.size() + " of " + total);
            }
        }
        final long before = usedHeap();
        final ConcurrentLinkedQueue<Integer> clq = new ConcurrentLinkedQueue<>();
        burst(producers, perProducer, clq::offer);
        final long held = usedHeap() - before;
        System.out.printf(Locale.ROOT, "ConcurrentLinkedQueue:    heap held %,d KiB (%.1f B/element)%n",
                held / 1024, (double) held / ((long) producers * perProducer));
        Reference.reachabilityFence(clq); // held until measured
    }

    private interface Offer {
        boolean offer(Integer e);
    }

    private static void burst(final int producers, final int perProducer, final Offer q) throws InterruptedException {
        final CountDownLatch go = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final Thread t = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    return;
                }
                final Integer e = 7;
                for (int i = 0; i < perProducer; i++) {
                    q.offer(e);
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (final Thread t : threads) {
            t.join();
        }
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        final Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}

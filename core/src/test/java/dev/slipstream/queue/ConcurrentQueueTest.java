package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Two producers and two consumers through each queue: every element arrives exactly once and
 * each consumer sees each producer's elements in the order they were offered. A short version
 * of the soak test in stress-tests, kept here so a broken queue fails the core build.
 */
class ConcurrentQueueTest {
    private static final int PRODUCERS = 2;
    private static final int CONSUMERS = 2;
    private static final int PER_PRODUCER = 100_000;

    static Stream<Named<Supplier<BatchQueue<Long>>>> queues() {
        return Stream.of(
                Named.of("ScqQueue(4)", () -> new ScqQueue<>(4)),
                Named.of("ScqQueue(1024)", () -> new ScqQueue<>(1024)),
                Named.of("LscqQueue(1)", () -> new LscqQueue<>(1)),
                Named.of("LscqQueue(16)", () -> new LscqQueue<>(16)));
    }

    @ParameterizedTest
    @MethodSource("queues")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void everyElementArrivesOnceInPerProducerOrder(final Supplier<BatchQueue<Long>> factory) throws Exception {
        final BatchQueue<Long> q = factory.get();
        final long total = (long) PRODUCERS * PER_PRODUCER;
        final AtomicLong consumed = new AtomicLong();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        final List<long[]> lastSeen = new ArrayList<>();
        final List<BitSet[]> seen = new ArrayList<>();
        final List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final long id = p;
            threads.add(new Thread(() -> {
                await(start);
                for (long s = 0; s < PER_PRODUCER; s++) {
                    final Long v = (id << 40) | s;
                    while (!q.offer(v)) {
                        Thread.yield(); // bounded queue full
                    }
                }
            }));
        }
        for (int c = 0; c < CONSUMERS; c++) {
            final long[] last = new long[PRODUCERS];
            java.util.Arrays.fill(last, -1L);
            final BitSet[] mine = new BitSet[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                mine[p] = new BitSet(PER_PRODUCER);
            }
            lastSeen.add(last);
            seen.add(mine);
            threads.add(new Thread(() -> {
                await(start);
                try {
                    while (consumed.get() < total) {
                        final Long v = q.poll();
                        if (v == null) {
                            Thread.yield(); // more threads than cores: give producers the CPU
                            continue;
                        }
                        final int id = (int) (v >>> 40);
                        final long seq = v & ((1L << 40) - 1);
                        if (seq <= last[id]) {
                            throw new AssertionError("producer " + id + ": " + seq + " after " + last[id]);
                        }
                        last[id] = seq;
                        mine[id].set((int) seq);
                        consumed.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                    consumed.set(Long.MAX_VALUE);
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (final Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> failures.get(0).toString());
        assertEquals(total, consumed.get());
        for (int p = 0; p < PRODUCERS; p++) {
            final BitSet all = new BitSet(PER_PRODUCER);
            for (final BitSet[] mine : seen) {
                assertTrue(!all.intersects(mine[p]), "an element arrived twice");
                all.or(mine[p]);
            }
            assertEquals(PER_PRODUCER, all.cardinality(), "producer " + p + ": every element once");
        }
        assertEquals(null, q.poll());
    }

    private static void await(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

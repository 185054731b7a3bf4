package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.QueueTestAccess;
import dev.slipstream.stress.TestSize;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Soak: P producers and C consumers, more threads than cores, through each queue for a bounded
 * time. Each value is {@code (producerId << 40) | seq}. Checked: every consumer sees each
 * producer's values in increasing order; every value arrives exactly once (a bitset per
 * producer and consumer, disjoint, and together complete); sums and XORs of what was produced
 * and consumed agree. Orders 0 to 16 are sampled, and the ring counters start just below the
 * points where {@code p << 1} (2^62) and {@code p} itself (2^63) change sign.
 */
@Tag("scaled")
class QueueSoakTest {
    private static final int PRODUCERS = 3;
    private static final int CONSUMERS = 3;
    /** Production time per configuration ({@link TestSize}): the whole class takes about 4 s in every build, under a minute with {@code -Pstress}. */
    private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(TestSize.pick(400, 1_800, 60_000));
    private static final long MAX_PER_PRODUCER = 1L << 22;
    /** Producers pause while this many elements are in flight, to bound memory. */
    private static final long MAX_BACKLOG = 20_000;
    private static final long SEQ_MASK = (1L << 40) - 1;

    private static final long NEAR_SHIFT_SIGN = (1L << 62) - 5_000;
    private static final long NEAR_SIGN = Long.MAX_VALUE - 5_000;

    static Stream<Named<Supplier<Queue<Long>>>> queues() {
        return Stream.of(
                Named.of("ScqQueue order 0, start 2^63-5000", () -> QueueTestAccess.scq(1, NEAR_SIGN)),
                Named.of("ScqQueue order 1, start 2^62-5000", () -> QueueTestAccess.scq(2, NEAR_SHIFT_SIGN)),
                Named.of("ScqQueue order 3, start -5000", () -> QueueTestAccess.scq(8, -5_000L)),
                Named.of("ScqQueue order 6, start 2^63-5000", () -> QueueTestAccess.scq(64, NEAR_SIGN)),
                Named.of("ScqQueue order 10, start 2^62-5000", () -> QueueTestAccess.scq(1 << 10, NEAR_SHIFT_SIGN)),
                Named.of("ScqQueue order 16, start 2^63-5000", () -> QueueTestAccess.scq(1 << 16, NEAR_SIGN)),
                Named.of("LscqQueue order 0, start 2^62-5000", () -> QueueTestAccess.lscq(1, NEAR_SHIFT_SIGN)),
                Named.of("LscqQueue order 2, start 2^62-5000", () -> QueueTestAccess.lscq(4, NEAR_SHIFT_SIGN)),
                Named.of("LscqQueue order 5, start 2^62-5000", () -> QueueTestAccess.lscq(32, NEAR_SHIFT_SIGN)),
                Named.of("LscqQueue order 12, start 2^62-5000", () -> QueueTestAccess.lscq(1 << 12, NEAR_SHIFT_SIGN)),
                Named.of("LscqQueue order 16, start 2^62-5000", () -> QueueTestAccess.lscq(1 << 16, NEAR_SHIFT_SIGN)),
                Named.of("LprqQueue ring 1, start 2^62-5000", () -> QueueTestAccess.lprq(1, NEAR_SHIFT_SIGN)),
                Named.of("LprqQueue ring 4, start 2^62-5000", () -> QueueTestAccess.lprq(4, NEAR_SHIFT_SIGN)),
                Named.of("LprqQueue ring 2^10, start 0", () -> QueueTestAccess.lprq(1 << 10, 0L)),
                Named.of("LprqQueue ring 2^12, start 2^62-5000", () -> QueueTestAccess.lprq(1 << 12, NEAR_SHIFT_SIGN)));
    }

    /** One consumer's record: what it saw, per producer. */
    private static final class Seen {
        final long[] last = new long[PRODUCERS];
        final BitSet[] values = new BitSet[PRODUCERS];
        final long[] sum = new long[PRODUCERS];
        final long[] xor = new long[PRODUCERS];

        Seen() {
            java.util.Arrays.fill(last, -1L);
            for (int p = 0; p < PRODUCERS; p++) {
                values[p] = new BitSet();
            }
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void producersAndConsumersAgreeOnEveryValue(final Supplier<Queue<Long>> factory) throws Exception {
        final Queue<Long> q = factory.get();
        final long[] produced = new long[PRODUCERS];
        final long[] producedSum = new long[PRODUCERS];
        final long[] producedXor = new long[PRODUCERS];
        final AtomicLong consumed = new AtomicLong();
        final AtomicLong producersLeft = new AtomicLong(PRODUCERS);
        final AtomicLong totalProduced = new AtomicLong();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        final Seen[] seen = new Seen[CONSUMERS];

        for (int p = 0; p < PRODUCERS; p++) {
            final int id = p;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    final long deadline = System.nanoTime() + RUN_NANOS;
                    long seq = 0;
                    long sum = 0;
                    long xor = 0;
                    while (seq < MAX_PER_PRODUCER && ((seq & 255) != 0 || System.nanoTime() < deadline)) {
                        if ((seq & 255) == 0) {
                            while (totalProduced.get() - consumed.get() > MAX_BACKLOG && failures.isEmpty()) {
                                Thread.yield();
                            }
                        }
                        final long v = ((long) id << 40) | seq;
                        while (!q.offer(v)) {
                            Thread.yield(); // full (or spuriously full): consumers need the core
                        }
                        sum += v;
                        xor ^= v;
                        seq++;
                        if ((seq & 255) == 0) {
                            totalProduced.addAndGet(256);
                        }
                    }
                    totalProduced.addAndGet(seq & 255);
                    produced[id] = seq;
                    producedSum[id] = sum;
                    producedXor[id] = xor;
                } catch (Throwable t) {
                    failures.add(t);
                } finally {
                    producersLeft.decrementAndGet();
                }
            }, "producer-" + p));
        }
        for (int c = 0; c < CONSUMERS; c++) {
            final Seen mine = new Seen();
            seen[c] = mine;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    while (failures.isEmpty()) {
                        final Long v = q.poll();
                        if (v == null) {
                            // volatile reads: finished when producers are done and all is counted
                            if (producersLeft.get() == 0 && consumed.get() == totalProduced.get()) {
                                return;
                            }
                            Thread.yield(); // more threads than cores: never spin on an empty queue
                            continue;
                        }
                        final int id = (int) (v >>> 40);
                        final long seq = v & SEQ_MASK;
                        if (seq <= mine.last[id]) {
                            throw new AssertionError("producer " + id + ": " + seq + " after " + mine.last[id]);
                        }
                        mine.last[id] = seq;
                        mine.values[id].set((int) seq);
                        mine.sum[id] += v;
                        mine.xor[id] ^= v;
                        consumed.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }, "consumer-" + c));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (final Thread t : threads) {
            t.join();
        }
        assertTrue(failures.isEmpty(), () -> "failed: " + failures.get(0));
        long total = 0;
        for (int p = 0; p < PRODUCERS; p++) {
            final BitSet all = new BitSet();
            long sum = 0;
            long xor = 0;
            for (final Seen s : seen) {
                assertFalse(all.intersects(s.values[p]), "producer " + p + ": a value arrived twice");
                all.or(s.values[p]);
                sum += s.sum[p];
                xor ^= s.xor[p];
            }
            assertEquals(produced[p], all.cardinality(), "producer " + p + ": values lost");
            assertEquals(produced[p], all.length(), "producer " + p + ": values from nowhere");
            assertEquals(producedSum[p], sum, "producer " + p + ": checksum");
            assertEquals(producedXor[p], xor, "producer " + p + ": xor");
            total += produced[p];
        }
        assertEquals(total, consumed.get());
        assertTrue(total > 10_000, "the run moved " + total + " values");
        assertNull(q.poll(), "nothing left");
    }
}

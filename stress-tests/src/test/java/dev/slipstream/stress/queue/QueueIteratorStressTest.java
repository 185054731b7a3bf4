package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.LscqBlockingQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.QueueTestAccess;
import dev.slipstream.queue.ScqBlockingQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.stress.TestSize;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The weakly consistent iterator while producers and a consumer run: two producers offer
 * {@code (producerId << 40) | seq}, one consumer polls, one thread iterates again and again, for
 * a bounded time (more threads than cores, so threads are preempted mid-iteration). Each
 * iteration is checked with exact accounting:
 * <ul>
 *   <li>no element is returned twice, and each producer's elements come in increasing order
 *       (FIFO per producer);</li>
 *   <li>no element returned was offered after the iterator was created (its offer had at least
 *       begun by then), and none was polled before the iteration began;</li>
 *   <li>every element present for the whole iteration is returned: producer {@code p}'s
 *       elements from two past the last one the consumer had polled when the iteration ended
 *       (the one after it may be in a poll in progress) up to the last offer completed before
 *       it began.</li>
 * </ul>
 * A test passes only if it can fail: {@link #theCheckCatchesAnIteratorWithoutTheCycleCheck()}
 * runs the same checks against a copy of the iteration logic with one check removed and
 * expects a violation.
 */
@Tag("scaled")
class QueueIteratorStressTest {
    private static final int PRODUCERS = 2;
    private static final long SEQ_MASK = (1L << 40) - 1;
    /** Producers pause while this many elements are in the queue, so it stays small and churns. */
    private static final long MAX_BACKLOG = 48;

    static Stream<Named<Supplier<Queue<Long>>>> queues() {
        return Stream.of(
                Named.of("ScqQueue(8)", () -> new ScqQueue<>(8)),
                Named.of("ScqQueue(64) near 2^63", () -> QueueTestAccess.scq(64, Long.MAX_VALUE - 100_000)),
                Named.of("LscqQueue(2)", () -> new LscqQueue<>(2)),
                Named.of("LscqQueue(16) near 2^62", () -> QueueTestAccess.lscq(16, (1L << 62) - 100_000)),
                Named.of("ScqBlockingQueue(16)", () -> new ScqBlockingQueue<>(16)),
                Named.of("LscqBlockingQueue(4)", () -> new LscqBlockingQueue<>(4, new HybridWaitStrategy())));
    }

    /** What a run found. */
    static final class Result {
        volatile String violation;
        long iterations;
        long returned;
        /** Elements the completeness check required (and found). */
        long required;
    }

    @ParameterizedTest
    @MethodSource("queues")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void iteratorKeepsItsPromisesWhileTheQueueChurns(final Supplier<Queue<Long>> factory) throws InterruptedException {
        final Result r = run(factory.get(), Queue::iterator, TimeUnit.MILLISECONDS.toNanos(TestSize.pick(1_000, 3_000, 60_000)), false);
        assertNull(r.violation, r.violation);
        assertTrue(r.iterations > 100, "iterations: " + r.iterations);
        assertTrue(r.returned > 0, "returned: " + r.returned);
        assertTrue(r.required > 0, "the completeness check never required an element: " + r.required);
    }

    @Test
    @Tag("stress")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void theCheckCatchesAnIteratorWithoutTheCycleCheck() throws InterruptedException {
        final Result r = run(new ScqQueue<>(8),
                q -> QueueTestAccess.iteratorWithoutCycleCheck((ScqQueue<Long>) q),
                TimeUnit.SECONDS.toNanos(60), true);
        assertNotNull(r.violation, "the seeded bug went unnoticed in " + r.iterations + " iterations");
        System.out.println("seeded bug caught after " + r.iterations + " iterations: " + r.violation);
    }

    /**
     * Runs producers, a consumer and an iterating thread until {@code nanos} pass (or, with
     * {@code stopAtViolation}, a violation is found).
     */
    static Result run(final Queue<Long> q, final Function<Queue<Long>, Iterator<Long>> iterators,
                      final long nanos, final boolean stopAtViolation) throws InterruptedException {
        final Result result = new Result();
        // offersDone[p]: offers of producer p completed; polled[p]: the last seq of p polled
        final AtomicLongArray offersDone = new AtomicLongArray(PRODUCERS);
        final AtomicLongArray lastPolled = new AtomicLongArray(PRODUCERS);
        for (int p = 0; p < PRODUCERS; p++) {
            lastPolled.set(p, -1L);
        }
        final AtomicLong inQueue = new AtomicLong();
        final long deadline = System.nanoTime() + nanos;
        final CountDownLatch start = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<Thread> threads = new ArrayList<>();
        final java.util.function.BooleanSupplier running = () -> System.nanoTime() - deadline < 0
                && failure.get() == null && !(stopAtViolation && result.violation != null);
        for (int p = 0; p < PRODUCERS; p++) {
            final int id = p;
            threads.add(new Thread(() -> {
                await(start);
                long seq = 0;
                while (running.getAsBoolean()) {
                    if (inQueue.get() >= MAX_BACKLOG) {
                        Thread.yield();
                        continue;
                    }
                    if (q.offer(((long) id << 40) | seq)) {
                        inQueue.incrementAndGet();
                        offersDone.set(id, ++seq); // after the offer returned
                    } else {
                        Thread.yield(); // bounded queue full
                    }
                }
            }, "producer-" + p));
        }
        threads.add(new Thread(() -> {
            await(start);
            try {
                while (running.getAsBoolean()) {
                    final Long v = q.poll();
                    if (v == null) {
                        Thread.yield();
                        continue;
                    }
                    inQueue.decrementAndGet();
                    final int id = (int) (v >>> 40);
                    final long seq = v & SEQ_MASK;
                    if (seq != lastPolled.get(id) + 1) {
                        throw new AssertionError("consumer: producer " + id + " gave " + seq + " after " + lastPolled.get(id));
                    }
                    lastPolled.set(id, seq); // after the poll returned
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "consumer"));
        threads.add(new Thread(() -> {
            await(start);
            try {
                final long[] offeredBefore = new long[PRODUCERS];
                final long[] offeredAtCreation = new long[PRODUCERS];
                final long[] polledBefore = new long[PRODUCERS];
                final long[] last = new long[PRODUCERS];
                final List<Long> seen = new ArrayList<>();
                while (running.getAsBoolean()) {
                    for (int p = 0; p < PRODUCERS; p++) {
                        offeredBefore[p] = offersDone.get(p);
                        polledBefore[p] = lastPolled.get(p);
                        last[p] = -1L;
                    }
                    seen.clear();
                    final Iterator<Long> it = iterators.apply(q);
                    // read after the iterator took its tail snapshot: an element below that
                    // snapshot was offered by an offer that had begun, so its producer had
                    // completed every earlier offer
                    for (int p = 0; p < PRODUCERS; p++) {
                        offeredAtCreation[p] = offersDone.get(p);
                    }
                    while (it.hasNext()) {
                        seen.add(it.next());
                    }
                    final String violation = check(seen, offeredBefore, offeredAtCreation, polledBefore, last,
                            lastPolled, result);
                    result.iterations++;
                    if (violation != null && result.violation == null) {
                        result.violation = "iteration " + result.iterations + ": " + violation + " in " + seen;
                    }
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, "iterator"));
        threads.forEach(Thread::start);
        start.countDown();
        for (final Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a thread failed", failure.get());
        }
        return result;
    }

    /** The checks of one iteration; null if it kept every promise. */
    private static String check(final List<Long> seen, final long[] offeredBefore, final long[] offeredAtCreation,
                                final long[] polledBefore, final long[] last, final AtomicLongArray lastPolled,
                                final Result result) {
        for (final Long v : seen) {
            final int id = (int) (v >>> 40);
            final long seq = v & SEQ_MASK;
            if (seq <= last[id]) {
                return "producer " + id + ": " + seq + " after " + last[id] + " (twice, or out of FIFO order)";
            }
            last[id] = seq;
            // offersDone counts completed offers, so seq == offeredAtCreation is one in progress
            if (seq > offeredAtCreation[id]) {
                return "producer " + id + ": " + seq + " was offered after the iterator was created (then "
                        + offeredAtCreation[id] + " offers were done)";
            }
            if (seq <= polledBefore[id]) {
                return "producer " + id + ": " + seq + " was polled before the iteration began";
            }
        }
        result.returned += seen.size();
        // present throughout: offered before the start, not polled by the end (the element after
        // the last polled one may be inside a poll in progress)
        Set<Long> returned = null;
        for (int p = 0; p < PRODUCERS; p++) {
            final long from = lastPolled.get(p) + 2;
            for (long seq = from; seq < offeredBefore[p]; seq++) {
                if (returned == null) {
                    returned = new HashSet<>(seen);
                }
                if (!returned.contains(((long) p << 40) | seq)) {
                    return "producer " + p + ": " + seq + " was present throughout but not returned";
                }
                result.required++;
            }
        }
        return null;
    }

    private static void await(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

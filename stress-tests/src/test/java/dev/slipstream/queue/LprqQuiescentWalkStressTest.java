package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link LprqQueue}'s walks over its positions ({@code size()}, {@code isEmpty()} through
 * {@code peek()}, the iterator) while nobody operates, after rounds of two producers and two
 * consumers on new queues with rings of one cell. Such rounds leave elements more than a ring's
 * length past the head: an offer whose cell still shows a safe epoch below its position (the
 * earlier positions of the cell were taken by offers that failed there, as happens in a new
 * ring's first lap) publishes at its own position. A walk that stops a ring's length past the
 * head, as the shipped one did, misses them; the second test shows that these rounds catch such
 * a walk (a copy of the old walk, in this file).
 */
class LprqQuiescentWalkStressTest {
    /** Queues for the shipped walks: a bounded walk missed an element in about 1 of 25. */
    private static final int QUEUES = 100;
    /** Concurrent rounds per queue, each followed by the checks. */
    private static final int ROUNDS = 40;
    /** The most queues the mutant walk may take before the check is said to have missed it. */
    private static final int MUTANT_QUEUES = 2_000;

    @Test
    void everyWalkSeesEveryElementWhenNobodyOperates() throws InterruptedException {
        for (int queue = 0; queue < QUEUES; queue++) {
            final LprqQueue<Integer> q = new LprqQueue<>(1);
            long inQueue = 0;
            for (int round = 0; round < ROUNDS; round++) {
                inQueue += churn(q, round);
                final String when = " after round " + round + " of queue " + queue;
                assertEquals(inQueue, q.size(), "size()" + when);
                assertEquals(inQueue, iterated(q), "iterator" + when);
                assertEquals(inQueue == 0, q.isEmpty(), "isEmpty()" + when);
            }
            long drained = 0;
            while (q.poll() != null) {
                drained++;
            }
            assertEquals(inQueue, drained, "elements polled at the end of queue " + queue);
        }
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAWalkThatStopsARingsLengthPastTheHead() throws InterruptedException {
        for (int queue = 0; queue < MUTANT_QUEUES; queue++) {
            final LprqQueue<Integer> q = new LprqQueue<>(1);
            long inQueue = 0;
            for (int round = 0; round < ROUNDS; round++) {
                inQueue += churn(q, round);
                if (countStoppingALapPastTheHead(q) != inQueue) {
                    return; // caught
                }
            }
        }
        fail("the bounded walk counted every element of " + MUTANT_QUEUES + " queues");
    }

    /**
     * Two producers and two consumers, each doing 500 to 1,200 operations at once; returns
     * offers accepted minus elements polled.
     */
    private static long churn(final LprqQueue<Integer> q, final int round) throws InterruptedException {
        final AtomicLong offered = new AtomicLong();
        final AtomicLong polled = new AtomicLong();
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        final int ops = 500 + 97 * round % 700;
        for (int t = 0; t < 4; t++) {
            final boolean producer = t % 2 == 0;
            threads.add(new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < ops; i++) {
                    if (producer) {
                        if (q.offer(i)) {
                            offered.incrementAndGet();
                        }
                    } else if (q.poll() != null) {
                        polled.incrementAndGet();
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        start.countDown();
        for (final Thread t : threads) {
            t.join();
        }
        return offered.get() - polled.get();
    }

    private static long iterated(final LprqQueue<Integer> q) {
        long n = 0;
        for (final Iterator<Integer> it = q.iterator(); it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    /** The walk as it was: each ring's positions from its head to at most a ring's length on. */
    private static long countStoppingALapPastTheHead(final LprqQueue<Integer> q) {
        long n = 0;
        for (PrqRing r = q.headRing; r != null && r != LprqQueue.CLOSED_LINK; r = r.lvNext()) {
            final long from = r.firstPosition();
            final long end = Math.min(r.endPosition(), from + r.size);
            for (long p = from; p < end; p++) {
                if (r.elementAt(p) != null) {
                    n++;
                }
            }
        }
        return n;
    }
}

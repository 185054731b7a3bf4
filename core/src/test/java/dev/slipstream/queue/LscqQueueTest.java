package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LscqQueueTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -4, 6, 1 << 30})
    void segmentCapacityMustBeAPowerOfTwoInRange(final int capacity) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LscqQueue<Integer>(capacity));
        assertEquals("segmentCapacity must be a power of two between 1 and 536870912, got " + capacity,
                e.getMessage());
    }

    @Test
    void startOfTheCountersMustLeaveRoomForTheFinalizeBit() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LscqQueue<Integer>(4, true, -1L));
        assertEquals("start must be between 0 and 2^62, got -1", e.getMessage());
    }

    @Test
    void defaultsAreDocumented() {
        final LscqQueue<Integer> q = new LscqQueue<>();
        assertEquals(LscqQueue.DEFAULT_SEGMENT_CAPACITY, q.segmentCapacity());
        assertEquals(4096, q.segmentCapacity());
        assertTrue(q.isCacheRemap());
        assertFalse(new LscqQueue<Integer>(8, false).isCacheRemap());
    }

    @Test
    void aBacklogAllocatesSegmentsAndDrainingRetiresThem() {
        final LscqQueue<Integer> q = new LscqQueue<>(4);
        for (int i = 0; i < 40; i++) {
            q.offer(i);
        }
        assertEquals(10, q.segmentsAllocated(), "40 elements in segments of 4");
        assertEquals(10, QueueInternals.segmentsLinked(q));
        assertEquals(40, q.size());
        final LscqQueue.Segment first = QueueInternals.headSegment(q);
        for (int i = 0; i < 40; i++) {
            assertEquals(i, q.poll());
        }
        assertNull(q.poll());
        assertTrue(first != QueueInternals.headSegment(q), "drained segments are retired");
    }

    @Test
    void consumersThatKeepUpReuseOneSegmentForever() {
        final LscqQueue<Integer> q = new LscqQueue<>(8);
        for (int i = 0; i < 100_000; i++) {
            q.offer(i);
            q.offer(i);
            assertEquals(i, q.poll());
            assertEquals(i, q.poll());
        }
        assertEquals(1, q.segmentsAllocated(), "no allocation while the backlog fits one segment");
    }

    @Test
    void closedEmptyQueueIsDrainedAtOnce() {
        final LscqQueue<Integer> q = new LscqQueue<>(4);
        q.close();
        assertTrue(q.isDrained());
        assertFalse(new LscqQueue<Integer>(4).isDrained(), "open queues are never drained for good");
    }

    @Test
    void manyProducersFindingTheTailFullAllocateBoundedSegments() {
        // a burst: 8 producers, segments of 2, nobody consuming. Each producer that finds the
        // tail full waits for the one allocating instead of allocating a segment of its own.
        final int producers = 8;
        final int perProducer = 5_000;
        final LscqQueue<Long> q = new LscqQueue<>(2);
        final CountDownLatch start = new CountDownLatch(1);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final long id = p;
            final Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (long s = 0; s < perProducer; s++) {
                    q.offer((id << 40) | s);
                }
            });
            t.start();
            threads.add(t);
        }
        start.countDown();
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (final Thread t : threads) {
                t.join();
            }
        });
        final long allocated = q.segmentsAllocated();
        final long linked = QueueInternals.segmentsLinked(q);
        // every allocation is linked, except those made by bypassing a stalled gate holder
        assertTrue(allocated - linked <= QueueInternals.gateBypasses(q),
                "allocated " + allocated + ", linked " + linked + ", bypasses " + QueueInternals.gateBypasses(q));
        // the list holds what it must: 40 000 elements in segments of 2
        assertTrue(linked >= producers * perProducer / 2, "linked " + linked);
        final long[] nextSeq = new long[producers];
        Long v;
        long count = 0;
        while ((v = q.poll()) != null) {
            final int id = (int) (v >>> 40);
            assertEquals(nextSeq[id]++, v & ((1L << 40) - 1), "per-producer order");
            count++;
        }
        assertEquals((long) producers * perProducer, count);
    }

    /**
     * A producer waiting for another producer's new segment counts its rounds per tail segment:
     * when the tail moves on, the count starts again. Each attempt first measures how long a
     * producer waits at one full segment, with the gate held, before it bypasses the gate (its
     * rounds run at whatever speed the machine gives it). Then, holding the gate, the test links
     * 40 full segments, each a quarter of that time after the waiting producer found the previous
     * one full. A producer whose count carried over from segment to segment reaches the bypass
     * after about four links; a correct one never does, unless the machine slows the test thread
     * down fourfold against the producer for a while: so the test makes up to 40 attempts and
     * passes when one of them holds the gate through every link.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aGateWaiterStartsCountingAgainWhenTheTailMoves() throws InterruptedException {
        final List<String> bypassed = new ArrayList<>();
        for (int attempt = 0; attempt < 40; attempt++) {
            // the median of three measurements: neither a stalled nor a truncated one
            final long[] measured = {nanosUntilAWaitingProducerBypassesTheGate(),
                    nanosUntilAWaitingProducerBypassesTheGate(), nanosUntilAWaitingProducerBypassesTheGate()};
            java.util.Arrays.sort(measured);
            final long bypassNanos = measured[1];
            final long linked = linkFullSegmentsWhileAProducerWaits(40, bypassNanos / 4);
            if (linked < 0) {
                return; // the producer waited for the gate holder through every link
            }
            bypassed.add(linked + " links of " + bypassNanos / 4 + " ns");
        }
        throw new AssertionError("the waiting producer bypassed the gate in every attempt, after " + bypassed);
    }

    /** How long a producer waits at one full segment, the gate held, before it bypasses. */
    private static long nanosUntilAWaitingProducerBypassesTheGate() throws InterruptedException {
        final LscqQueue<Integer> q = new LscqQueue<>(1);
        assertTrue(QueueInternals.takeGate(q));
        assertTrue(q.offer(0));
        final Thread producer = new Thread(() -> q.offer(1));
        final LscqQueue.Segment first = QueueInternals.headSegment(q);
        producer.start();
        while (!QueueInternals.isFinalized(first.aq)) {
            Thread.onSpinWait();
        }
        final long from = System.nanoTime();
        producer.join();
        final long waited = System.nanoTime() - from;
        assertEquals(1, QueueInternals.gateBypasses(q), "a stalled gate holder is bypassed");
        return waited;
    }

    /**
     * Holds the gate and links {@code links} full segments, each {@code delayNanos} after the
     * producer offering behind them has found the tail full.
     *
     * @return -1 if the producer never bypassed the gate, else the segments linked before it did
     */
    private static long linkFullSegmentsWhileAProducerWaits(final int links, final long delayNanos)
            throws InterruptedException {
        final LscqQueue<Integer> q = new LscqQueue<>(1);
        assertTrue(QueueInternals.takeGate(q), "the test plays the producer that allocates");
        assertTrue(q.offer(0)); // the first segment is full
        // built beforehand, so that linking one takes the test thread a few instructions
        final LscqQueue.Segment[] full = new LscqQueue.Segment[links + 1];
        for (int k = 1; k <= links; k++) {
            full[k] = new LscqQueue.Segment(0, true, 0L);
            assertTrue(full[k].offer(k));
        }
        final Thread producer = new Thread(() -> q.offer(-1));
        producer.start();
        LscqQueue.Segment tail = QueueInternals.headSegment(q);
        for (int k = 1; k <= links; k++) {
            // the producer finds the tail full: it finalizes it, then waits for the gate
            while (!QueueInternals.isFinalized(tail.aq) && producer.isAlive()) {
                Thread.onSpinWait();
            }
            // let it wait a quarter of what it waits before a bypass; parked, as the test
            // thread was (in join) while that was measured, so that the producer gets the CPU
            // it got then
            LockSupport.parkNanos(delayNanos);
            if (!producer.isAlive() || !tail.casNext(full[k])) {
                producer.join();
                assertTrue(QueueInternals.gateBypasses(q) > 0, "only a bypass lets it past the held gate");
                return k - 1;
            }
            tail = full[k];
        }
        while (!QueueInternals.isFinalized(tail.aq) && producer.isAlive()) {
            Thread.onSpinWait();
        }
        final long bypasses = QueueInternals.gateBypasses(q);
        QueueInternals.releaseGate(q);
        producer.join();
        if (bypasses > 0) {
            return links;
        }
        final List<Integer> expected = new ArrayList<>();
        for (int k = 0; k <= links; k++) {
            expected.add(k);
        }
        expected.add(-1);
        final List<Integer> out = new ArrayList<>();
        q.drain(out::add, Integer.MAX_VALUE);
        assertEquals(expected, out, "every element once, in order");
        return -1;
    }

    @Test
    void peekSkipsAnEmptiedHeadSegment() {
        final LscqQueue<String> q = new LscqQueue<>(1);
        q.offer("a");
        q.offer("b");
        assertEquals("a", q.poll());
        assertSame("b", q.peek());
        assertEquals(1, q.size());
    }
}

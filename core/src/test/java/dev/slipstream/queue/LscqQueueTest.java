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
import org.junit.jupiter.api.Test;
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
        assertEquals(10, q.segmentsLinked());
        assertEquals(40, q.size());
        final LscqQueue.Segment first = q.headSegment();
        for (int i = 0; i < 40; i++) {
            assertEquals(i, q.poll());
        }
        assertNull(q.poll());
        assertTrue(first != q.headSegment(), "drained segments are retired");
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
    void closeRefusesLaterOffersAndKeepsWhatWasAccepted() {
        final LscqQueue<Integer> q = new LscqQueue<>(2);
        for (int i = 0; i < 5; i++) {
            q.offer(i);
        }
        assertFalse(q.isClosed());
        q.close();
        q.close(); // idempotent
        assertTrue(q.isClosed());
        assertFalse(q.offer(99));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.add(99));
        assertEquals("queue is closed", e.getMessage());
        assertEquals(0, q.fill(() -> 1, 3));
        final List<Integer> out = new ArrayList<>();
        Integer x;
        while (!q.isDrained()) {
            while ((x = q.poll()) != null) {
                out.add(x);
            }
        }
        assertEquals(List.of(0, 1, 2, 3, 4), out);
        assertNull(q.poll());
        assertNull(q.peek());
        assertTrue(q.toString().contains("closed"));
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
        final long linked = q.segmentsLinked();
        // every allocation is linked, except those made by bypassing a stalled gate holder
        assertTrue(allocated - linked <= q.gateBypasses(),
                "allocated " + allocated + ", linked " + linked + ", bypasses " + q.gateBypasses());
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

package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScqQueueTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 3, 1000, Integer.MIN_VALUE, (1 << 29) + 1, 1 << 30})
    void capacityMustBeAPowerOfTwoInRange(final int capacity) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ScqQueue<Integer>(capacity));
        assertEquals("capacity must be a power of two between 1 and 536870912, got " + capacity, e.getMessage());
    }

    @Test
    void reportsItsConfiguration() {
        final ScqQueue<Integer> q = new ScqQueue<>(64, false);
        assertEquals(64, q.capacity());
        assertFalse(q.isCacheRemap());
        assertTrue(new ScqQueue<Integer>(2).isCacheRemap());
    }

    @Test
    void pollOnAnEmptyQueueDoesNotAdvanceState() {
        final ScqQueue<Integer> q = new ScqQueue<>(16);
        final IndexRing aq = QueueInternals.rings(q).aq;
        final IndexRing fq = QueueInternals.rings(q).fq;
        for (int i = 0; i < 100; i++) {
            assertNull(q.poll());
        }
        assertEquals(0L, aq.lvHead(), "fresh queue: the threshold stops polls before the head");
        assertEquals(0L, aq.lvTailPosition());
        assertEquals(0L, fq.lvHead());
        assertEquals(16L, fq.lvTailPosition());

        // after traffic: once a poll has found the queue empty for good, polls touch nothing
        for (int i = 0; i < 10; i++) {
            q.offer(i);
        }
        while (q.poll() != null) {
            // drain
        }
        while (aq.lvThreshold() >= 0) {
            assertNull(q.poll());
        }
        final long head = aq.lvHead();
        final long tail = aq.lvTailPosition();
        final long threshold = aq.lvThreshold();
        for (int i = 0; i < 1000; i++) {
            assertNull(q.poll());
        }
        assertEquals(head, aq.lvHead());
        assertEquals(tail, aq.lvTailPosition());
        assertEquals(threshold, aq.lvThreshold());
        assertTrue(q.offer(42));
        assertEquals(42, q.poll());
    }

    @Test
    void pollsAfterTheQueueEmptiesStopTouchingTheRingWithinTheThreshold() {
        final ScqQueue<Integer> q = new ScqQueue<>(128);
        final IndexRing aq = QueueInternals.rings(q).aq;
        q.offer(1);
        q.poll();
        long polls = 0;
        while (aq.lvThreshold() >= 0) {
            q.poll();
            polls++;
        }
        assertEquals(3L * 128, polls, "3n - 1 failed rounds, then the fast path");
    }

    @Test
    void countersNearTheTopOfTheRangeWrapCleanly() {
        for (final long start : new long[] {(1L << 62) - 50, Long.MAX_VALUE - 50, -50L}) {
            final ScqQueue<Long> q = new ScqQueue<>(4, true, start);
            long next = 0;
            long expected = 0;
            for (int round = 0; round < 100; round++) {
                for (int i = 0; i < 3; i++) {
                    assertTrue(q.offer(next++));
                }
                for (int i = 0; i < 3; i++) {
                    assertEquals(expected++, q.poll(), "start " + start);
                }
                assertNull(q.poll());
            }
            assertTrue(QueueInternals.rings(q).aq.lvHead() - start > 300, "the counters went past the boundary");
        }
    }

    @Test
    void offersNeverLoseTheirSlotOnTheFreeRing() {
        final ScqQueue<Integer> q = new ScqQueue<>(4);
        for (int round = 0; round < 1000; round++) {
            for (int i = 0; i < 4; i++) {
                assertTrue(q.offer(i));
            }
            assertFalse(q.offer(9));
            for (int i = 0; i < 4; i++) {
                assertEquals(i, q.poll());
            }
        }
        assertEquals(0, q.size());
    }
}

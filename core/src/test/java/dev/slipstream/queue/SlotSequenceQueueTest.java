package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SlotSequenceQueueTest {

    @ParameterizedTest
    @ValueSource(ints = {0, 1, -1, 3, 1000, Integer.MIN_VALUE, (1 << 29) + 1, 1 << 30})
    void capacityMustBeAPowerOfTwoFromTwo(final int capacity) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SlotSequenceQueue<Integer>(capacity));
        assertEquals("capacity must be a power of two from 2 to 536870912, got " + capacity, e.getMessage());
    }

    @Test
    void reportsItsConfiguration() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(64, false);
        assertEquals(64, q.capacity());
        assertFalse(q.isCacheRemap());
        assertTrue(new SlotSequenceQueue<Integer>(2).isCacheRemap());
        assertFalse(q.isBackingOff());
        final SlotSequenceQueue<Integer> backingOff = SlotSequenceQueue.backingOff(16);
        assertTrue(backingOff.isBackingOff());
        assertTrue(backingOff.isCacheRemap());
        assertEquals(16, backingOff.capacity());
        assertThrows(IllegalArgumentException.class, () -> SlotSequenceQueue.backingOff(3));
    }

    @ParameterizedTest
    @ValueSource(longs = {0L, -3L, Long.MAX_VALUE - 2, (1L << 62) - 3})
    void holdsExactlyItsCapacityInOrderAcrossManyLapsWhereverItsIndicesStart(final long start) {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(64, true, start);
        int next = 0;
        int expected = 0;
        for (int lap = 0; lap < 10; lap++) {
            while (q.offer(next)) {
                next++;
            }
            assertEquals(64, q.size(), "full at 64, lap " + lap);
            assertEquals(expected, q.peek());
            for (int i = 0; i < 40; i++) {
                assertEquals(expected++, q.poll());
            }
            assertEquals(24, q.size());
        }
        while (!q.isEmpty()) {
            assertEquals(expected++, q.poll());
        }
        assertEquals(next, expected);
        assertNull(q.poll());
        assertNull(q.peek());
        assertEquals(0, q.size());
    }

    @Test
    void rejectsNullElements() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(4);
        final NullPointerException e = assertThrows(NullPointerException.class, () -> q.offer(null));
        assertEquals("element must not be null", e.getMessage());
        assertTrue(q.isEmpty());
    }

    @Test
    void drainAndFillMoveBatchesAndStopAtTheLimits() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(8);
        final int[] next = {0};
        assertEquals(8, q.fill(() -> next[0]++, 100), "stops when full");
        assertEquals(8, next[0], "the supplier is called only for taken positions");
        final List<Integer> out = new ArrayList<>();
        assertEquals(3, q.drain(out::add, 3));
        assertEquals(List.of(0, 1, 2), out);
        assertEquals(5, q.drain(out::add, 100));
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), out);
        assertEquals(0, q.drain(out::add, 5));
        assertThrows(IllegalArgumentException.class, () -> q.drain(out::add, -1));
        assertThrows(IllegalArgumentException.class, () -> q.fill(() -> 1, -1));
    }

    @Test
    void drainAndFillRefuseAMissingConsumerOrSupplierAndLeaveTheQueueAsItWas() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(4);
        q.offer(7);
        final NullPointerException noConsumer = assertThrows(NullPointerException.class, () -> q.drain(null, 1));
        assertEquals("consumer must not be null", noConsumer.getMessage());
        final NullPointerException noSupplier = assertThrows(NullPointerException.class, () -> q.fill(null, 1));
        assertEquals("supplier must not be null", noSupplier.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
                () -> q.drain(e -> { }, -1));
        assertEquals("limit must be >= 0, got -1", negative.getMessage());
        assertEquals(List.of(7), new ArrayList<>(q), "nothing taken or added");
    }

    @Test
    void aSupplierThatFailsInFillLeavesAPositionEveryReaderPassesOver() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(8);
        q.offer(1);
        final Supplier<Integer> nothing = () -> null;
        final NullPointerException e = assertThrows(NullPointerException.class, () -> q.fill(nothing, 1));
        assertEquals("supplier returned null; queues do not hold null elements", e.getMessage());
        final Supplier<Integer> failing = () -> {
            throw new IllegalStateException("no element");
        };
        assertThrows(IllegalStateException.class, () -> q.fill(failing, 1));
        q.offer(2);
        assertEquals(2, q.size(), "the two passed positions are not elements");
        assertEquals(List.of(1, 2), new ArrayList<>(q));
        assertEquals(1, q.poll());
        assertEquals(2, q.peek());
        assertEquals(2, q.poll(), "the poll passes over both skipped positions");
        assertNull(q.poll());
        for (int i = 0; i < 8; i++) {
            assertTrue(q.offer(i), "every slot is free again");
        }
        assertFalse(q.offer(8));
    }

    @Test
    void iteratesOldestFirstWithoutRemoving() {
        final SlotSequenceQueue<Integer> q = new SlotSequenceQueue<>(4);
        for (int i = 0; i < 6; i++) {
            q.offer(i);
            if (i >= 3) {
                q.poll();
            }
        }
        assertEquals(List.of(3, 4, 5), new ArrayList<>(q));
        assertEquals(3, q.size());
        assertThrows(UnsupportedOperationException.class, () -> q.iterator().remove());
        assertThrows(UnsupportedOperationException.class, () -> q.remove(4));
    }
}

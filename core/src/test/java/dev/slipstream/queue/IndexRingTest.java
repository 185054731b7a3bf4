package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IndexRingTest {
    /** Starting points: zero, where {@code p << 1} changes sign, where {@code p} itself does. */
    private static final long[] STARTS = {0L, (1L << 62) - 5, Long.MAX_VALUE - 5, -7L};

    @Test
    void packsCycleSafeBitAndIndexIntoOneWord() {
        final IndexRing ring = new IndexRing(3, true, false, 0L, false); // n = 8, 16 entries
        // index in bits 0..3, IsSafe at bit 4 (value 16), cycle from bit 5
        assertEquals(0b1_1_0101L, QueueInternals.pack(ring, 16, true, 5), "cycle 1, safe, index 5");
        assertEquals(0b10_0_0011L, QueueInternals.pack(ring, 32, false, 3), "cycle 2, unsafe, index 3");
        assertEquals(0b0_1_1111L, QueueInternals.pack(ring, 15, true, 15), "cycle 0, safe, empty index");
        // a position's cycle word has all index and IsSafe bits set
        assertEquals(0b1_1_1111L, ring.cycleWord(16));
        assertEquals(0b1_1_1111L, ring.cycleWord(31));
        assertEquals(0b10_1_1111L, ring.cycleWord(32));
    }

    @Test
    void cycleComparisonSurvivesWrapAround() {
        final IndexRing ring = new IndexRing(3, true, false, 0L, false);
        final long[] positions = {(1L << 62) - 16, Long.MAX_VALUE - 15, -16L};
        for (final long p : positions) {
            final long older = ring.cycleWord(p);
            final long newer = ring.cycleWord(p + 16);
            assertTrue(newer - older > 0, "cycle after " + p + " must compare newer");
            assertTrue(older - newer < 0, "cycle at " + p + " must compare older");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 8, 12})
    void remapIsAPermutationOfTheEntries(final int order) {
        for (final boolean remap : new boolean[] {true, false}) {
            final IndexRing ring = new IndexRing(order, remap, false, 0L, false);
            final int entries = 2 << order;
            final BitSet seen = new BitSet();
            for (int p = 0; p < entries; p++) {
                final int slot = ring.slot(p) - IndexRing.ENTRY_PAD;
                assertTrue(slot >= 0 && slot < entries, "slot in range");
                assertFalse(seen.get(slot), "slot used twice: " + slot);
                seen.set(slot);
            }
            // the mapping repeats with period 2n
            assertEquals(ring.slot(3), ring.slot(3 + entries));
        }
    }

    @Test
    void remapPutsNeighbouringPositionsOnDifferentCacheLines() {
        final IndexRing on = new IndexRing(10, true, false, 0L, false);
        final IndexRing off = new IndexRing(10, false, false, 0L, false);
        for (int p = 0; p < 100; p++) {
            assertTrue(Math.abs(on.slot(p + 1) - on.slot(p)) >= 16, "16 longs = 128 bytes apart at " + p);
            assertEquals(1, off.slot(p + 1) - off.slot(p), "remap off: consecutive");
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 5, 10})
    void spreadIndexIsAPermutation(final int order) {
        final Set<Integer> seen = new HashSet<>();
        for (int k = 0; k < (1 << order); k++) {
            assertTrue(seen.add(IndexRing.spreadIndex(k, order, true)));
        }
        if (order >= 5) {
            assertEquals(16, IndexRing.spreadIndex(1, order, true) - IndexRing.spreadIndex(0, order, true));
        }
    }

    @Test
    void fullRingHandsOutEveryIndexOnceThenIsEmpty() {
        for (final long start : STARTS) {
            final IndexRing ring = new IndexRing(4, true, true, start, false);
            final BitSet seen = new BitSet();
            for (int k = 0; k < 16; k++) {
                final int i = ring.dequeue();
                assertEquals(IndexRing.spreadIndex(k, 4, true), i, "start " + start);
                seen.set(i);
            }
            assertEquals(16, seen.cardinality());
            assertEquals(IndexRing.EMPTY, ring.dequeue());
        }
    }

    @Test
    void emptyRingIsFifoAcrossManyLapsFromAnyStart() {
        for (final long start : STARTS) {
            for (final int order : new int[] {0, 1, 3}) {
                final IndexRing ring = new IndexRing(order, true, false, start, false);
                final int n = 1 << order;
                for (int lap = 0; lap < 50; lap++) {
                    for (int i = 0; i < n; i++) {
                        assertTrue(ring.enqueue((i + lap) % n));
                    }
                    for (int i = 0; i < n; i++) {
                        assertEquals((i + lap) % n, ring.dequeue(), "order " + order + " start " + start);
                    }
                    assertEquals(IndexRing.EMPTY, ring.dequeue());
                }
            }
        }
    }

    @Test
    void dequeueOnAnEmptyRingDoesNotMoveTheCounters() {
        final IndexRing ring = new IndexRing(3, true, false, 100L, false);
        assertEquals(-1L, ring.lvThreshold(), "an empty ring starts below zero");
        for (int i = 0; i < 1_000; i++) {
            assertEquals(IndexRing.EMPTY, ring.dequeue());
        }
        assertEquals(100L, ring.lvHead());
        assertEquals(100L, ring.lvTailPosition());
    }

    @Test
    void failedDequeuesRunTheThresholdDownAndCatchTheTailUp() {
        final IndexRing ring = new IndexRing(3, true, false, 0L, false);
        assertTrue(ring.enqueue(5));
        assertEquals(ring.thresholdMax, ring.lvThreshold());
        assertEquals(5, ring.dequeue());
        long rounds = 0;
        while (ring.lvThreshold() >= 0) {
            assertEquals(IndexRing.EMPTY, ring.dequeue());
            rounds++;
            // catchup: the tail never stays behind the head after a failed dequeue
            assertEquals(ring.lvHead(), ring.lvTailPosition());
        }
        assertEquals(ring.thresholdMax + 1, rounds, "one failed round per empty dequeue");
        final long head = ring.lvHead();
        assertEquals(IndexRing.EMPTY, ring.dequeue());
        assertEquals(head, ring.lvHead(), "below zero: no more rounds");
    }

    @Test
    void burstOfDequeuesThenAnEnqueueIsFound() {
        final IndexRing ring = new IndexRing(2, true, false, 0L, false);
        assertTrue(ring.enqueue(1));
        assertEquals(1, ring.dequeue());
        for (int i = 0; i < 37; i++) {
            ring.dequeue(); // head runs far past the tail; catchup drags the tail along
        }
        assertTrue(ring.lvTailPosition() - ring.lvHead() >= 0, "tail caught up with head");
        assertTrue(ring.enqueue(3));
        assertEquals(3, ring.dequeue());
        assertEquals(IndexRing.EMPTY, ring.dequeue());
    }

    @Test
    void thresholdFollowsThePaperFromSixtyFourIndicesAndHasAFloorBelow() {
        assertEquals(3L * 64 - 1, new IndexRing(6, true, false, 0L, false).thresholdMax);
        assertEquals(3L * 4096 - 1, new IndexRing(12, true, false, 0L, false).thresholdMax);
        assertEquals(2L + 64 - 1, new IndexRing(0, true, false, 0L, false).thresholdMax);
    }

    @Test
    void finalizedRingRefusesEnqueuesAndCatchupKeepsTheBit() {
        final IndexRing ring = new IndexRing(2, true, false, 0L, true);
        assertTrue(ring.enqueue(0));
        ring.finalizeRing();
        assertTrue(QueueInternals.isFinalized(ring));
        assertFalse(ring.enqueue(1));
        assertEquals(0, ring.dequeue());
        for (int i = 0; i < 10; i++) {
            ring.resetThreshold();
            assertEquals(IndexRing.EMPTY, ring.dequeue()); // head passes tail; catchup must not CAS
        }
        assertTrue(QueueInternals.isFinalized(ring), "catchup must never clear the finalize bit");
        assertFalse(ring.enqueue(2));
    }

    @Test
    void finalizeBitIsBit63AndNotPartOfTheCount() {
        final IndexRing ring = new IndexRing(1, true, false, 40L, true);
        ring.finalizeRing();
        assertEquals(IndexRing.FINALIZE | 40L, ring.lvTail());
        assertEquals(40L, ring.lvTailPosition());
    }

    @Test
    void orderZeroRingAlternatesBetweenItsTwoEntries() {
        final IndexRing ring = new IndexRing(0, false, false, 0L, false);
        for (int lap = 0; lap < 6; lap++) {
            assertTrue(ring.enqueue(0));
            assertEquals(QueueInternals.pack(ring, lap, true, 0), QueueInternals.rawEntry(ring, lap), "entry of position " + lap);
            assertEquals(0, ring.dequeue());
            // consumed: the cycle and IsSafe stay, the index becomes empty
            assertEquals(QueueInternals.pack(ring, lap, true, 1), QueueInternals.rawEntry(ring, lap));
        }
    }

    @Test
    void rejectsOrdersOutOfRange() {
        final IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
                () -> new IndexRing(-1, true, false, 0L, false));
        assertEquals("order must be between 0 and 29, got -1", low.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new IndexRing(30, true, false, 0L, false));
        final IllegalArgumentException start = assertThrows(IllegalArgumentException.class,
                () -> new IndexRing(2, true, false, -1L, true));
        assertEquals("start of a finalizable ring must be between 0 and 2^62, got -1", start.getMessage());
    }
}

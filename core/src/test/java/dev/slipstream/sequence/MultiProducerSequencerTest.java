package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.YieldingWaitStrategy;
import org.junit.jupiter.api.Test;

class MultiProducerSequencerTest {
    private final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingWaitStrategy(0));

    @Test
    void aClaimedButUnpublishedSlotHoldsBackEverythingAfterIt() {
        final long first = sequencer.next();
        final long second = sequencer.next();
        final long third = sequencer.next();
        sequencer.publish(third);
        sequencer.publish(first);
        assertEquals(2, sequencer.getCursor(), "the cursor counts claims");
        assertEquals(first, sequencer.getHighestPublishedSequence(0, third), "slot 1 is claimed, not published");
        sequencer.publish(second);
        assertEquals(third, sequencer.getHighestPublishedSequence(0, third));
    }

    @Test
    void availabilityFlagsDistinguishLaps() {
        sequencer.addGatingSequences(new Sequence(Long.MAX_VALUE - 1) {
            @Override
            public long get() {
                return sequencer.getCursor();
            }
        });
        sequencer.publish(0, sequencer.next(4));
        assertTrue(sequencer.isAvailable(3));
        assertFalse(sequencer.isAvailable(7), "slot 3 holds lap 0, not lap 1");
        sequencer.publish(sequencer.next());
        assertTrue(sequencer.isAvailable(4));
        assertFalse(sequencer.isAvailable(0), "slot 0 now holds lap 1");
    }

    @Test
    void rejectsPublishingTwiceAndARangeWithAnUnclaimedSlotPublishesNothing() {
        final long first = sequencer.next();
        sequencer.publish(first);
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> sequencer.publish(first));
        assertTrue(twice.getMessage().contains("already published"), twice.getMessage());

        final long hi = sequencer.next(2);
        final IllegalArgumentException partly = assertThrows(IllegalArgumentException.class,
                () -> sequencer.publish(hi - 1, hi + 1));
        assertTrue(partly.getMessage().contains("cannot publish sequence " + (hi + 1) + ": it was never claimed"),
                partly.getMessage());
        assertFalse(sequencer.isAvailable(hi - 1), "a refused range publishes none of its slots");
        assertFalse(sequencer.isAvailable(hi));
        sequencer.publish(hi - 1, hi);
        assertEquals(hi, sequencer.getHighestPublishedSequence(0, hi));
    }

    @Test
    void aClaimedSlotIsNotAvailableUntilPublishedInAnyLap() {
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(4));
        consumer.set(3);
        final long lap1 = sequencer.next();
        assertFalse(sequencer.isAvailable(lap1), "the claim mark is no published lap");
        assertFalse(sequencer.isAvailable(lap1 - 4), "and the slot's previous lap is gone with it");
        sequencer.publish(lap1);
        assertTrue(sequencer.isAvailable(lap1));
    }

    @Test
    void rejectsPublishingMoreThanARingBehind() {
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(4));
        consumer.set(3);
        sequencer.publish(4, sequencer.next(4));
        final IllegalArgumentException stale = assertThrows(IllegalArgumentException.class, () -> sequencer.publish(2));
        assertTrue(stale.getMessage().contains("more than a ring behind"), stale.getMessage());
    }

    @Test
    void barrierCursorStopsBeforeAClaimedButUnpublishedSlot() {
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        final SequenceBarrier barrier = sequencer.newBarrier();
        assertEquals(-1, barrier.getCursor());
        final long first = sequencer.next();
        final long second = sequencer.next();
        sequencer.publish(second);
        assertEquals(-1, barrier.getCursor(), "slot 0 is claimed, not published");
        sequencer.publish(first);
        assertEquals(1, barrier.getCursor());
        consumer.set(1);
        assertEquals(1, barrier.getCursor());
        final long third = sequencer.next();
        assertEquals(1, barrier.getCursor());
        sequencer.publish(third);
        assertEquals(2, barrier.getCursor());
    }

    @Test
    void barrierCursorWithoutGatingSequences() {
        final SequenceBarrier barrier = sequencer.newBarrier();
        sequencer.publish(0, sequencer.next(3));
        assertEquals(2, barrier.getCursor());
        sequencer.next();
        assertEquals(2, barrier.getCursor());
    }
}

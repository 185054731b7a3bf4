package dev.slipstream.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.YieldingWaitStrategy;
import org.junit.jupiter.api.Test;

/** Bad input that used to pass silently now gets an exception saying what was wrong. */
class RingBufferBadInputTest {
    static final class Event {
        long value;
    }

    @Test
    void aFactoryThatReturnsOneInstanceForEverySlotIsRejected() {
        final Event shared = new Event();
        final IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> RingBuffer.createSingleProducer(() -> shared, 8, new YieldingWaitStrategy(0)));
        assertTrue(same.getMessage().contains("same instance for slot 1 as for slot 0"), same.getMessage());
    }

    @Test
    void aFactoryThatRepeatsTheFirstInstanceLaterIsRejected() {
        final Event[] made = {new Event(), new Event()};
        final int[] calls = {0};
        final IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> RingBuffer.createMultiProducer(() -> made[calls[0]++ % 2], 8, new YieldingWaitStrategy(0)));
        assertTrue(same.getMessage().contains("as for slot 0"), same.getMessage());
    }

    @Test
    void aRingLargerThanTheMaximumIsRejectedBeforeAnythingIsAllocated() {
        final int[] created = {0};
        final IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                () -> RingBuffer.createSingleProducer(() -> {
                    created[0]++;
                    return new Event();
                }, 1 << 30, new YieldingWaitStrategy(0)));
        assertTrue(tooBig.getMessage().contains("at most 268435456"), tooBig.getMessage());
        assertEquals(0, created[0], "no event is created for a ring that cannot be built");
    }

    @Test
    void aNegativeSequenceIsRejected() {
        final RingBuffer<Event> ring = RingBuffer.createSingleProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> ring.get(-1));
        assertTrue(negative.getMessage().contains("got -1"), negative.getMessage());
    }

    @Test
    void argumentArraysOfDifferentLengthsAreRejectedAndNothingIsClaimed() {
        final RingBuffer<Event> ring = RingBuffer.createMultiProducer(Event::new, 8, new YieldingWaitStrategy(0));
        final IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
                () -> ring.publishEvents((e, s, a, b) -> e.value = a + b, new Long[] {1L, 2L}, new Long[] {1L, 2L, 3L}));
        assertTrue(two.getMessage().contains("arg1 has 3 elements but arg0 has 2"), two.getMessage());
        final IllegalArgumentException three = assertThrows(IllegalArgumentException.class,
                () -> ring.publishEvents((e, s, a, b, c) -> e.value = a + b + c,
                        new Long[] {1L, 2L}, new Long[] {1L, 2L}, new Long[] {1L}));
        assertTrue(three.getMessage().contains("arg2 has 1 elements but arg0 has 2"), three.getMessage());
        assertEquals(-1, ring.getCursor(), "a rejected batch claims nothing");
    }
}

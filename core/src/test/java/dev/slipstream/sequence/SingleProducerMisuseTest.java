package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.slipstream.wait.YieldingWaitStrategy;
import org.junit.jupiter.api.Test;

/**
 * A single-producer sequencer used by more than one thread: its claim is not synchronised, so two
 * threads can claim the same slot, and the second publish of that slot is refused. The message
 * names the likely cause.
 */
class SingleProducerMisuseTest {
    @Test
    void aSecondPublishOfOneSlotNamesMoreThanOnePublishingThreadAsTheLikelyCause() {
        final SingleProducerSequencer sequencer = new SingleProducerSequencer(8, new YieldingWaitStrategy(0));
        final long claimed = sequencer.next();
        sequencer.publish(claimed);
        // what a second thread that claimed the same slot does
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> sequencer.publish(claimed));
        assertEquals("cannot publish sequence 0: it is already published (cursor is 0); the likely cause is more"
                + " than one thread publishing to a single-producer ring: publish from one thread only, or build"
                + " the ring or pipeline with ProducerType.MULTI", twice.getMessage());
    }
}

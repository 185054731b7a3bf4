package dev.slipstream.ring;

import dev.slipstream.processor.PaddedLayout;
import org.junit.jupiter.api.Test;

import java.util.List;

/**
 * The fields every producer and consumer reads per event (the slot array, its mask, the
 * sequencer) sit at least 56 bytes from either end of the ring object, so no object the heap
 * places next to the ring (before or after a collection moves it) shares their cache line.
 */
class RingBufferLayoutTest {
    @Test
    void theHotFieldsArePaddedFromTheObjectsNeighbours() {
        PaddedLayout.assertPadded(RingBuffer.class, List.of("entries", "indexMask", "bufferSize", "sequencer"));
    }
}

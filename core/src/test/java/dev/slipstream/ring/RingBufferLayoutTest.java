package dev.slipstream.ring;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fields every producer and consumer reads per event (the slot array, its mask, the
 * sequencer) sit at least 56 bytes from either end of the ring object, so no object the heap
 * places next to the ring (before or after a collection moves it) shares their cache line.
 */
class RingBufferLayoutTest {
    private static final int CACHE_LINE = 64;

    @Test
    void theHotFieldsArePaddedFromTheObjectsNeighbours() {
        final ClassLayout layout = ClassLayout.parseClass(RingBuffer.class);
        final List<String> hot = List.of("entries", "indexMask", "bufferSize", "sequencer");
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (final FieldLayout field : layout.fields()) {
            if (hot.contains(field.name())) {
                lowest = Math.min(lowest, field.offset());
                highest = Math.max(highest, field.offset() + field.size());
            }
        }
        assertTrue(lowest >= CACHE_LINE - 8, "a hot field is too close to the object's start:\n"
                + layout.toPrintable());
        assertTrue(layout.instanceSize() - highest >= CACHE_LINE - 8,
                "a hot field is too close to the object's end:\n" + layout.toPrintable());
    }
}

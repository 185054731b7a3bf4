package dev.slipstream.processor;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The counters, written once per batch, are padded away from anything else in memory. */
class CountersLayoutTest {
    private static final int CACHE_LINE = 64;

    @Test
    void theCountersHaveACacheLineOfPaddingOnEachSide() {
        final ClassLayout layout = ClassLayout.parseClass(ProcessorCounters.class);
        final List<String> counters = List.of("events", "batches", "exceptions", "rewinds");
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (final FieldLayout field : layout.fields()) {
            if (counters.contains(field.name())) {
                lowest = Math.min(lowest, field.offset());
                highest = Math.max(highest, field.offset() + field.size());
            }
        }
        assertTrue(lowest >= CACHE_LINE - 8, "too little padding before the counters:\n" + layout.toPrintable());
        assertTrue(layout.instanceSize() - highest >= CACHE_LINE - 8,
                "too little padding after the counters:\n" + layout.toPrintable());
    }
}

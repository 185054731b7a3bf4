package dev.slipstream.processor;

import org.junit.jupiter.api.Test;

import java.util.List;

/** The counters, written once per batch, are padded away from anything else in memory. */
class CountersLayoutTest {
    @Test
    void theCountersHaveACacheLineOfPaddingOnEachSide() {
        PaddedLayout.assertPadded(ProcessorCounters.class, List.of("events", "batches", "exceptions", "rewinds"));
    }
}

package dev.slipstream.bench.support;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jol.vm.VM;

class EventPlacementTest {
    private static final int EVENTS = 10_000;

    @ParameterizedTest
    @CsvSource({"SIXTEEN, 0, 1.0", "EIGHT_PAST, 8, 0.0"})
    void aPinPutsEveryEventWhereItSays(final EventPlacement.Mode mode, final long remainder, final double share) {
        final EventPlacement placement = new EventPlacement(mode);
        for (ValueEvent e : make(placement)) {
            assertEquals(remainder, VM.current().addressOf(e) & 15L, "address modulo 16 under " + mode);
        }
        assertEquals(share, placement.sixteenShare());
    }

    @Test
    void naturalCountsWhereTheEventsLanded() {
        // the placement counts addresses as it makes the events, the test reads them again
        // afterwards: a collection in between moves the events, so only a try without one counts
        for (int attempt = 1; attempt <= 10; attempt++) {
            final long collectionsBefore = collections();
            final EventPlacement placement = new EventPlacement(EventPlacement.Mode.NATURAL);
            assertTrue(Double.isNaN(placement.sixteenShare()), "no event made yet");
            final ValueEvent[] events = make(placement);
            long atSixteen = 0;
            for (ValueEvent e : events) {
                atSixteen += (VM.current().addressOf(e) & 15L) == 0L ? 1 : 0;
            }
            if (collections() == collectionsBefore) {
                assertEquals(atSixteen / (double) EVENTS, placement.sixteenShare());
                return;
            }
        }
        throw new AssertionError("a garbage collection ran during each of 10 tries");
    }

    private static long collections() {
        long total = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            total += Math.max(0, gc.getCollectionCount());
        }
        return total;
    }

    @Test
    void aModeNobodyKnowsIsRefusedWithTheOnesAccepted() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EventPlacement.mode("32"));
        assertEquals("bench.eventAlignment must be natural, 16 or 8, got '32'", e.getMessage());
        assertEquals(EventPlacement.Mode.SIXTEEN, EventPlacement.mode(" 16 "));
        assertEquals(EventPlacement.Mode.NATURAL, EventPlacement.mode("Natural"));
    }

    private static ValueEvent[] make(final EventPlacement placement) {
        final ValueEvent[] events = new ValueEvent[EVENTS];
        for (int i = 0; i < EVENTS; i++) {
            events[i] = placement.next();
        }
        return events;
    }
}

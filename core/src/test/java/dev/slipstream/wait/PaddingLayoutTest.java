package dev.slipstream.wait;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The fields producers read on every publish sit on a cache line of their own. */
class PaddingLayoutTest {
    private static final int CACHE_LINE = 64;

    static void assertAlone(final Class<?> type, final String hotField) {
        final ClassLayout layout = ClassLayout.parseClass(type);
        long hotOffset = -1;
        for (final FieldLayout field : layout.fields()) {
            if (field.name().equals(hotField)) {
                hotOffset = field.offset();
            }
        }
        assertTrue(hotOffset >= 0, hotField + " not found in " + layout.toPrintable());
        // another object's fields end before this object's start, and the next object starts after its end
        assertTrue(hotOffset >= CACHE_LINE - 8, "too little padding before " + hotField + ":\n" + layout.toPrintable());
        assertTrue(layout.instanceSize() - hotOffset >= CACHE_LINE,
                "too little padding after " + hotField + ":\n" + layout.toPrintable());
        for (final FieldLayout field : layout.fields()) {
            if (field.name().equals(hotField) || field.name().matches("p\\d\\d")) {
                continue;
            }
            assertTrue(Math.abs(field.offset() - hotOffset) >= CACHE_LINE,
                    field.name() + " shares a cache line with " + hotField + ":\n" + layout.toPrintable());
        }
    }

    @Test
    void theHybridWaiterCountIsPadded() {
        assertAlone(HybridWaitStrategy.class, "parkedWaiters");
    }

    @Test
    void theBlockingStrategiesSleeperCountIsPadded() {
        assertAlone(SleeperCount.class, "sleepers");
    }

    @Test
    void theLiteBlockingFlagIsPadded() {
        assertAlone(LiteBlockingWaitStrategy.class, "signalNeeded");
    }
}

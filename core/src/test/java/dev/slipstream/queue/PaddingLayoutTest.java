package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/** The hot counters and pointers each sit at least 128 bytes from any other field. */
class PaddingLayoutTest {

    private static long offset(final ClassLayout layout, final String field) {
        for (final FieldLayout f : layout.fields()) {
            if (f.name().equals(field)) {
                return f.offset();
            }
        }
        throw new AssertionError("no field " + field + " in\n" + layout.toPrintable());
    }

    private static void assertIsolated(final Class<?> type, final String... hot) {
        final ClassLayout layout = ClassLayout.parseClass(type);
        for (final String name : hot) {
            final long at = offset(layout, name);
            assertTrue(at >= 120, name + " is " + at + " bytes from the object start\n" + layout.toPrintable());
            for (final FieldLayout f : layout.fields()) {
                if (f.name().equals(name) || f.name().matches("p\\d\\d|pi\\d")) {
                    continue;
                }
                final long distance = Math.abs(f.offset() - at);
                assertTrue(distance >= 120, name + " and " + f.name() + " are " + distance
                        + " bytes apart\n" + layout.toPrintable());
            }
            assertTrue(layout.instanceSize() - at >= 120, name + " too close to the end\n" + layout.toPrintable());
        }
    }

    @Test
    void indexRingCountersEachHaveTheirOwnCacheLines() {
        assertIsolated(IndexRing.class, "head", "tail", "threshold");
    }

    @Test
    void lscqSegmentPointersEachHaveTheirOwnCacheLines() {
        assertIsolated(LscqQueue.class, "headSegment", "tailSegment");
    }
}

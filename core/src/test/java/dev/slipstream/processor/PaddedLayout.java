package dev.slipstream.processor;

import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Layout assertion shared by the padding tests: the named fields of a class sit at least a cache
 * line minus one word from either end of its instances (JOL), so no neighbouring object in the
 * heap shares their cache line.
 */
public final class PaddedLayout {
    private static final int CACHE_LINE = 64;

    private PaddedLayout() {
    }

    /**
     * Fails unless every named field is padded from both ends of the object.
     *
     * @param type the class whose instance layout is checked
     * @param hotFields the fields to keep away from neighbours
     */
    public static void assertPadded(final Class<?> type, final List<String> hotFields) {
        final ClassLayout layout = ClassLayout.parseClass(type);
        long lowest = Long.MAX_VALUE;
        long highest = Long.MIN_VALUE;
        for (final FieldLayout field : layout.fields()) {
            if (hotFields.contains(field.name())) {
                lowest = Math.min(lowest, field.offset());
                highest = Math.max(highest, field.offset() + field.size());
            }
        }
        assertTrue(lowest >= CACHE_LINE - 8, "too little padding before " + hotFields + ":\n"
                + layout.toPrintable());
        assertTrue(layout.instanceSize() - highest >= CACHE_LINE - 8, "too little padding after " + hotFields
                + ":\n" + layout.toPrintable());
    }
}

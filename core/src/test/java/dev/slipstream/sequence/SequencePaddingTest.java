package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jol.datamodel.DataModel;
import org.openjdk.jol.datamodel.Model64;
import org.openjdk.jol.datamodel.Model64_Lilliput;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;
import org.openjdk.jol.layouters.HotSpotLayouter;

/**
 * The {@code value} of a {@link Sequence} sits alone on its cache line: the 56 bytes before it
 * and the 56 bytes after it hold only the padding fields of the Sequence class hierarchy, in
 * this JVM's layout and in the layouts HotSpot uses with other header sizes, also for
 * subclasses that add fields of their own (HotSpot puts small subclass fields into gaps of the
 * superclass, so a subclass is where padding usually breaks).
 *
 * <p>Why 56: a byte at offset {@code b} can share a 64-byte line with the 8 bytes at
 * {@code v .. v+7} only if {@code v + 7 - b < 64}; with 56 bytes of padding on each side, every
 * other byte is at least 57 bytes away.
 */
class SequencePaddingTest {
    private static final int CACHE_LINE = 64;
    private static final int VALUE_SIZE = Long.BYTES;
    private static final int PAD = CACHE_LINE - VALUE_SIZE;

    /** Small fields: HotSpot (JDK 15+) puts these into the gap after a 12-byte header. */
    static class SmallFieldsSequence extends Sequence {
        byte flag;
        int count;
    }

    /** One field of every kind, as a user's subclass might add. */
    static class ManyFieldsSequence extends Sequence {
        long owner;
        int count;
        short tag;
        char code;
        byte flag;
        boolean active;
        double rate;
        float ratio;
        Object attachment;
        long[] history;
    }

    /** Two levels of subclassing. */
    static final class GrandchildSequence extends SmallFieldsSequence {
        long extra;
        byte more;
    }

    static Stream<Class<? extends Sequence>> types() {
        return Stream.of(Sequence.class, SmallFieldsSequence.class, ManyFieldsSequence.class,
                GrandchildSequence.class);
    }

    static Stream<Arguments> typesAndModels() {
        final List<DataModel> models = List.of(
                new Model64(false, false),      // 16-byte header: no compressed oops or class pointers
                new Model64(true, true),        // 12-byte header: compressed oops and class pointers
                new Model64(false, true),       // 12-byte header, wide oops (heaps over 32 GB)
                new Model64_Lilliput());        // 8-byte header: compact object headers
        final List<Arguments> out = new ArrayList<>();
        types().forEach(type -> {
            for (DataModel model : models) {
                for (int jdk : new int[] {17, 21, 25}) {
                    out.add(Arguments.of(type, model, jdk));
                }
            }
        });
        return out.stream();
    }

    @ParameterizedTest(name = "{0} in this JVM")
    @MethodSource("types")
    void valueIsAloneOnItsCacheLineInThisJvm(final Class<? extends Sequence> type) {
        assertValueAlone(ClassLayout.parseClass(type), type);
    }

    @ParameterizedTest(name = "{0}, {1}, JDK {2}")
    @MethodSource("typesAndModels")
    void valueIsAloneOnItsCacheLineInOtherHotSpotLayouts(
            final Class<? extends Sequence> type, final DataModel model, final int jdkVersion) {
        assertValueAlone(ClassLayout.parseClass(type, new HotSpotLayouter(model, jdkVersion)), type);
    }

    @Test
    void checkRejectsAnUnpaddedCounter() {
        // The check itself must be able to fail: a class with a bare long and a neighbour.
        final ClassLayout layout = ClassLayout.parseClass(Unpadded.class);
        final FieldLayout value = findValue(layout, Unpadded.class);
        final long[] padding = paddingAround(layout, value, Set.of(Unpadded.class.getCanonicalName()));
        // It counts the neighbours as padding (8 bytes each side), and finds that too little.
        assertTrue(padding[0] > 0 && padding[0] < PAD && padding[1] > 0 && padding[1] < PAD,
                () -> padding[0] + "/" + padding[1] + "\n" + layout.toPrintable());
    }

    @Test
    void paddingCoversAWholeLineOnEachSideInThisJvm() {
        final ClassLayout layout = ClassLayout.parseClass(Sequence.class);
        final FieldLayout value = findValue(layout, Sequence.class);
        // At least 56 bytes before the value belong to the object's fields, not its header.
        assertTrue(value.offset() - layout.headerSize() >= PAD, layout::toPrintable);
        assertEquals(VALUE_SIZE, value.size(), layout::toPrintable);
        assertTrue(layout.instanceSize() >= value.offset() + VALUE_SIZE + PAD, layout::toPrintable);
    }

    /** A counter with no padding, for the negative check. */
    static final class Unpadded {
        long before;
        volatile long value;
        long after;
    }

    private static void assertValueAlone(final ClassLayout layout, final Class<?> type) {
        final FieldLayout value = findValue(layout, Sequence.class);
        final long[] padding = paddingAround(layout, value, sequenceHierarchy());
        if (padding[0] < PAD || padding[1] < PAD) {
            fail(type.getName() + ": the value field has " + padding[0] + " bytes of Sequence padding before it and "
                    + padding[1] + " after it, expected at least " + PAD + " on each side\n" + layout.toPrintable());
        }
    }

    /**
     * Counts, going outward from the value field, the contiguous bytes covered by fields
     * declared in {@code paddingHosts} (other than the value itself).
     */
    private static long[] paddingAround(final ClassLayout layout, final FieldLayout value, final Set<String> paddingHosts) {
        final long start = value.offset();
        final long end = start + value.size();
        long before = 0;
        while (before < PAD && coveredByPadding(layout, value, paddingHosts, start - before - 1)) {
            before++;
        }
        long after = 0;
        while (after < PAD && coveredByPadding(layout, value, paddingHosts, end + after)) {
            after++;
        }
        return new long[] {before, after};
    }

    private static boolean coveredByPadding(final ClassLayout layout, final FieldLayout value,
            final Set<String> paddingHosts, final long offset) {
        if (offset < layout.headerSize()) {
            return false;
        }
        for (FieldLayout f : layout.fields()) {
            if (f != value && offset >= f.offset() && offset < f.offset() + f.size()) {
                return paddingHosts.contains(f.hostClass());
            }
        }
        return false;     // a gap: a subclass field may be put there later by the JVM
    }

    private static FieldLayout findValue(final ClassLayout layout, final Class<?> root) {
        final Set<String> hosts = root == Sequence.class ? sequenceHierarchy() : Set.of(root.getCanonicalName());
        return layout.fields().stream()
                .filter(f -> f.name().equals("value") && hosts.contains(f.hostClass()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no value field in\n" + layout.toPrintable()));
    }

    /** Sequence and its superclasses: the classes whose fields may pad the value. */
    private static Set<String> sequenceHierarchy() {
        final Set<String> names = new HashSet<>();
        for (Class<?> c = Sequence.class; c != Object.class; c = c.getSuperclass()) {
            names.add(c.getName());
        }
        return names;
    }
}

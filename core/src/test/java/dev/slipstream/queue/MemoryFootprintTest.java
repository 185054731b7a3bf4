package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * The memory formulas stated in the Javadoc of {@link ScqQueue} and {@link LscqQueue} (and in
 * docs/guide/lscq.md), checked against what JOL measures on this JVM: with compressed references
 * (the default below 32 GB of heap) and without.
 */
class MemoryFootprintTest {
    /** Bytes per reference on this JVM: 4 compressed, 8 not. */
    private static long ref;

    @BeforeAll
    static void layoutIsOneTheFormulasDescribe() {
        ref = (GraphLayout.parseInstance((Object) new Object[64]).totalSize()
                - GraphLayout.parseInstance((Object) new Object[0]).totalSize()) / 64;
        // the formulas are for 12-byte object headers (compressed class pointers) and 8-byte
        // alignment, the JDK 17 to 25 defaults; other layouts (compact headers) differ
        assumeTrue(VM.current().objectHeaderSize() == 12 && VM.current().objectAlignment() == 8,
                "a layout the formulas do not describe: " + VM.current().details());
    }

    /** ScqQueue: 36 bytes per element plus 2024, or 40 plus 2296 with 8-byte references. */
    static long scqQueueBytes(final long capacity) {
        final long bytes = ref == 4 ? 36 * capacity + 2024 : 40 * capacity + 2296;
        // the data array has capacity + 64 references: an odd count leaves 4 bytes of alignment
        return ref == 4 && capacity % 2 == 1 ? bytes + 4 : bytes;
    }

    /** One LSCQ segment: 36 bytes per element plus 2008, or 40 plus 2280. */
    static long lscqSegmentBytes(final long capacity) {
        final long bytes = ref == 4 ? 36 * capacity + 2008 : 40 * capacity + 2280;
        return ref == 4 && capacity % 2 == 1 ? bytes + 4 : bytes;
    }

    /** The LscqQueue object itself, padding included. */
    static long lscqQueueObjectBytes() {
        return ref == 4 ? 440 : 448;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 16, 64, 1024, 4096, 1 << 16})
    void scqQueueTakesWhatItsJavadocSays(final int capacity) {
        assertEquals(scqQueueBytes(capacity), GraphLayout.parseInstance(new ScqQueue<Integer>(capacity)).totalSize());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 16, 64, 1024, 4096})
    void lscqQueueTakesOneSegmentPerSegmentCapacityOfBacklog(final int segment) {
        final LscqQueue<Integer> q = new LscqQueue<>(segment);
        assertEquals(lscqQueueObjectBytes() + lscqSegmentBytes(segment), GraphLayout.parseInstance(q).totalSize(),
                "an empty queue holds one segment");
        final Integer element = 1; // one shared element, so that only the queue is counted
        for (int i = 0; i < 2 * segment + 1; i++) {
            q.offer(element);
        }
        final long elementBytes = GraphLayout.parseInstance(element).totalSize();
        assertEquals(lscqQueueObjectBytes() + 3 * lscqSegmentBytes(segment),
                GraphLayout.parseInstance(q).totalSize() - elementBytes, "2 * capacity + 1 elements: three segments");
    }

    @ParameterizedTest
    @ValueSource(ints = {8, 1024})
    void blockingQueuesAddTwoSignalsAndAWrapper(final int capacity) {
        // what the wrapper adds is measured, not stated: a padded signal per condition and the
        // wait strategy; the formula of the queue inside holds
        final long wrapped = GraphLayout.parseInstance(new ScqBlockingQueue<Integer>(capacity)).totalSize();
        assertEquals(true, wrapped > scqQueueBytes(capacity) && wrapped < scqQueueBytes(capacity) + 2048,
                "ScqBlockingQueue(" + capacity + ") takes " + wrapped + " bytes");
    }
}

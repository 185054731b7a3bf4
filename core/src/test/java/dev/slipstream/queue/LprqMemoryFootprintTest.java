package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * The memory {@link LprqQueue}'s Javadoc and docs/guide/lscq.md state, measured with JOL: a ring
 * is 12 bytes per cell with compressed references (16 without) plus about 500 bytes, and a
 * backlog of {@code m} elements holds {@code m / ringCapacity + 1} rings.
 */
class LprqMemoryFootprintTest {

    private static long ref() {
        return (GraphLayout.parseInstance((Object) new Object[64]).totalSize()
                - GraphLayout.parseInstance((Object) new Object[0]).totalSize()) / 64;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 16, 1024, 4096})
    void aRingTakesTwelveBytesPerCellPlusAboutFiveHundred(final int capacity) {
        assumeTrue(VM.current().objectHeaderSize() == 12, "a layout the formula does not describe: "
                + VM.current().details());
        final LprqQueue<Integer> q = new LprqQueue<>(capacity);
        final long empty = GraphLayout.parseInstance(q).totalSize();
        final Integer element = 1; // one shared element, so that only the queue is counted
        for (int i = 0; i < capacity + 1; i++) {
            q.offer(element);
        }
        assertEquals(2, q.ringsAllocated());
        final long ring = GraphLayout.parseInstance(q).totalSize()
                - GraphLayout.parseInstance(element).totalSize() - empty;
        final long perCell = ref() == 4 ? 12 : 16;
        final long overhead = ring - perCell * capacity;
        assertTrue(overhead >= 400 && overhead <= 600, "a ring of " + capacity + " takes " + ring + " bytes");
    }

    @Test
    void anEmptyQueueHoldsOneRing() {
        final LprqQueue<Integer> q = new LprqQueue<>();
        final long bytes = GraphLayout.parseInstance(q).totalSize();
        final long perCell = ref() == 4 ? 12 : 16;
        assertTrue(bytes > perCell * 4096 && bytes < perCell * 4096 + 1_500, "an empty queue takes " + bytes);
    }
}

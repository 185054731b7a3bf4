package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link AheadToucher} touches and unmaps, step by step on one thread. */
class AheadToucherTest {
    private static final int PAGE = Segment.PAGE;

    private final List<String> touched = new ArrayList<>();
    private final List<ByteBuffer> unmapped = new ArrayList<>();
    private final ByteBuffer first = ByteBuffer.allocate(16 * PAGE);
    private final ByteBuffer second = ByteBuffer.allocate(16 * PAGE);
    private final AheadToucher toucher = new AheadToucher(4 * PAGE,
            (pages, offset) -> touched.add((pages == first ? "first " : "second ") + offset / PAGE),
            unmapped::add);

    @Test
    void touchesTheWindowAfterTheWriterOnceAndFollowsItsPosition() {
        assertFalse(toucher.step(), "nothing to touch before the writer announces a mapping");
        toucher.follow(first, PAGE + 100);
        assertTrue(toucher.step());
        assertEquals(List.of("first 1", "first 2", "first 3", "first 4", "first 5"), touched,
                "from the writer's page to the one holding the window's last byte");
        touched.clear();
        assertFalse(toucher.step(), "a page is touched once");
        toucher.writerAt(3 * PAGE);
        assertTrue(toucher.step());
        assertEquals(List.of("first 6"), touched, "only the page the window gained");
        touched.clear();
        toucher.writerAt(15 * PAGE);
        toucher.step();
        assertEquals(List.of("first 15"), touched, "not past the mapping's end, nor the pages the writer passed");
    }

    @Test
    void theMappingTheWriterLeavesIsUnmappedAfterTheStepAndTheNextOneTouchedFromItsPosition() {
        toucher.follow(first, 0);
        toucher.step();
        touched.clear();
        toucher.follow(second, 2 * PAGE);
        toucher.retire(first);
        assertEquals(List.of(), unmapped, "the writer leaves the unmapping to the toucher's thread");
        toucher.step();
        assertEquals(List.of("second 2", "second 3", "second 4", "second 5"), touched);
        assertEquals(List.of(first), unmapped);
        assertFalse(toucher.step());
        assertEquals(1, unmapped.size(), "unmapped once");
    }

    @Test
    void stopUnmapsWhatIsRetiredAndTheWriterUnmapsForItselfAfterwards() {
        toucher.follow(first, 0);
        toucher.follow(second, 0);
        toucher.retire(first);
        toucher.stop();
        assertEquals(List.of(first), unmapped);
        toucher.retire(second);
        assertEquals(List.of(first, second), unmapped, "after stop the writer's retire unmaps at once");
    }

    @Test
    void parksLongerWhileTheWriterIsSlowAndShorterOnceItIsFast() {
        toucher.follow(first, 0);
        toucher.step();
        assertEquals(AheadToucher.MIN_PARK_NANOS, toucher.parkNanos(), "a new segment starts from the shortest");
        toucher.step();
        assertEquals(AheadToucher.MIN_PARK_NANOS * 2, toucher.parkNanos(), "a writer that did not move: twice as long");
        for (int i = 0; i < 10; i++) {
            toucher.step();
        }
        assertEquals(AheadToucher.MAX_PARK_NANOS, toucher.parkNanos(), "no longer than the most");
        // the window is 4 pages here: more than half a page since the last step is fast
        toucher.writerAt(PAGE);
        toucher.step();
        assertEquals(AheadToucher.MAX_PARK_NANOS / 2, toucher.parkNanos(), "a fast writer halves it");
        toucher.follow(second, 0);
        toucher.step();
        assertEquals(AheadToucher.MIN_PARK_NANOS, toucher.parkNanos(), "a new segment starts from the shortest");
    }
}

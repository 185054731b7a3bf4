package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The close contract both unbounded queues share: later offers refused, accepted elements kept. */
class ClosableQueueTest {
    static Stream<IntFunction<ClosableBatchQueue<Integer>>> queues() {
        return Stream.of(LprqQueue::new, LscqQueue::new);
    }

    @ParameterizedTest
    @MethodSource("queues")
    void closeRefusesLaterOffersAndKeepsWhatWasAccepted(final IntFunction<ClosableBatchQueue<Integer>> create) {
        final ClosableBatchQueue<Integer> q = create.apply(2);
        for (int i = 0; i < 5; i++) {
            assertTrue(q.offer(i));
        }
        assertFalse(q.isClosed());
        assertFalse(q.isDrained(), "open queues are never drained for good");
        q.close();
        q.close(); // idempotent
        assertTrue(q.isClosed());
        assertFalse(q.isDrained(), "five elements are left");
        assertFalse(q.offer(99));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.add(99));
        assertEquals("queue is closed: add(99) was refused", e.getMessage());
        assertEquals(0, q.fill(() -> 1, 3));
        assertEquals(0, q.peek());
        final List<Integer> out = new ArrayList<>();
        Integer x;
        while (!q.isDrained()) {
            while ((x = q.poll()) != null) {
                out.add(x);
            }
        }
        assertEquals(List.of(0, 1, 2, 3, 4), out);
        assertNull(q.poll());
        assertNull(q.peek());
        assertEquals("[]", q.toString());
    }
}

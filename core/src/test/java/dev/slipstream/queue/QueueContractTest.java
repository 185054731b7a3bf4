package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link java.util.Queue} contract (plus drain and fill), run against every queue of the
 * package. Bounded queues are made with capacity 8; unbounded ones with segments of 2 or 4 so
 * that the tests cross segments.
 */
class QueueContractTest {

    /** A queue under test and what the tests need to know about it. */
    record Kind(Supplier<BatchQueue<Integer>> factory, int capacity) {
        boolean bounded() {
            return capacity > 0;
        }

        BatchQueue<Integer> create() {
            return factory.get();
        }

        /** How many elements the tests put in: the capacity, or 20 for unbounded queues. */
        int fillCount() {
            return bounded() ? capacity : 20;
        }
    }

    static Stream<Named<Kind>> queues() {
        return Stream.of(
                Named.of("ScqQueue(8)", new Kind(() -> new ScqQueue<>(8), 8)),
                Named.of("ScqQueue(8, remap off)", new Kind(() -> new ScqQueue<>(8, false), 8)),
                Named.of("ScqQueue(1)", new Kind(() -> new ScqQueue<>(1), 1)),
                Named.of("ScqQueue(8) near 2^63", new Kind(() -> new ScqQueue<>(8, true, Long.MAX_VALUE - 20), 8)),
                Named.of("LscqQueue(2)", new Kind(() -> new LscqQueue<>(2), 0)),
                Named.of("LscqQueue(1)", new Kind(() -> new LscqQueue<>(1), 0)),
                Named.of("LscqQueue(4) near 2^62", new Kind(() -> new LscqQueue<>(4, true, (1L << 62) - 9), 0)),
                Named.of("LscqQueue()", new Kind(LscqQueue::new, 0)),
                Named.of("LprqQueue(2)", new Kind(() -> new LprqQueue<>(2), 0)),
                Named.of("LprqQueue(1)", new Kind(() -> new LprqQueue<>(1), 0)),
                Named.of("LprqQueue(4) near 2^62", new Kind(() -> new LprqQueue<>(4, true, (1L << 62) - 9), 0)),
                Named.of("LprqQueue()", new Kind(LprqQueue::new, 0)),
                Named.of("ScqBlockingQueue(8)", new Kind(() -> new ScqBlockingQueue<>(8), 8)),
                Named.of("ScqBlockingQueue(1, busy spin)",
                        new Kind(() -> new ScqBlockingQueue<>(1, new BusySpinWaitStrategy()), 1)),
                Named.of("LscqBlockingQueue()", new Kind(LscqBlockingQueue::new, 0)),
                Named.of("LscqBlockingQueue(2, blocking)",
                        new Kind(() -> new LscqBlockingQueue<>(2, new BlockingWaitStrategy()), 0)),
                Named.of("ScqBlockingQueue(8) near 2^64",
                        new Kind(() -> new ScqBlockingQueue<>(8, new HybridWaitStrategy(), -20L), 8)),
                Named.of("LscqBlockingQueue(1) near 2^62",
                        new Kind(() -> new LscqBlockingQueue<>(1, new HybridWaitStrategy(), (1L << 62) - 9), 0)),
                Named.of("LprqBlockingQueue()", new Kind(LprqBlockingQueue::new, 0)),
                Named.of("LprqBlockingQueue(2, blocking)",
                        new Kind(() -> new LprqBlockingQueue<>(2, new BlockingWaitStrategy()), 0)),
                Named.of("LprqBlockingQueue(1) near 2^62",
                        new Kind(() -> new LprqBlockingQueue<>(1, new HybridWaitStrategy(), (1L << 62) - 9), 0)));
    }

    private static List<Integer> pollAll(final BatchQueue<Integer> q) {
        final List<Integer> out = new ArrayList<>();
        Integer e;
        while ((e = q.poll()) != null) {
            out.add(e);
        }
        return out;
    }

    private static List<Integer> range(final int from, final int count) {
        final List<Integer> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(from + i);
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("queues")
    void newQueueIsEmpty(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertTrue(q.isEmpty());
        assertEquals(0, q.size());
        assertNull(q.poll());
        assertNull(q.peek());
        assertThrows(NoSuchElementException.class, q::element);
        assertThrows(NoSuchElementException.class, q::remove);
    }

    @ParameterizedTest
    @MethodSource("queues")
    void offerThenPollIsFifo(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        for (int i = 0; i < n; i++) {
            assertTrue(q.offer(i));
            assertEquals(i + 1, q.size());
            assertFalse(q.isEmpty());
        }
        assertEquals(range(0, n), pollAll(q));
        assertTrue(q.isEmpty());
        assertEquals(0, q.size());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void peekAndElementShowTheHeadWithoutRemovingIt(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        q.add(7);
        if (!kind.bounded() || kind.capacity() > 1) {
            q.add(8);
        }
        assertEquals(7, q.peek());
        assertEquals(7, q.element());
        assertEquals(7, q.peek());
        assertEquals(7, q.remove());
        if (!kind.bounded() || kind.capacity() > 1) {
            assertEquals(8, q.peek());
            assertEquals(8, q.poll());
        }
        assertNull(q.peek());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void peekFollowsTheHeadAcrossSegmentsAndLaps(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        for (int lap = 0; lap < 3; lap++) {
            for (int i = 0; i < n; i++) {
                q.add(lap * 1000 + i);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(lap * 1000 + i, q.peek());
                assertEquals(lap * 1000 + i, q.poll());
            }
            assertNull(q.peek());
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    void nullsAreRejected(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final NullPointerException e = assertThrows(NullPointerException.class, () -> q.offer(null));
        assertEquals("element must not be null", e.getMessage());
        assertThrows(NullPointerException.class, () -> q.add(null));
        assertThrows(NullPointerException.class, () -> q.addAll(Arrays.asList(1, null)));
        assertThrows(NullPointerException.class, () -> q.addAll(null));
        assertEquals(1, q.poll(), "the element before the null went in");
        assertNull(q.poll());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void fullBoundedQueueRefusesOffersAndAddThrows(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        if (!kind.bounded()) {
            for (int i = 0; i < 1000; i++) {
                assertTrue(q.offer(i), "unbounded: offer always succeeds");
            }
            assertEquals(1000, q.size());
            return;
        }
        for (int i = 0; i < kind.capacity(); i++) {
            assertTrue(q.offer(i));
        }
        assertFalse(q.offer(99));
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> q.add(99));
        assertEquals("Queue full", e.getMessage());
        assertEquals(kind.capacity(), q.size());
        assertEquals(0, q.poll());
        assertTrue(q.offer(100), "one slot free again");
    }

    @ParameterizedTest
    @MethodSource("queues")
    void fillToCapacityAndDrainInFifoOrderTenTimes(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        for (int round = 0; round < 10; round++) {
            final int base = round * 100;
            final int[] next = {base};
            final int filled = q.fill(() -> next[0]++, n);
            assertEquals(n, filled);
            assertEquals(n, q.size());
            if (kind.bounded()) {
                assertFalse(q.offer(-1), "full after fill");
                assertEquals(0, q.fill(() -> {
                    throw new AssertionError("supplier called with no room");
                }, 5), "fill on a full queue calls no supplier");
            }
            final List<Integer> drained = new ArrayList<>();
            assertEquals(n, q.drain(drained::add, Integer.MAX_VALUE));
            assertEquals(range(base, n), drained, "round " + round);
            assertNull(q.poll());
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    void drainAndFillRespectTheirLimits(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        final int[] next = {0};
        assertEquals(0, q.fill(() -> next[0]++, 0));
        assertEquals(0, next[0], "limit 0 supplies nothing");
        assertEquals(n - 1, q.fill(() -> next[0]++, n - 1));
        final List<Integer> out = new ArrayList<>();
        assertEquals(0, q.drain(out::add, 0));
        final int part = Math.max(1, (n - 1) / 2);
        assertEquals(Math.min(part, n - 1), q.drain(out::add, part));
        assertEquals(n - 1 - Math.min(part, n - 1), q.drain(out::add, 1000));
        assertEquals(range(0, n - 1), out);
        assertEquals(0, q.drain(out::add, 10), "empty");
    }

    @ParameterizedTest
    @MethodSource("queues")
    void drainAndFillRejectBadArguments(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertEquals("consumer must not be null",
                assertThrows(NullPointerException.class, () -> q.drain(null, 1)).getMessage());
        assertEquals("supplier must not be null",
                assertThrows(NullPointerException.class, () -> q.fill(null, 1)).getMessage());
        assertEquals("limit must be >= 0, got -1",
                assertThrows(IllegalArgumentException.class, () -> q.drain(e -> { }, -1)).getMessage());
        assertEquals("limit must be >= 0, got -3",
                assertThrows(IllegalArgumentException.class, () -> q.fill(() -> 1, -3)).getMessage());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void fillWithASupplierReturningNullThrowsAndLosesNoCapacity(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int[] calls = {0};
        // one element first where there is room for two, so that the null comes mid-batch
        final int good = kind.bounded() && kind.capacity() < 2 ? 0 : 1;
        final NullPointerException e = assertThrows(NullPointerException.class,
                () -> q.fill(() -> calls[0]++ < good ? 5 : null, 3));
        assertEquals("supplier returned null; queues do not hold null elements", e.getMessage());
        assertEquals(good, q.size());
        if (good == 1) {
            assertEquals(5, q.poll());
        }
        final int n = kind.fillCount();
        final int[] next = {0};
        assertEquals(n, q.fill(() -> next[0]++, n), "every slot still usable");
        assertEquals(range(0, n), pollAll(q));
    }

    @ParameterizedTest
    @MethodSource("queues")
    void consumerThatThrowsLosesOnlyItsElement(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        q.add(1);
        if (!kind.bounded() || kind.capacity() > 1) {
            q.add(2);
        }
        assertThrows(IllegalStateException.class, () -> q.drain(e -> {
            throw new IllegalStateException("boom");
        }, 5));
        if (!kind.bounded() || kind.capacity() > 1) {
            assertEquals(2, q.poll());
        }
        assertNull(q.poll());
        final int n = kind.fillCount();
        for (int i = 0; i < n; i++) {
            assertTrue(q.offer(i), "capacity intact");
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    void removalFromTheMiddleIsUnsupportedWithAClearMessage(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        q.add(1);
        final Iterator<Integer> it = q.iterator();
        assertEquals(1, it.next());
        for (final Runnable op : List.<Runnable>of(() -> q.remove(1), () -> q.remove(2), () -> q.remove(null),
                () -> q.removeAll(List.of(1)), () -> q.removeAll(List.of()), () -> q.retainAll(List.of()),
                () -> q.removeIf(x -> true), () -> q.removeIf(x -> false), it::remove)) {
            final UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, op::run);
            assertTrue(e.getMessage().contains(" is not supported by "), e.getMessage());
            assertTrue(e.getMessage().contains("use poll() or drain()"), e.getMessage());
        }
        assertEquals(1, q.poll(), "nothing removed by the unsupported calls");
        assertNull(q.poll());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void addAllAddsInOrderAndRefusesItself(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        assertTrue(q.addAll(range(0, n)));
        assertThrows(IllegalArgumentException.class, () -> q.addAll(q));
        assertEquals(range(0, n), pollAll(q));
    }

    @ParameterizedTest
    @MethodSource("queues")
    void clearEmptiesTheQueueAndKeepsItUsable(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        q.addAll(range(0, n));
        q.clear();
        assertTrue(q.isEmpty());
        assertNull(q.poll());
        q.addAll(range(10, n));
        assertEquals(range(10, n), pollAll(q));
    }

    @ParameterizedTest
    @MethodSource("queues")
    void burstOfPollsOnAnEmptyQueueThenAnOfferIsFound(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        for (int round = 0; round < 5; round++) {
            q.add(round);
            assertEquals(round, q.poll());
            for (int i = 0; i < 500; i++) {
                assertNull(q.poll()); // dequeuers overrun the tail; catchup and threshold take over
            }
            q.add(1000 + round);
            assertEquals(1000 + round, q.poll());
            assertNull(q.poll());
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    void holdsTheSameElementTwiceAndKeepsIdentity(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final Integer big = 123_456;
        q.add(big);
        assertSame(big, q.poll());
        if (!kind.bounded() || kind.capacity() > 1) {
            q.add(big);
            q.add(big);
            assertSame(big, q.poll());
            assertSame(big, q.poll());
        }
    }

    @ParameterizedTest
    @MethodSource("queues")
    void toStringListsTheElementsOldestFirst(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertEquals("[]", q.toString());
        q.add(1);
        assertEquals("[1]", q.toString());
        if (!kind.bounded() || kind.capacity() > 2) {
            q.add(2);
            assertEquals("[1, 2]", q.toString());
            q.poll();
            q.add(3);
            assertEquals("[2, 3]", q.toString());
        }
    }
}

package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.QueueContractTest.Kind;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Spliterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;
import dev.slipstream.wait.HybridWaitStrategy;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Timeout;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The read-only {@code Collection} side of every queue of the package: exact size when
 * quiescent, the weakly consistent iterator, and what is built on it (contains, toArray,
 * toString, forEach, stream), with bad input. Runs on the queues of {@link QueueContractTest},
 * counters near the top of the 64-bit range included.
 */
class QueueCollectionTest {
    private static final String QUEUES = "dev.slipstream.queue.QueueContractTest#queues";

    private static List<Integer> listOf(final Iterable<Integer> q) {
        final List<Integer> out = new ArrayList<>();
        for (final Integer e : q) {
            out.add(e);
        }
        return out;
    }

    /**
     * Random bursts of offers and polls, polls on an empty queue included (they close entries
     * and make later offers skip positions): after every step the size, the iteration order,
     * toArray and toString match an {@link ArrayDeque} that did the same.
     */
    @ParameterizedTest
    @MethodSource(QUEUES)
    void sizeAndContentsAreExactWheneverTheQueueIsQuiescent(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final ArrayDeque<Integer> model = new ArrayDeque<>();
        final Random random = new Random(42);
        final int span = kind.bounded() ? kind.capacity() : 12;
        int next = 0;
        for (int step = 0; step < 3_000; step++) {
            final int burst = random.nextInt(span + 3);
            if (random.nextBoolean()) {
                for (int i = 0; i < burst; i++) {
                    if (q.offer(next)) {
                        model.add(next);
                    } else {
                        assertTrue(kind.bounded() && model.size() == kind.capacity(), "refused below capacity");
                    }
                    next++;
                }
            } else {
                for (int i = 0; i < burst; i++) {
                    assertEquals(model.poll(), q.poll());
                }
            }
            assertEquals(model.size(), q.size(), "step " + step);
            assertEquals(model.isEmpty(), q.isEmpty());
            assertEquals(new ArrayList<>(model), listOf(q), "step " + step);
            if (step % 10 == 0) {
                assertArrayEquals(model.toArray(), q.toArray());
                assertEquals(model.toString(), q.toString());
            }
            if (q instanceof BlockingQueue) {
                final int remaining = ((BlockingQueue<Integer>) q).remainingCapacity();
                assertEquals(kind.bounded() ? kind.capacity() - model.size() : Integer.MAX_VALUE, remaining);
            }
        }
    }

    @ParameterizedTest
    @MethodSource(QUEUES)
    void iterationIsFifoAndLeavesTheQueueAsItWas(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertFalse(q.iterator().hasNext());
        assertThrows(NoSuchElementException.class, () -> q.iterator().next());
        final int n = kind.fillCount();
        for (int i = 0; i < n; i++) {
            q.add(i);
        }
        final Iterator<Integer> it = q.iterator();
        for (int i = 0; i < n; i++) {
            assertTrue(it.hasNext());
            assertTrue(it.hasNext(), "hasNext is idempotent");
            assertEquals(i, it.next());
        }
        assertFalse(it.hasNext());
        final NoSuchElementException e = assertThrows(NoSuchElementException.class, it::next);
        assertEquals("no more elements", e.getMessage());
        assertEquals(n, q.size(), "iteration removes nothing");
        for (int i = 0; i < n; i++) {
            assertEquals(i, q.poll());
        }
    }

    /**
     * An iterator survives the queue changing under it: no ConcurrentModificationException, the
     * elements present all along come once each in order, polled ones may be missing, ones
     * offered after it was created do not appear.
     */
    @ParameterizedTest
    @MethodSource(QUEUES)
    void iteratorIsWeaklyConsistentWhileTheQueueChanges(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        for (int lap = 0; lap < 5; lap++) {
            for (int i = 0; i < n; i++) {
                q.add(lap * 1000 + i);
            }
            final Iterator<Integer> it = q.iterator();
            final List<Integer> seen = new ArrayList<>();
            seen.add(it.next());
            final int polled = n / 2;
            for (int i = 0; i < polled; i++) {
                assertEquals(lap * 1000 + i, q.poll());
            }
            for (int i = 0; i < polled; i++) {
                assertTrue(q.offer(-1 - i), "room was made by the polls");
            }
            it.forEachRemaining(seen::add);
            // next() returned the first and read ahead the second before the polls (an element
            // polled during the iteration may be returned); then come the elements still there,
            // and none of those offered after the iterator was created
            final List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (i < 2 || i >= polled) {
                    expected.add(lap * 1000 + i);
                }
            }
            assertEquals(expected, seen, "lap " + lap);
            q.clear();
        }
    }

    @ParameterizedTest
    @MethodSource(QUEUES)
    void containsAndContainsAllLookAtEveryElement(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertFalse(q.contains(1));
        assertFalse(q.contains(null), "null queries are answered, not refused");
        assertTrue(q.containsAll(List.of()));
        final int n = kind.fillCount();
        for (int i = 0; i < n; i++) {
            q.add(i * 10);
        }
        assertTrue(q.contains(0));
        assertTrue(q.contains((n - 1) * 10));
        assertFalse(q.contains(5));
        assertFalse(q.contains("0"));
        assertFalse(q.contains(null));
        assertTrue(q.containsAll(List.of(0, (n - 1) * 10)));
        assertFalse(q.containsAll(List.of(0, 5)));
        assertThrows(NullPointerException.class, () -> q.containsAll(null));
        q.poll();
        assertFalse(q.contains(0), "a polled element is gone");
    }

    @ParameterizedTest
    @MethodSource(QUEUES)
    void toArrayCopiesOldestFirstAndChecksItsArgument(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        assertArrayEquals(new Object[0], q.toArray());
        final Integer[] empty = new Integer[2];
        empty[0] = 99;
        assertSame(empty, q.toArray(empty));
        assertNull(empty[0], "the element after the last is set to null");
        final int n = kind.fillCount();
        final Integer[] expected = new Integer[n];
        for (int i = 0; i < n; i++) {
            q.add(i);
            expected[i] = i;
        }
        assertArrayEquals(expected, q.toArray());
        assertArrayEquals(expected, q.toArray(new Integer[0]));
        final Integer[] big = new Integer[n + 2];
        assertSame(big, q.toArray(big));
        assertNull(big[n]);
        assertArrayEquals(expected, q.toArray(Integer[]::new));
        assertThrows(NullPointerException.class, () -> q.toArray((Integer[]) null));
        assertThrows(ArrayStoreException.class, () -> q.toArray(new String[0]));
        assertEquals(n, q.size(), "nothing removed");
    }

    @ParameterizedTest
    @MethodSource(QUEUES)
    void forEachAndStreamSeeTheElementsInOrder(final Kind kind) {
        final BatchQueue<Integer> q = kind.create();
        final int n = kind.fillCount();
        for (int i = 0; i < n; i++) {
            q.add(i);
        }
        final List<Integer> seen = new ArrayList<>();
        q.forEach(seen::add);
        assertEquals(listOf(q), seen);
        assertEquals(seen, q.stream().collect(Collectors.toList()));
        assertEquals(n, q.stream().count());
        assertEquals(seen, q.parallelStream().sorted().collect(Collectors.toList()));
        final Spliterator<Integer> s = q.spliterator();
        assertTrue(s.hasCharacteristics(Spliterator.ORDERED));
        assertTrue(s.hasCharacteristics(Spliterator.NONNULL));
        assertTrue(s.hasCharacteristics(Spliterator.CONCURRENT));
        assertFalse(s.hasCharacteristics(Spliterator.SIZED), "the size may change while it runs");
        assertThrows(NullPointerException.class, () -> q.forEach(null));
        assertThrows(NullPointerException.class, () -> q.iterator().forEachRemaining(null));
        assertThrows(NullPointerException.class, () -> q.spliterator().tryAdvance(null));
        assertThrows(NullPointerException.class, () -> q.spliterator().forEachRemaining(null));
        // a consumer that throws stops the walk and loses nothing: iteration only reads
        final int[] calls = {0};
        final int failAt = Math.min(2, n);
        assertThrows(IllegalStateException.class, () -> q.forEach(e -> {
            if (++calls[0] == failAt) {
                throw new IllegalStateException("boom");
            }
        }));
        assertEquals(failAt, calls[0]);
        assertEquals(seen, listOf(q), "nothing lost");
    }

    @Test
    void lscqIterationCrossesSegmentsAndSkipsRetiredOnes() {
        for (final int segment : new int[] {1, 2, 4}) {
            final LscqQueue<Integer> q = new LscqQueue<>(segment);
            for (int i = 0; i < 50; i++) {
                q.add(i);
            }
            final Iterator<Integer> it = q.iterator();
            for (int i = 0; i < 20; i++) {
                assertEquals(i, q.poll()); // retires segments under the iterator
            }
            final List<Integer> seen = new ArrayList<>();
            it.forEachRemaining(seen::add);
            // the first element was read ahead when the iterator was made; then the 30 left
            final List<Integer> expected = new ArrayList<>(List.of(0));
            for (int i = 20; i < 50; i++) {
                expected.add(i);
            }
            assertEquals(expected, seen, "segment " + segment);
            q.add(50);
            final List<Integer> rest = listOf(q);
            assertEquals(31, rest.size());
            assertEquals(20, rest.get(0));
        }
    }

    @Test
    void lscqIterationOfAClosedQueueEndsAtTheClosedLink() {
        final LscqQueue<Integer> q = new LscqQueue<>(2);
        for (int i = 0; i < 5; i++) {
            q.add(i);
        }
        q.close();
        assertEquals(List.of(0, 1, 2, 3, 4), listOf(q));
        assertEquals("[0, 1, 2, 3, 4]", q.toString());
        while (!q.isDrained()) {
            q.poll();
        }
        assertEquals(List.of(), listOf(q));
    }

    @Test
    void lprqIterationOfAClosedQueueEndsAtTheClosedLink() {
        for (final int ring : new int[] {1, 2, 8}) {
            final LprqQueue<Integer> q = new LprqQueue<>(ring);
            for (int i = 0; i < 5; i++) {
                q.add(i);
            }
            q.close();
            assertEquals(List.of(0, 1, 2, 3, 4), listOf(q), "ring " + ring);
            assertEquals("[0, 1, 2, 3, 4]", q.toString());
            assertEquals(5, q.size());
            assertTrue(q.contains(4));
            while (!q.isDrained()) {
                q.poll();
            }
            assertEquals(List.of(), listOf(q));
            assertEquals(0, q.size());
            assertNull(q.peek());
        }
    }

    @Test
    void sizeIsExactAfterPollsOverranAnEmptyRing() {
        // polls on an empty ring close positions; the offers after them skip those positions,
        // which tail - head would count as elements
        final ScqQueue<Integer> q = new ScqQueue<>(16);
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 3; i++) {
                q.offer(i);
            }
            for (int i = 0; i < 5; i++) {
                q.poll();
            }
            for (int i = 0; i < 7; i++) {
                q.offer(i);
            }
            assertEquals(7, q.size(), "round " + round);
            q.clear();
            assertEquals(0, q.size());
        }
    }

    @Test
    void sizeOfAnUnboundedQueueIsExactAcrossFinalizedSegments() {
        final LscqQueue<Integer> q = new LscqQueue<>(4);
        final ArrayDeque<Integer> model = new ArrayDeque<>();
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < 9; i++) {
                q.offer(i);
                model.add(i);
            }
            for (int i = 0; i < 6; i++) {
                assertEquals(model.poll(), q.poll());
            }
            assertEquals(model.size(), q.size(), "round " + round);
        }
    }

    static Stream<Named<Supplier<BatchQueue<Integer>>>> churned() {
        return Stream.of(
                Named.of("ScqQueue(16)", () -> new ScqQueue<>(16)),
                Named.of("ScqQueue(4) near 2^64", () -> new ScqQueue<>(4, true, -3_000L)),
                Named.of("LscqQueue(4)", () -> new LscqQueue<>(4)),
                Named.of("LscqQueue(1)", () -> new LscqQueue<>(1)),
                Named.of("LscqQueue(4) near 2^62", () -> new LscqQueue<>(4, true, (1L << 62) - 3_000)),
                Named.of("ScqBlockingQueue(16)", () -> new ScqBlockingQueue<>(16)),
                Named.of("LscqBlockingQueue(4)", () -> new LscqBlockingQueue<>(4, new HybridWaitStrategy())),
                Named.of("LprqQueue(4)", () -> new LprqQueue<>(4)),
                Named.of("LprqQueue(1)", () -> new LprqQueue<>(1)),
                Named.of("LprqBlockingQueue(4)", () -> new LprqBlockingQueue<>(4, new HybridWaitStrategy())));
    }

    /**
     * Two producers and two consumers run, stop, and the queue is checked while nobody touches
     * it, 40 times: concurrent rounds leave positions that offers skipped and entries closed by
     * consumers, which {@code tail - head} would count as elements.
     */
    @ParameterizedTest
    @MethodSource("churned")
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void sizeIsExactWhenQuiescentAfterConcurrentTraffic(final Supplier<BatchQueue<Integer>> factory)
            throws InterruptedException {
        final BatchQueue<Integer> q = factory.get();
        final int capacity = q instanceof ScqQueue ? ((ScqQueue<Integer>) q).capacity()
                : q instanceof ScqBlockingQueue ? ((ScqBlockingQueue<Integer>) q).capacity() : Integer.MAX_VALUE;
        long inQueue = 0;
        for (int round = 0; round < 40; round++) {
            final AtomicLong offered = new AtomicLong();
            final AtomicLong polled = new AtomicLong();
            final CountDownLatch start = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                final boolean producer = t % 2 == 0;
                final int ops = 500 + 97 * round % 700;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < ops; i++) {
                        if (producer) {
                            if (q.offer(i)) {
                                offered.incrementAndGet();
                            }
                        } else if (q.poll() != null) {
                            polled.incrementAndGet();
                        }
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (final Thread t : threads) {
                t.join();
            }
            inQueue += offered.get() - polled.get();
            assertEquals(inQueue, q.size(), "round " + round);
            assertEquals(inQueue, listOf(q).size(), "round " + round);
            if (q instanceof ScqBlockingQueue) {
                assertEquals(capacity - inQueue, ((ScqBlockingQueue<Integer>) q).remainingCapacity());
            }
        }
        assertEquals(inQueue, q.drain(e -> { }, Integer.MAX_VALUE));
        assertEquals(0, q.size());
    }
}

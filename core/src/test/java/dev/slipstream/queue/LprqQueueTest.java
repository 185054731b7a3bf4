package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LprqQueueTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -4, 6, 3, Integer.MIN_VALUE})
    void ringCapacityMustBeAPowerOfTwoInRange(final int capacity) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LprqQueue<Integer>(capacity));
        assertEquals("ringCapacity must be a power of two from 1 to 2^30, got " + capacity, e.getMessage());
    }

    @Test
    void startOfTheCountersMustLeaveRoomForTheClosedBit() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LprqQueue<Integer>(4, true, -1L));
        assertEquals("start must be between 0 and 2^62, got -1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new LprqQueue<Integer>(4, true, (1L << 62) + 1));
    }

    @Test
    void aContentionSettingIsRequiredAndKeptAndTheRingCapacityStillChecked() {
        final NullPointerException none = assertThrows(NullPointerException.class,
                () -> new LprqQueue<Integer>(16, null));
        assertEquals("contention must not be null", none.getMessage());
        final IllegalArgumentException odd = assertThrows(IllegalArgumentException.class,
                () -> new LprqQueue<Integer>(3, LprqQueue.Contention.BACK_OFF));
        assertEquals("ringCapacity must be a power of two from 1 to 2^30, got 3", odd.getMessage());
        assertEquals(LprqQueue.Contention.EAGER, new LprqQueue<Integer>().contention());
        for (final LprqQueue.Contention contention : LprqQueue.Contention.values()) {
            final LprqQueue<Integer> q = new LprqQueue<>(2, contention);
            assertEquals(contention, q.contention());
            for (int i = 0; i < 5; i++) {
                assertTrue(q.offer(i));
            }
            for (int i = 0; i < 5; i++) {
                assertEquals(i, q.poll(), contention + ": in order across rings");
            }
            assertNull(q.poll());
        }
    }

    @Test
    void defaultsAreDocumented() {
        final LprqQueue<Integer> q = new LprqQueue<>();
        assertEquals(LprqQueue.DEFAULT_RING_CAPACITY, q.ringCapacity());
        assertEquals(4096, q.ringCapacity());
        assertEquals(1, q.ringsAllocated());
    }

    @Test
    void aBacklogLinksRingsAndDrainingCrossesThemInOrder() {
        final LprqQueue<Integer> q = new LprqQueue<>(4);
        for (int i = 0; i < 10; i++) {
            q.offer(i);
        }
        assertEquals(3, q.ringsAllocated(), "10 elements in rings of 4");
        assertEquals(10, q.size());
        final List<Integer> seen = new ArrayList<>(q);
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), seen);
        for (int i = 0; i < 10; i++) {
            assertEquals(i, q.poll());
        }
        assertNull(q.poll());
        assertTrue(q.isEmpty());
        q.offer(42);
        assertEquals(42, q.peek());
        assertEquals(1, q.size());
    }

    @Test
    void aRingIsReusedLapAfterLapWhileTheBacklogFits() {
        final LprqQueue<Integer> q = new LprqQueue<>(8);
        for (int lap = 0; lap < 10_000; lap++) {
            for (int i = 0; i < 7; i++) {
                q.offer(i);
            }
            for (int i = 0; i < 7; i++) {
                assertEquals(i, q.poll());
            }
        }
        assertEquals(1, q.ringsAllocated());
    }

    @Test
    void theIteratorDoesNotReturnWhatIsOfferedAfterItWasCreated() {
        final LprqQueue<Integer> q = new LprqQueue<>(2);
        q.offer(1);
        q.offer(2);
        q.offer(3);
        final Iterator<Integer> it = q.iterator();
        q.offer(4);
        assertEquals(1, q.poll()); // already found when the iterator was created: returned
        assertEquals(2, q.poll()); // polled before the walk got there: skipped
        final List<Integer> seen = new ArrayList<>();
        it.forEachRemaining(seen::add);
        assertEquals(List.of(1, 3), seen);
    }

    @Test
    void aPeekedElementIsTheOldestAndStays() {
        final LprqQueue<String> q = new LprqQueue<>(1);
        q.offer("a");
        q.offer("b");
        assertEquals("a", q.peek());
        assertEquals("a", q.poll());
        assertEquals("b", q.peek());
        assertFalse(q.isEmpty());
        assertEquals("b", q.poll());
        assertNull(q.peek());
    }

    /**
     * More threads than cores (8 on the 2-core build machine), small rings so that rings are
     * closed and linked all the time: everything offered is polled exactly once and each
     * producer's order is kept, and every thread finishes (the dequeuers' wait for an enqueuer
     * is bounded).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void eightThreadsMoveEverythingExactlyOnceInProducerOrder() throws Exception {
        for (final int capacity : new int[] {1, 16, 4096}) {
            final LprqQueue<Long> q = new LprqQueue<>(capacity);
            final int producers = 4;
            final int consumers = 4;
            final int perProducer = 100_000;
            final AtomicLong left = new AtomicLong((long) producers * perProducer);
            final List<Throwable> failures = new CopyOnWriteArrayList<>();
            final boolean[][] seen = new boolean[producers][perProducer];
            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                final long id = p;
                threads.add(new Thread(() -> {
                    try {
                        go.await();
                        for (long s = 0; s < perProducer; s++) {
                            q.offer((id << 32) | s);
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            for (int c = 0; c < consumers; c++) {
                threads.add(new Thread(() -> {
                    final long[] last = {-1, -1, -1, -1};
                    try {
                        go.await();
                        while (left.get() > 0 && failures.isEmpty()) {
                            final Long v = q.poll();
                            if (v == null) {
                                Thread.yield();
                                continue;
                            }
                            final int id = (int) (v >>> 32);
                            final int s = (int) (long) v;
                            if (s <= last[id]) {
                                throw new AssertionError("producer " + id + ": " + s + " after " + last[id]);
                            }
                            last[id] = s;
                            synchronized (seen) {
                                if (seen[id][s]) {
                                    throw new AssertionError("duplicate " + id + "/" + s);
                                }
                                seen[id][s] = true;
                            }
                            left.decrementAndGet();
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (final Thread t : threads) {
                t.join();
            }
            assertTrue(failures.isEmpty(), () -> "capacity " + capacity + ": " + failures.get(0));
            assertEquals(0, left.get());
            assertNull(q.poll());
        }
    }

    @Test
    void aClosedQueueAllocatesNoRingAndCountsWhatItKept() {
        final LprqQueue<Integer> q = new LprqQueue<>(2);
        for (int i = 0; i < 5; i++) {
            assertTrue(q.offer(i));
        }
        final long rings = q.ringsAllocated();
        q.close();
        assertEquals(0, q.fill(() -> 1, 3));
        assertEquals(rings, q.ringsAllocated(), "a closed queue allocates no ring");
        assertEquals(5, q.size());
        assertEquals("[0, 1, 2, 3, 4]", q.toString());
        while (!q.isDrained()) {
            q.poll();
        }
        assertEquals(0, q.size());
        assertTrue(q.isEmpty());
        assertFalse(q.offer(100));
        assertTrue(q.isDrained());
    }

    @Test
    void closedEmptyQueueIsDrainedAtOnce() {
        final LprqQueue<Integer> q = new LprqQueue<>(4);
        q.close();
        assertTrue(q.isDrained());
        assertNull(q.poll());
        assertFalse(new LprqQueue<Integer>(4).isDrained(), "open queues are never drained for good");
    }

    @Test
    void closeSealsAFullLastRingAndItsPredecessors() {
        // ring of one cell: every element but the first sits in a ring of its own
        final LprqQueue<Integer> q = new LprqQueue<>(1);
        for (int i = 0; i < 4; i++) {
            assertTrue(q.offer(i));
        }
        assertEquals(0, q.poll());
        q.close();
        assertFalse(q.offer(4), "a full last ring refuses, and no ring may be linked after it");
        assertEquals(List.of(1, 2, 3), new ArrayList<>(q));
        final Iterator<Integer> it = q.iterator();
        assertEquals(1, it.next());
        assertFalse(q.isDrained());
        assertEquals(1, q.poll());
        assertEquals(2, q.poll());
        assertFalse(q.isDrained());
        assertEquals(3, q.poll());
        assertNull(q.poll());
        assertTrue(q.isDrained());
        assertEquals(0, q.size());
    }

    @Test
    void fillStopsAtTheClose() {
        final LprqQueue<Integer> q = new LprqQueue<>(4);
        final int[] next = {0};
        assertEquals(2, q.fill(() -> {
            if (next[0] == 2) {
                q.close(); // the element supplied now is refused
            }
            return next[0]++;
        }, 10));
        assertEquals(List.of(0, 1), new ArrayList<>(q));
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void closeRacingProducersLosesNoAcceptedElementAndAcceptsNoLateOffer() throws Exception {
        for (int round = 0; round < 200; round++) {
            final LprqQueue<Long> q = new LprqQueue<>(2);
            final int producers = 3;
            final AtomicLong accepted = new AtomicLong();
            final AtomicLong acceptedAfterClose = new AtomicLong();
            final AtomicBoolean closeReturned = new AtomicBoolean();
            final CountDownLatch started = new CountDownLatch(producers);
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                final long id = p;
                final Thread t = new Thread(() -> {
                    started.countDown();
                    for (long seq = 0; ; seq++) {
                        final boolean late = closeReturned.get();
                        if (!q.offer((id << 40) | seq)) {
                            break;
                        }
                        accepted.incrementAndGet();
                        if (late) {
                            acceptedAfterClose.incrementAndGet();
                        }
                    }
                });
                threads.add(t);
                t.start();
            }
            started.await();
            q.close();
            closeReturned.set(true);
            long polled = 0;
            while (!q.isDrained()) {
                if (q.poll() != null) {
                    polled++;
                }
            }
            for (Thread t : threads) {
                t.join();
            }
            assertNull(q.poll(), "an element arrived after isDrained() in round " + round);
            assertEquals(0, acceptedAfterClose.get(), "offers that started after close() succeeded");
            assertEquals(accepted.get(), polled, "round " + round);
        }
    }
}

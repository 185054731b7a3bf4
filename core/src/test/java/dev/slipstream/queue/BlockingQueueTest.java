package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.SleepingWaitStrategy;
import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** What the blocking variants add to the queue contract: waiting, timeouts, interrupts, drainTo. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingQueueTest {

    static Stream<Named<Function<WaitStrategy, BlockingQueue<Integer>>>> queues() {
        return Stream.of(
                Named.of("ScqBlockingQueue(2)", ws -> new ScqBlockingQueue<>(2, ws)),
                Named.of("LscqBlockingQueue(2)", ws -> new LscqBlockingQueue<>(2, ws)),
                Named.of("LprqBlockingQueue(2)", ws -> new LprqBlockingQueue<>(2, ws)));
    }

    static Stream<Named<WaitStrategy>> strategies() {
        return Stream.of(
                Named.of("hybrid", new HybridWaitStrategy()),
                Named.of("blocking", new BlockingWaitStrategy()),
                Named.of("busy spin", new BusySpinWaitStrategy()),
                Named.of("yielding", new YieldingWaitStrategy()),
                Named.of("sleeping", new SleepingWaitStrategy()),
                Named.of("timeout blocking", new TimeoutBlockingWaitStrategy(Duration.ofMillis(1))));
    }

    /** Starts a thread that takes one element and reports it. */
    private static Thread taker(final BlockingQueue<Integer> q, final AtomicReference<Object> got,
                                final CountDownLatch started) {
        final Thread t = new Thread(() -> {
            started.countDown();
            try {
                got.set(q.take());
            } catch (InterruptedException e) {
                got.set(e);
            }
        });
        t.start();
        return t;
    }

    private static void awaitWaiting(final QueueSignal signal) {
        while (QueueInternals.waiting(signal) == 0) {
            Thread.onSpinWait();
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void takeWaitsForAnOfferWithEveryStrategy(final WaitStrategy ws) throws Exception {
        for (final BlockingQueue<Integer> q : List.<BlockingQueue<Integer>>of(
                new ScqBlockingQueue<>(4, ws), new LscqBlockingQueue<>(4, ws), new LprqBlockingQueue<>(4, ws))) {
            final AtomicReference<Object> got = new AtomicReference<>();
            final CountDownLatch started = new CountDownLatch(1);
            final Thread t = taker(q, got, started);
            started.await();
            awaitWaiting(((SignalledBlockingQueue<Integer>) q).notEmpty);
            assertTrue(q.offer(7));
            t.join();
            assertEquals(7, got.get());
        }
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void putWaitsForAPollWithEveryStrategy(final WaitStrategy ws) throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1, ws);
        q.put(1);
        final CountDownLatch done = new CountDownLatch(1);
        final Thread t = new Thread(() -> {
            try {
                q.put(2);
                done.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        awaitWaiting(q.notFull);
        assertEquals(1, done.getCount(), "still full: put waits");
        assertEquals(1, q.take());
        done.await();
        t.join();
        assertEquals(2, q.poll());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void takeIsInterruptibleWithEveryStrategy(final WaitStrategy ws) throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(2, ws);
        final AtomicReference<Object> got = new AtomicReference<>();
        final CountDownLatch started = new CountDownLatch(1);
        final Thread t = taker(q, got, started);
        awaitWaiting(q.notEmpty);
        t.interrupt();
        t.join();
        assertTrue(got.get() instanceof InterruptedException, String.valueOf(got.get()));
        assertEquals(0, QueueInternals.waiting(q.notEmpty), "the taker deregistered");
        q.offer(1);
        assertEquals(1, q.poll(), "nothing consumed by the interrupted take");
    }

    @ParameterizedTest
    @MethodSource("queues")
    void aPendingInterruptIsReportedBeforeWaiting(final Function<WaitStrategy, BlockingQueue<Integer>> factory) {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, q::take);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> q.poll(1, TimeUnit.SECONDS));
        assertFalse(Thread.interrupted(), "the interrupt status is cleared when reported");
    }

    @Test
    void anElementAlreadyThereIsTakenEvenWhenInterrupted() throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(2);
        q.offer(3);
        Thread.currentThread().interrupt();
        assertEquals(3, q.take(), "no wait, so no InterruptedException");
        assertTrue(Thread.interrupted());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void timedPollReturnsNullWhenNothingArrives(final Function<WaitStrategy, BlockingQueue<Integer>> factory)
            throws Exception {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        assertNull(q.poll(0, TimeUnit.MILLISECONDS));
        assertNull(q.poll(-5, TimeUnit.SECONDS));
        assertNull(q.poll(20, TimeUnit.MILLISECONDS));
        q.offer(4);
        assertEquals(4, q.poll(1, TimeUnit.HOURS), "an element present is returned at once");
    }

    @ParameterizedTest
    @MethodSource("queues")
    void timedPollWakesOnAnOffer(final Function<WaitStrategy, BlockingQueue<Integer>> factory) throws Exception {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        final AtomicReference<Object> got = new AtomicReference<>();
        final Thread t = new Thread(() -> {
            try {
                got.set(q.poll(1, TimeUnit.HOURS));
            } catch (InterruptedException e) {
                got.set(e);
            }
        });
        t.start();
        while (t.getState() == Thread.State.NEW) {
            Thread.onSpinWait();
        }
        q.offer(9);
        t.join();
        assertEquals(9, got.get());
    }

    @Test
    void timedOfferGivesUpOnAFullQueueAndSucceedsOnceThereIsRoom() throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1);
        assertTrue(q.offer(1, 1, TimeUnit.SECONDS));
        assertFalse(q.offer(2, 20, TimeUnit.MILLISECONDS));
        assertFalse(q.offer(2, 0, TimeUnit.MILLISECONDS));
        final AtomicReference<Object> result = new AtomicReference<>();
        final Thread t = new Thread(() -> {
            try {
                result.set(q.offer(3, 1, TimeUnit.HOURS));
            } catch (InterruptedException e) {
                result.set(e);
            }
        });
        t.start();
        awaitWaiting(q.notFull);
        assertEquals(1, q.poll());
        t.join();
        assertEquals(Boolean.TRUE, result.get());
        assertEquals(3, q.poll());
    }

    /** A timeout of zero or less, however large its magnitude, tries once and returns. */
    @ParameterizedTest
    @MethodSource("queues")
    void hugelyNegativePollTimeoutsReturnAtOnce(final Function<WaitStrategy, BlockingQueue<Integer>> factory) {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertNull(q.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS));
            assertNull(q.poll(-Long.MAX_VALUE / 2, TimeUnit.DAYS));
            assertNull(q.poll(Long.MIN_VALUE, TimeUnit.DAYS));
            assertNull(q.poll(-1, TimeUnit.NANOSECONDS));
            assertTrue(q.offer(5, Long.MIN_VALUE, TimeUnit.SECONDS), "room: a negative timeout still inserts");
            assertEquals(5, q.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS), "an element present is taken");
        });
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> q.poll(Long.MIN_VALUE, TimeUnit.NANOSECONDS),
                "an interrupt pending on entry is reported, as ArrayBlockingQueue does");
        assertFalse(Thread.interrupted());
    }

    @Test
    void hugelyNegativeOfferTimeoutsOnAFullQueueReturnAtOnce() throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1);
        q.put(1);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertFalse(q.offer(2, Long.MIN_VALUE, TimeUnit.SECONDS));
            assertFalse(q.offer(2, -Long.MAX_VALUE / 2, TimeUnit.DAYS));
            assertFalse(q.offer(2, Long.MIN_VALUE, TimeUnit.NANOSECONDS));
            assertFalse(q.offer(2, 0, TimeUnit.NANOSECONDS));
        });
        assertEquals(1, q.poll());
        assertTrue(q.offer(3, Long.MIN_VALUE, TimeUnit.SECONDS));
        assertEquals(List.of(3), new ArrayList<>(q));
    }

    /** Huge positive timeouts (toNanos saturates at Long.MAX_VALUE) wait, without overflowing. */
    @Test
    void hugePositiveTimeoutsWaitForTheOtherSide() throws Exception {
        for (final long timeout : new long[] {Long.MAX_VALUE, Long.MAX_VALUE / 2}) {
            for (final TimeUnit unit : new TimeUnit[] {TimeUnit.NANOSECONDS, TimeUnit.DAYS}) {
                final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1);
                final AtomicReference<Object> got = new AtomicReference<>();
                final Thread taker = new Thread(() -> {
                    try {
                        got.set(q.poll(timeout, unit));
                    } catch (InterruptedException e) {
                        got.set(e);
                    }
                });
                taker.start();
                awaitWaiting(q.notEmpty);
                Thread.sleep(5); // a wrapped-around deadline would have returned null by now
                assertTrue(taker.isAlive(), timeout + " " + unit + ": still waiting");
                q.put(7);
                taker.join();
                assertEquals(7, got.get());

                q.put(1);
                final AtomicReference<Object> put = new AtomicReference<>();
                final Thread putter = new Thread(() -> {
                    try {
                        put.set(q.offer(2, timeout, unit));
                    } catch (InterruptedException e) {
                        put.set(e);
                    }
                });
                putter.start();
                awaitWaiting(q.notFull);
                Thread.sleep(5);
                assertTrue(putter.isAlive(), timeout + " " + unit + ": still waiting for room");
                assertEquals(1, q.poll());
                putter.join();
                assertEquals(Boolean.TRUE, put.get());
                assertEquals(2, q.poll());
            }
        }
    }

    @Test
    void timedOfferIsInterruptible() throws Exception {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1);
        q.put(1);
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> q.offer(2, 1, TimeUnit.HOURS));
        Thread.currentThread().interrupt();
        assertThrows(InterruptedException.class, () -> q.put(2));
        assertEquals(1, q.poll());
        assertNull(q.poll());
    }

    @Test
    void unboundedPutAndTimedOfferNeverWait() {
        final LscqBlockingQueue<Integer> q = new LscqBlockingQueue<>(1, new BusySpinWaitStrategy());
        for (int i = 0; i < 100; i++) {
            q.put(i);
            assertTrue(q.offer(i, 0, TimeUnit.NANOSECONDS));
        }
        assertEquals(200, q.size());
        assertEquals(Integer.MAX_VALUE, q.remainingCapacity());
        assertEquals(1, q.segmentCapacity());
        final LprqBlockingQueue<Integer> lprq = new LprqBlockingQueue<>(1, new BusySpinWaitStrategy());
        for (int i = 0; i < 100; i++) {
            lprq.put(i);
            assertTrue(lprq.offer(i, 0, TimeUnit.NANOSECONDS));
        }
        assertEquals(200, lprq.size());
        assertEquals(Integer.MAX_VALUE, lprq.remainingCapacity());
        assertEquals(1, lprq.ringCapacity());
    }

    @Test
    void remainingCapacityFollowsTheSize() {
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(4);
        assertEquals(4, q.remainingCapacity());
        q.offer(1);
        q.offer(2);
        assertEquals(2, q.remainingCapacity());
        assertEquals(4, q.capacity());
    }

    @ParameterizedTest
    @MethodSource("queues")
    void drainToMovesInOrderAndChecksItsArguments(final Function<WaitStrategy, BlockingQueue<Integer>> factory) {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        q.offer(1);
        q.offer(2);
        final List<Integer> out = new ArrayList<>();
        assertEquals(0, q.drainTo(out, 0));
        assertEquals(0, q.drainTo(out, -1));
        assertEquals(1, q.drainTo(out, 1));
        assertEquals(1, q.drainTo(out));
        assertEquals(List.of(1, 2), out);
        assertEquals("collection must not be null",
                assertThrows(NullPointerException.class, () -> q.drainTo(null)).getMessage());
        assertEquals("cannot drain a queue into itself",
                assertThrows(IllegalArgumentException.class, () -> q.drainTo(q)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> q.drainTo(q, 3));
    }

    /**
     * drainTo with bad arguments moves nothing; a target whose add throws loses only the element
     * it was given (it had already left the queue, as the Javadoc says), the rest stay in order.
     */
    @ParameterizedTest
    @MethodSource("queues")
    void drainToWithBadArgumentsOrAFailingTargetLosesNothingElse(
            final Function<WaitStrategy, BlockingQueue<Integer>> factory) {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        q.offer(1);
        q.offer(2);
        assertEquals(0, q.drainTo(new ArrayList<>(), Integer.MIN_VALUE));
        assertThrows(NullPointerException.class, () -> q.drainTo(null, 0), "null is refused even when moving none");
        assertThrows(IllegalArgumentException.class, () -> q.drainTo(q, 0), "so is the queue itself");
        final SignalledBlockingQueue<Integer> signalled = (SignalledBlockingQueue<Integer>) q;
        assertThrows(IllegalArgumentException.class, () -> q.drainTo(signalled.queue),
                "and the queue inside it");
        assertEquals(List.of(1, 2), new ArrayList<>(q), "nothing moved by the refused calls");
        final List<Integer> failing = new ArrayList<>() {
            @Override
            public boolean add(final Integer e) {
                throw new IllegalStateException("target full");
            }
        };
        assertThrows(IllegalStateException.class, () -> q.drainTo(failing));
        assertEquals(List.of(2), new ArrayList<>(q), "only the element handed to the failing add is gone");
        q.offer(3);
        final List<Integer> out = new ArrayList<>();
        assertEquals(2, q.drainTo(out));
        assertEquals(List.of(2, 3), out);
    }

    @ParameterizedTest
    @MethodSource("queues")
    void rejectsNullArguments(final Function<WaitStrategy, BlockingQueue<Integer>> factory) {
        final BlockingQueue<Integer> q = factory.apply(new HybridWaitStrategy());
        assertThrows(NullPointerException.class, () -> q.put(null));
        assertThrows(NullPointerException.class, () -> q.offer(null, 1, TimeUnit.SECONDS));
        assertEquals("unit must not be null",
                assertThrows(NullPointerException.class, () -> q.poll(1, null)).getMessage());
        assertEquals("unit must not be null",
                assertThrows(NullPointerException.class, () -> q.offer(1, 1, null)).getMessage());
        assertEquals("waitStrategy must not be null",
                assertThrows(NullPointerException.class, () -> factory.apply(null)).getMessage());
    }

    @Test
    void constructorsRejectBadCapacities() {
        assertThrows(IllegalArgumentException.class, () -> new ScqBlockingQueue<Integer>(3));
        assertThrows(IllegalArgumentException.class, () -> new LscqBlockingQueue<Integer>(0, new HybridWaitStrategy()));
        assertThrows(IllegalArgumentException.class, () -> new LprqBlockingQueue<Integer>(3, new HybridWaitStrategy()));
        assertThrows(NullPointerException.class, () -> new LprqBlockingQueue<Integer>(2, null));
    }

    @Test
    void defaultsWaitWithTheHybridStrategy() {
        assertTrue(new ScqBlockingQueue<Integer>(2).waitStrategy() instanceof HybridWaitStrategy);
        final LscqBlockingQueue<Integer> q = new LscqBlockingQueue<>();
        assertTrue(q.waitStrategy() instanceof HybridWaitStrategy);
        assertEquals(LscqQueue.DEFAULT_SEGMENT_CAPACITY, q.segmentCapacity());
        final LprqBlockingQueue<Integer> lprq = new LprqBlockingQueue<>();
        assertTrue(lprq.waitStrategy() instanceof HybridWaitStrategy);
        assertEquals(LprqQueue.DEFAULT_RING_CAPACITY, lprq.ringCapacity());
        final WaitStrategy ws = new YieldingWaitStrategy();
        assertSame(ws, new ScqBlockingQueue<Integer>(2, ws).waitStrategy());
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void producersAndConsumersThroughTakeAndPutLoseNoWakeUp(final WaitStrategy ws) throws Exception {
        // capacity 1 and two threads each side: every element forces a wait on one side or the
        // other, so a lost wake-up would hang the test (the timeout catches it)
        final ScqBlockingQueue<Integer> q = new ScqBlockingQueue<>(1, ws);
        final int perProducer = 5_000;
        final long[] sums = new long[2];
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            threads.add(new Thread(() -> {
                try {
                    for (int i = 1; i <= perProducer; i++) {
                        q.put(i);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        for (int c = 0; c < 2; c++) {
            final int id = c;
            threads.add(new Thread(() -> {
                try {
                    for (int i = 0; i < perProducer; i++) {
                        sums[id] += q.take();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads) {
            t.join();
        }
        assertEquals(2L * perProducer * (perProducer + 1) / 2, sums[0] + sums[1]);
        assertEquals(0, QueueInternals.waiting(q.notEmpty));
        assertEquals(0, QueueInternals.waiting(q.notFull));
        assertNull(q.poll());
    }

    @Test
    void anLscqBlockingQueueClosesLikeAnLscqQueue() throws Exception {
        final LscqBlockingQueue<String> queue = new LscqBlockingQueue<>();
        queue.put("kept");
        assertFalse(queue.isClosed());
        assertFalse(queue.isDrained(), "open: never drained");
        queue.close();
        queue.close();
        assertTrue(queue.isClosed());
        assertFalse(queue.offer("late"), "closed: offer refused");
        assertFalse(queue.offer("late", 1, TimeUnit.SECONDS));
        final IllegalStateException put = assertThrows(IllegalStateException.class, () -> queue.put("late"));
        assertEquals("queue is closed: put(late) was refused", put.getMessage());
        final IllegalStateException add = assertThrows(IllegalStateException.class, () -> queue.add("late"));
        assertEquals("queue is closed: add(late) was refused", add.getMessage());
        assertFalse(queue.isDrained(), "an accepted element is still there");
        assertEquals("kept", queue.take(), "what was accepted before the close can still be taken");
        assertTrue(queue.isDrained());
        assertNull(queue.poll(1, TimeUnit.MILLISECONDS));
    }

    @Test
    void anLprqBlockingQueueClosesLikeAnLprqQueue() throws Exception {
        final LprqBlockingQueue<String> queue = new LprqBlockingQueue<>(1, new HybridWaitStrategy());
        queue.put("kept");
        queue.put("kept too"); // a ring of one cell: the second element is in a second ring
        assertFalse(queue.isClosed());
        assertFalse(queue.isDrained(), "open: never drained");
        queue.close();
        queue.close();
        assertTrue(queue.isClosed());
        assertFalse(queue.offer("late"), "closed: offer refused");
        assertFalse(queue.offer("late", 1, TimeUnit.SECONDS));
        assertEquals(0, queue.fill(() -> "late", 2));
        final IllegalStateException put = assertThrows(IllegalStateException.class, () -> queue.put("late"));
        assertEquals("queue is closed: put(late) was refused", put.getMessage());
        final IllegalStateException add = assertThrows(IllegalStateException.class, () -> queue.add("late"));
        assertEquals("queue is closed: add(late) was refused", add.getMessage());
        assertFalse(queue.isDrained(), "accepted elements are still there");
        assertEquals("kept", queue.take(), "what was accepted before the close can still be taken");
        assertFalse(queue.isDrained(), "one accepted element is still there");
        final List<String> rest = new ArrayList<>();
        assertEquals(1, queue.drain(rest::add, 10));
        assertEquals(List.of("kept too"), rest);
        assertTrue(queue.isDrained());
        assertNull(queue.poll(1, TimeUnit.MILLISECONDS));
    }

    @Test
    void anLprqBlockingQueueWakesATakerOnFill() throws Exception {
        final LprqBlockingQueue<Integer> q = new LprqBlockingQueue<>(2, new HybridWaitStrategy());
        final AtomicReference<Object> got = new AtomicReference<>();
        final CountDownLatch started = new CountDownLatch(1);
        final Thread t = taker(q, got, started);
        started.await();
        awaitWaiting(q.notEmpty);
        final int[] next = {5};
        assertEquals(3, q.fill(() -> next[0]++, 3));
        t.join();
        assertEquals(5, got.get());
        assertEquals(2, q.size());
    }
}

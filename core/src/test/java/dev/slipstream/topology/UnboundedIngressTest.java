package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnboundedIngressTest {

    /** A ring event. */
    static final class Slot {
        long value;
    }

    private static final EventTranslatorOneArg<Slot, Long> COPY = (slot, seq, v) -> slot.value = v;

    /** A consumer thread on the ring that records every value it reads. */
    static final class Reader implements Runnable {
        final RingBuffer<Slot> ring;
        final Sequence sequence = new Sequence();
        final SequenceBarrier barrier;
        final List<Long> values = new ArrayList<>();
        final long expected;

        Reader(final RingBuffer<Slot> ring, final long expected) {
            this.ring = ring;
            this.expected = expected;
            this.barrier = ring.newBarrier();
            ring.addGatingSequences(sequence);
        }

        @Override
        public void run() {
            long next = 0;
            try {
                while (values.size() < expected) {
                    final long available = barrier.waitFor(next);
                    for (long s = next; s <= available; s++) {
                        values.add(ring.get(s).value);
                    }
                    sequence.set(available);
                    next = available + 1;
                }
            } catch (AlertException | InterruptedException | TimeoutException e) {
                // stopped
            }
        }
    }

    static Stream<Named<WaitStrategy>> strategies() {
        return Stream.of(Named.of("hybrid", new HybridWaitStrategy()),
                Named.of("blocking", new BlockingWaitStrategy()),
                Named.of("busy spin", new BusySpinWaitStrategy()));
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void manyProducersReachTheRingOnceEachInPerProducerOrder(final WaitStrategy ws) throws Exception {
        final int producers = 3;
        final int perProducer = 50_000;
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 1024, new HybridWaitStrategy());
        final Reader reader = new Reader(ring, (long) producers * perProducer);
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY)
                .segmentCapacity(256).maxBatch(64).waitStrategy(ws).build();
        final Thread readerThread = new Thread(reader);
        readerThread.start();
        ingress.start();
        assertTrue(ingress.isRunning());
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            final long id = p;
            threads.add(new Thread(() -> {
                for (long s = 0; s < perProducer; s++) {
                    assertTrue(ingress.offer((id << 40) | s));
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads) {
            t.join();
        }
        assertEquals(0, ingress.stop(Duration.ofSeconds(30)), "everything accepted reached the ring");
        readerThread.join();
        assertFalse(ingress.isRunning());
        assertEquals((long) producers * perProducer, ingress.transferred());
        final long[] next = new long[producers];
        for (final long v : reader.values) {
            final int id = (int) (v >>> 40);
            assertEquals(next[id]++, v & ((1L << 40) - 1), "per-producer order in the ring");
        }
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer, next[p]);
        }
    }

    @Test
    void itemsOfferedBeforeStartWaitAndStopDrainsThem() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 64, new HybridWaitStrategy());
        final Reader reader = new Reader(ring, 1000);
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY).build();
        for (long i = 0; i < 1000; i++) {
            assertTrue(ingress.offer(i));
        }
        assertEquals(1000, ingress.backlog());
        final Thread readerThread = new Thread(reader);
        readerThread.start();
        ingress.start();
        assertEquals(0, ingress.stop(Duration.ofSeconds(30)));
        readerThread.join();
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, reader.values.get(i));
        }
        assertFalse(ingress.offer(5L), "refused after stop");
    }

    @Test
    void haltDiscardsWhatTheRingCannotTakeAndCountsIt() throws Exception {
        // a ring of 16 whose only consumer never moves: 16 items fit, the rest must be reported
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 16, new HybridWaitStrategy());
        ring.addGatingSequences(new Sequence());
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY).maxBatch(8).build();
        for (long i = 0; i < 100; i++) {
            ingress.offer(i);
        }
        ingress.start();
        while (ingress.transferred() < 16) {
            Thread.onSpinWait();
        }
        assertEquals(84, ingress.halt());
        assertEquals(16, ingress.transferred());
        assertThrows(IllegalStateException.class, ingress::halt);
        assertThrows(IllegalStateException.class, () -> ingress.stop(Duration.ZERO));
    }

    @Test
    void stopThatCannotDrainInTimeHaltsAndReports() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        ring.addGatingSequences(new Sequence());
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY).build();
        ingress.start();
        for (long i = 0; i < 50; i++) {
            ingress.offer(i);
        }
        assertEquals(42, ingress.stop(Duration.ofMillis(50)));
        assertEquals(8, ingress.transferred());
    }

    @Test
    void stopOfAnIngressNeverStartedDiscardsItsItems() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY).build();
        ingress.offer(1L);
        ingress.offer(2L);
        assertEquals(2, ingress.stop(Duration.ofSeconds(1)));
        assertThrows(IllegalStateException.class, ingress::start);
        assertFalse(ingress.offer(3L));
    }

    /**
     * A stop (or halt) that comes while start() is still between its state change and the
     * thread's start waits for the thread instead of joining a thread that is not there yet.
     */
    @Test
    void stopRacingStartWaitsForTheThreadAndDrains() throws Exception {
        for (final boolean halt : new boolean[] {false, true}) {
            final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
            final CountDownLatch inFactory = new CountDownLatch(1);
            final CountDownLatch release = new CountDownLatch(1);
            final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY)
                    .threadFactory(r -> {
                        inFactory.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        return new Thread(r, "ingress-under-test");
                    }).build();
            ingress.offer(1L);
            ingress.offer(2L);
            final Thread starter = new Thread(ingress::start);
            starter.start();
            inFactory.await(); // start() changed the state and is making the thread
            final List<Object> result = new CopyOnWriteArrayList<>();
            final Thread stopper = new Thread(() -> {
                try {
                    result.add(halt ? ingress.halt() : ingress.stop(Duration.ofSeconds(10)));
                } catch (Throwable t) {
                    result.add(t);
                }
            });
            stopper.start();
            while (stopper.getState() != Thread.State.WAITING && stopper.isAlive()) {
                Thread.onSpinWait(); // the stop is waiting for the start to finish
            }
            release.countDown();
            starter.join();
            stopper.join();
            assertEquals(1, result.size());
            assertTrue(result.get(0) instanceof Long, "stop/halt returned " + result.get(0));
            final long lost = (Long) result.get(0);
            if (!halt) {
                assertEquals(0L, lost, "stop drains every accepted item into the ring");
                assertEquals(2, ingress.transferred());
            } else {
                assertEquals(2, lost + ingress.transferred(), "every item is counted once");
            }
            assertFalse(ingress.isRunning());
        }
    }

    /** A thread factory that throws leaves no half-started ingress: stop discards the items. */
    @Test
    void aStartWhoseThreadFactoryThrowsCanStillBeStopped() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY)
                .threadFactory(r -> {
                    throw new IllegalStateException("no threads today");
                }).build();
        ingress.offer(1L);
        assertThrows(IllegalStateException.class, ingress::start);
        assertFalse(ingress.isRunning());
        assertEquals(1, ingress.stop(Duration.ofSeconds(1)), "the accepted item is reported, not lost silently");
    }

    @Test
    void startTwiceIsRefused() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY).build();
        ingress.start();
        final IllegalStateException e = assertThrows(IllegalStateException.class, ingress::start);
        assertEquals("ingress already started or stopped (state running)", e.getMessage());
        assertEquals(0, ingress.halt());
    }

    @Test
    void aThrowingTranslatorIsReportedAndTheRestGoesThrough() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 64, new HybridWaitStrategy());
        final Reader reader = new Reader(ring, 10);
        final List<Long> reported = new CopyOnWriteArrayList<>();
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.<Long, Slot>builder(ring, (slot, seq, v) -> {
            if (v == 3L) {
                throw new IllegalArgumentException("bad item");
            }
            slot.value = v;
        }).exceptionHandler(new ExceptionHandler<Slot>() {
            @Override
            public void handleEventException(final Throwable ex, final long sequence, final Slot event) {
                reported.add(sequence);
            }

            @Override
            public void handleOnStartException(final Throwable ex) {
            }

            @Override
            public void handleOnShutdownException(final Throwable ex) {
            }
        }).build();
        final Thread readerThread = new Thread(reader);
        readerThread.start();
        ingress.start();
        for (long i = 0; i < 10; i++) {
            ingress.offer(i);
        }
        assertEquals(0, ingress.stop(Duration.ofSeconds(30)));
        readerThread.join();
        assertEquals(List.of(3L), reported, "the failing item's slot");
        assertEquals(1, ingress.failed());
        assertEquals(10, ingress.transferred());
        assertEquals(9L, reader.values.get(9));
    }

    /**
     * A parked sequencing thread wakes for a late offer. An interrupt before it is not a way to
     * end the thread: it is cleared and the thread parks again.
     */
    @ParameterizedTest(name = "interrupted first: {0}")
    @ValueSource(booleans = {false, true})
    void aParkedSequencingThreadTakesALateOffer(final boolean interruptedFirst) throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final Reader reader = new Reader(ring, 1);
        final Thread readerThread = new Thread(reader);
        readerThread.start();
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final UnboundedIngress<Long, Slot> ingress = parkingIngress(ring, made);
        // offer once the thread is parked in the strategy (registered as a waiter first)
        final Thread t = startAndAwaitParked(ingress, made);
        if (interruptedFirst) {
            t.interrupt();
            // it leaves its wait, clears the interrupt and parks again
            while (t.isInterrupted() || t.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            assertTrue(ingress.isRunning());
        }
        assertTrue(ingress.offer(77L));
        readerThread.join();
        assertEquals(77L, reader.values.get(0));
        assertEquals(0, ingress.stop(Duration.ofSeconds(10)));
    }

    /** Starts an ingress whose thread is named, and waits until that thread is parked waiting for items. */
    private static Thread startAndAwaitParked(final UnboundedIngress<Long, Slot> ingress, final List<Thread> made) {
        ingress.start();
        final Thread t = made.get(0);
        while (t.isAlive() && t.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        return t;
    }

    private static UnboundedIngress<Long, Slot> parkingIngress(final RingBuffer<Slot> ring, final List<Thread> made) {
        return UnboundedIngress.builder(ring, COPY)
                .waitStrategy(new BlockingWaitStrategy())
                .threadFactory(r -> {
                    final Thread t = new Thread(r, "ingress-under-test");
                    made.add(t);
                    return t;
                }).build();
    }

    /** A stop releases a sequencing thread parked in its wait strategy: the close of the queue wakes it. */
    @Test
    void aStopWakesAParkedSequencingThread() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final List<Thread> made = new CopyOnWriteArrayList<>();
        final UnboundedIngress<Long, Slot> ingress = parkingIngress(ring, made);
        final Thread t = startAndAwaitParked(ingress, made);
        final Thread stopper = new Thread(() -> {
            try {
                ingress.stop(Duration.ofSeconds(20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertTrue(stopEndsAParkedThread(t, stopper::start), "the stop woke the parked sequencing thread");
        stopper.join();
        assertEquals(0, ingress.transferred());
    }

    /** The same check catches a stop that does not close the queue (SilentStopIngress). */
    @Test
    @Tag("stress")
    void theCheckCatchesAStopThatDoesNotCloseTheQueue() throws Exception {
        final SilentStopIngress mutant = new SilentStopIngress();
        mutant.thread.start();
        try {
            assertFalse(stopEndsAParkedThread(mutant.thread, mutant::stop), "the mutant's thread should sleep on");
        } finally {
            mutant.release();
        }
    }

    /**
     * Waits until {@code sequencing} is parked (WAITING: a parked thread registered as a waiter
     * first), runs {@code stop}, and says whether the thread ended within 5 s (the stop's own
     * timeout is 20 s: a thread that ends only because the stop gave up does not pass).
     */
    private static boolean stopEndsAParkedThread(final Thread sequencing, final Runnable stop) throws InterruptedException {
        while (sequencing.isAlive() && sequencing.getState() != Thread.State.WAITING) {
            Thread.onSpinWait();
        }
        assertEquals(Thread.State.WAITING, sequencing.getState(), "parked before the stop");
        stop.run();
        sequencing.join(TimeUnit.SECONDS.toMillis(5));
        return !sequencing.isAlive();
    }

    /**
     * A halt ends the thread after the batch it is publishing, even while the ring has room: the
     * items behind that batch are discarded and counted.
     */
    @Test
    void aHaltEndsTheThreadAfterItsCurrentBatch() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 1024, new HybridWaitStrategy());
        final CountDownLatch inFirstBatch = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.<Long, Slot>builder(ring, (slot, seq, v) -> {
            if (v == 0L) {
                inFirstBatch.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            slot.value = v;
        }).maxBatch(8).build();
        for (long i = 0; i < 100; i++) {
            ingress.offer(i);
        }
        ingress.start();
        inFirstBatch.await();
        final List<Long> result = new CopyOnWriteArrayList<>();
        final Thread halter = new Thread(() -> {
            try {
                result.add(ingress.halt());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        halter.start();
        long acceptedLate = 0;
        while (ingress.offer(1_000L)) {
            acceptedLate++; // accepted until the halt closes the queue: these are discarded too
            Thread.onSpinWait();
        }
        release.countDown();
        halter.join();
        assertEquals(8, ingress.transferred(), "the batch being published, and no other");
        assertEquals(List.of(92L + acceptedLate), result);
    }

    /** The exception handler is told when the thread ends, so that a summarising handler can write its last line. */
    @Test
    void theExceptionHandlerIsToldWhenTheThreadEnds() throws Exception {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        final AtomicInteger stopped = new AtomicInteger();
        final UnboundedIngress<Long, Slot> ingress = UnboundedIngress.builder(ring, COPY)
                .exceptionHandler(new ExceptionHandler<Slot>() {
                    @Override
                    public void handleEventException(final Throwable ex, final long sequence, final Slot event) {
                    }

                    @Override
                    public void handleOnStartException(final Throwable ex) {
                    }

                    @Override
                    public void handleOnShutdownException(final Throwable ex) {
                    }

                    @Override
                    public void stageStopped() {
                        stopped.incrementAndGet();
                    }
                }).build();
        ingress.start();
        assertEquals(0, stopped.get());
        assertEquals(0, ingress.stop(Duration.ofSeconds(10)));
        assertEquals(1, stopped.get());
    }

    @Test
    void builderRejectsBadSettings() {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 8, new HybridWaitStrategy());
        assertEquals("ring must not be null",
                assertThrows(NullPointerException.class, () -> UnboundedIngress.builder(null, COPY)).getMessage());
        assertEquals("translator must not be null",
                assertThrows(NullPointerException.class, () -> UnboundedIngress.builder(ring, null)).getMessage());
        final UnboundedIngress.Builder<Long, Slot> b = UnboundedIngress.builder(ring, COPY);
        assertEquals("maxBatch must be >= 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> b.maxBatch(0)).getMessage());
        assertEquals("segmentCapacity must be a power of two between 1 and 536870912, got 3",
                assertThrows(IllegalArgumentException.class, () -> b.segmentCapacity(3)).getMessage());
        assertThrows(NullPointerException.class, () -> b.waitStrategy(null));
        assertThrows(NullPointerException.class, () -> b.onRingFull(null));
        assertThrows(NullPointerException.class, () -> b.exceptionHandler(null));
        assertThrows(NullPointerException.class, () -> b.threadFactory(null));
        final UnboundedIngress<Long, Slot> ingress = b.build();
        assertThrows(NullPointerException.class, () -> ingress.offer(null));
        assertThrows(NullPointerException.class, () -> ingress.stop(null));
    }
}

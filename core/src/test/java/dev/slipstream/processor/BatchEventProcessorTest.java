package dev.slipstream.processor;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.BusySpinWaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.wait.PhasedBackoffWaitStrategy;
import dev.slipstream.wait.SleepingWaitStrategy;
import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import dev.slipstream.wait.YieldingWaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class BatchEventProcessorTest {

    private static List<Long> range(final long from, final long to) {
        return LongStream.range(from, to).boxed().collect(Collectors.toList());
    }

    @Test
    void processesEveryEventInOrderAsOneBatch() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).publish(100, 110).start().awaitSequence(9);
        f.haltAndJoin();

        assertEquals(range(0, 10), handler.sequences);
        assertEquals(range(100, 110), handler.values);
        assertEquals(List.of(9L), handler.endOfBatch, "endOfBatch only on the last available event");
        assertEquals(1, handler.batchStarts.size());
        assertEquals(10, handler.batchStarts.get(0)[0], "batch size");
        assertEquals(10, handler.batchStarts.get(0)[1], "queue depth");
    }

    @Test
    void maxBatchSizeSplitsWhatIsAvailable() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).publish(0, 10);
        f.processor.setMaxBatchSize(4);
        f.start().awaitSequence(9).haltAndJoin();

        assertEquals(range(0, 10), handler.sequences);
        assertEquals(List.of(3L, 7L, 9L), handler.endOfBatch);
        assertEquals(List.of("4/10", "4/6", "2/2"), handler.batchStarts.stream()
                .map(b -> b[0] + "/" + b[1]).collect(Collectors.toList()), "batch size / queue depth");
    }

    @Test
    void theSequenceAdvancesOncePerBatchAfterTheBatch() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).publish(0, 10);
        handler.observed = f.processor.getSequence();
        f.processor.setMaxBatchSize(4);
        f.start().awaitSequence(9).haltAndJoin();

        assertEquals(List.of(-1L, -1L, -1L, -1L, 3L, 3L, 3L, 3L, 7L, 7L), handler.sequenceSeen,
                "during a batch the sequence still shows the end of the previous one");
        assertEquals(9, f.processor.getSequence().get());
    }

    @Test
    void countersTrackEventsAndBatches() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).publish(0, 10);
        f.processor.setMaxBatchSize(4);
        f.start().awaitSequence(9).haltAndJoin();

        assertEquals(10, f.processor.eventsProcessed());
        assertEquals(3, f.processor.batchesProcessed());
        assertEquals(0, f.processor.exceptionsHandled());
        assertEquals(0, f.processor.batchRewinds());
    }

    @Test
    void keepsUpWithAProducerPublishingWhileItRuns() throws Exception {
        final long[] sum = new long[1];
        final Fixture f = new Fixture((event, sequence, endOfBatch) -> sum[0] += event.value,
                new HybridWaitStrategy(), 16).start();
        final int count = 20_000;
        f.publish(0, count).awaitSequence(count - 1).haltAndJoin();

        assertEquals((long) count * (count - 1) / 2, sum[0]);
        assertEquals(count, f.processor.eventsProcessed());
        assertTrue(f.processor.batchesProcessed() >= count / 16, "at most a ring's worth per batch");
    }

    @Test
    void callsOnStartBeforeTheFirstEventAndOnShutdownAfterHalt() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).start();
        handler.started.await();
        f.publish(0, 3).awaitSequence(2);
        assertEquals(1, handler.shutdown.getCount(), "no onShutdown while running");
        f.haltAndJoin();

        assertEquals(1, handler.starts);
        assertEquals(1, handler.shutdowns);
        assertEquals(range(0, 3), handler.sequences);
        assertFalse(f.processor.isRunning());
        assertNull(f.processor.getFailure());
    }

    @Test
    void turnsAWaitTimeoutIntoOnTimeout() throws Exception {
        final CountDownLatch timedOut = new CountDownLatch(2);
        final RecordingHandler handler = new RecordingHandler() {
            @Override
            public void onTimeout(final long sequence) throws Exception {
                super.onTimeout(sequence);
                timedOut.countDown();
            }
        };
        final Fixture f = new Fixture(handler, new TimeoutBlockingWaitStrategy(1, TimeUnit.MILLISECONDS), 16).start();
        timedOut.await();
        f.publish(0, 1).awaitSequence(0);
        f.haltAndJoin();

        assertEquals(-1L, handler.timeouts.get(0), "onTimeout gets the last processed sequence");
        assertEquals(range(0, 1), handler.sequences, "events after a timeout are still processed");
        assertEquals(0, f.processor.exceptionsHandled());
    }

    static Stream<Arguments> waitStrategies() {
        return waitStrategiesAnd(
                Arguments.of("phased", (Supplier<WaitStrategy>) () ->
                        PhasedBackoffWaitStrategy.withLock(Duration.ofNanos(1_000), Duration.ofNanos(1_000))),
                Arguments.of("busy-spin", (Supplier<WaitStrategy>) BusySpinWaitStrategy::new));
    }

    /** The strategies every processor test runs with, then {@code more}. */
    static Stream<Arguments> waitStrategiesAnd(final Arguments... more) {
        return Stream.concat(Stream.of(
                Arguments.of("blocking", (Supplier<WaitStrategy>) BlockingWaitStrategy::new),
                Arguments.of("lite-blocking", (Supplier<WaitStrategy>) LiteBlockingWaitStrategy::new),
                Arguments.of("timeout-blocking", (Supplier<WaitStrategy>) () ->
                        new TimeoutBlockingWaitStrategy(Duration.ofMinutes(5))),
                Arguments.of("hybrid", (Supplier<WaitStrategy>) HybridWaitStrategy::new),
                Arguments.of("sleeping", (Supplier<WaitStrategy>) SleepingWaitStrategy::new),
                Arguments.of("yielding", (Supplier<WaitStrategy>) YieldingWaitStrategy::new)), Stream.of(more));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("waitStrategies")
    void haltStopsAWaitingProcessor(final String name, final Supplier<WaitStrategy> waitStrategy) throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler, waitStrategy.get(), 16).start();
        handler.started.await();
        f.publish(0, 5).awaitSequence(4);

        f.haltAndJoin();

        assertFalse(f.thread().isAlive());
        assertFalse(f.processor.isRunning());
        assertEquals(1, handler.shutdowns);
        assertNull(f.uncaught.get());
    }

    @Test
    void haltBeforeRunMakesRunReturnWithoutCallingTheHandler() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).publish(0, 5);
        f.processor.halt();
        f.start().join();

        assertEquals(0, handler.starts);
        assertEquals(0, handler.shutdowns);
        assertTrue(handler.sequences.isEmpty());
        assertEquals(-1, f.processor.getSequence().get());
    }

    @Test
    void runWhileRunningIsRejected() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).start();
        handler.started.await();
        final IllegalStateException e = assertThrows(IllegalStateException.class, f.processor::run);
        assertEquals("BatchEventProcessor is already running: run() must be called by one thread only",
                e.getMessage());
        f.haltAndJoin();
    }

    @Test
    void runAfterItHasRunIsRejected() throws Exception {
        final Fixture f = new Fixture(new RecordingHandler());
        f.processor.setName("journal");
        f.start().haltAndJoin();
        final IllegalStateException e = assertThrows(IllegalStateException.class, f.processor::run);
        assertTrue(e.getMessage().startsWith("BatchEventProcessor 'journal' has already started once"), e.getMessage());
    }

    @Test
    void settingsCannotChangeOnceStarted() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).start();
        handler.started.await();
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.processor.setMaxBatchSize(8));
        assertEquals("cannot change maxBatchSize of BatchEventProcessor after it has started:"
                + " configure a processor before run()", e.getMessage());
        assertThrows(IllegalStateException.class, () -> f.processor.setName("late"));
        assertThrows(IllegalStateException.class, () -> f.processor.setExceptionHandler(ExceptionHandlers.halt()));
        assertThrows(IllegalStateException.class, () -> f.processor.setRewindStrategy(BatchRewindStrategies.always()));
        f.haltAndJoin();
    }

    @Test
    void anInterruptWhileWaitingStopsTheProcessorAndKeepsTheInterrupt() throws Exception {
        final RecordingHandler handler = new RecordingHandler();
        final Fixture f = new Fixture(handler).start();
        handler.started.await();
        f.thread().interrupt();
        f.join();

        assertEquals(1, handler.shutdowns);
        assertEquals(Boolean.TRUE, f.interruptedAfterRun.get());
    }

    @Test
    void anAlertOfTheBarrierStopsTheProcessor() throws Exception {
        final RingBuffer<LongEvent> ring = RingBuffer.createSingleProducer(LongEvent::new, 16, new BlockingWaitStrategy());
        final SequenceBarrier barrier = ring.newBarrier();
        final RecordingHandler handler = new RecordingHandler();
        final BatchEventProcessor<LongEvent> processor = new BatchEventProcessor<>(ring, barrier, handler);
        final Thread thread = new Thread(processor);
        thread.start();
        handler.started.await();
        barrier.alert();
        thread.join();
        assertEquals(1, handler.shutdowns);
    }

    @Test
    void nullArgumentsAreRejectedWithTheirName() {
        final RingBuffer<LongEvent> ring = RingBuffer.createSingleProducer(LongEvent::new, 16, new BlockingWaitStrategy());
        final SequenceBarrier barrier = ring.newBarrier();
        final EventHandler<LongEvent> handler = (e, s, end) -> { };

        assertEquals("dataProvider must not be null: pass the ring buffer the processor reads from",
                assertThrows(NullPointerException.class,
                        () -> new BatchEventProcessor<>(null, barrier, handler)).getMessage());
        assertEquals("barrier must not be null: pass ringBuffer.newBarrier(upstream sequences...)",
                assertThrows(NullPointerException.class,
                        () -> new BatchEventProcessor<>(ring, null, handler)).getMessage());
        assertEquals("handler must not be null: pass the stage's EventHandler",
                assertThrows(NullPointerException.class,
                        () -> new BatchEventProcessor<>(ring, barrier, null)).getMessage());

        final BatchEventProcessor<LongEvent> processor = new BatchEventProcessor<>(ring, barrier, handler);
        assertEquals("name must not be null",
                assertThrows(NullPointerException.class, () -> processor.setName(null)).getMessage());
        assertEquals("exceptionHandler must not be null: use ExceptionHandlers.logAndContinue() for the default",
                assertThrows(NullPointerException.class, () -> processor.setExceptionHandler(null)).getMessage());
        assertEquals("rewindStrategy must not be null: use BatchRewindStrategies.atMost(0) to never retry",
                assertThrows(NullPointerException.class, () -> processor.setRewindStrategy(null)).getMessage());
    }

    @Test
    void aMaxBatchSizeBelowOneIsRejected() {
        final RingBuffer<LongEvent> ring = RingBuffer.createSingleProducer(LongEvent::new, 16, new BlockingWaitStrategy());
        final BatchEventProcessor<LongEvent> processor =
                new BatchEventProcessor<>(ring, ring.newBarrier(), (e, s, end) -> { });
        assertEquals("maxBatchSize must be >= 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> processor.setMaxBatchSize(0)).getMessage());
        assertEquals("maxBatchSize must be >= 1, got -4",
                assertThrows(IllegalArgumentException.class, () -> processor.setMaxBatchSize(-4)).getMessage());
    }

    @Test
    void describesItself() {
        final RingBuffer<LongEvent> ring = RingBuffer.createSingleProducer(LongEvent::new, 16, new BlockingWaitStrategy());
        final BatchEventProcessor<LongEvent> processor =
                new BatchEventProcessor<>(ring, ring.newBarrier(), (e, s, end) -> { }).setName("journal");
        assertEquals("journal", processor.getName());
        assertEquals("BatchEventProcessor 'journal'[sequence=-1, running=false]", processor.toString());
    }
}

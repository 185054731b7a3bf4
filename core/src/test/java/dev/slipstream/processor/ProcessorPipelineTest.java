package dev.slipstream.processor;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.PhasedBackoffWaitStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Processors and wait strategies together on the real ring buffer: a two-stage pipeline, where
 * the second stage waits on the first (which never signals), and a three-producer fan-in.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ProcessorPipelineTest {
    private static final int EVENTS = 50_000;

    static Stream<Arguments> waitStrategies() {
        return BatchEventProcessorTest.waitStrategiesAnd(
                Arguments.of("hybrid-park-at-once", (Supplier<WaitStrategy>) () -> new HybridWaitStrategy(0, 0, 1_000)),
                Arguments.of("phased-lite", (Supplier<WaitStrategy>) () ->
                        PhasedBackoffWaitStrategy.withLiteLock(Duration.ofNanos(2_000), Duration.ofNanos(2_000))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("waitStrategies")
    void aTwoStagePipelineSeesEveryEventAndTheFirstStagesWrites(final String name,
                                                               final Supplier<WaitStrategy> waitStrategy)
            throws Exception {
        final RingBuffer<LongEvent> ring = RingBuffer.createSingleProducer(LongEvent::new, 64, waitStrategy.get());
        final BatchEventProcessor<LongEvent> first = new BatchEventProcessor<>(ring, ring.newBarrier(),
                (event, sequence, endOfBatch) -> event.derived = event.value * 3 + 1).setName("first");
        final long[] sum = new long[1];
        final long[] mismatches = new long[1];
        final BatchEventProcessor<LongEvent> second = new BatchEventProcessor<>(ring,
                ring.newBarrier(first.getSequence()), (event, sequence, endOfBatch) -> {
                    if (event.derived != event.value * 3 + 1) {
                        mismatches[0]++;
                    }
                    sum[0] += event.value;
                }).setName("second");
        ring.addGatingSequences(second.getSequence());
        final Thread t1 = new Thread(first, "first");
        final Thread t2 = new Thread(second, "second");
        t1.start();
        t2.start();

        for (long v = 0; v < EVENTS; v++) {
            ring.publishEvent((event, sequence, value) -> event.value = value, v);
        }
        while (second.getSequence().get() < EVENTS - 1) {
            Thread.yield();
        }
        first.halt();
        second.halt();
        t1.join();
        t2.join();

        assertEquals(0, mismatches[0], "the second stage saw the first stage's write for every event");
        assertEquals((long) EVENTS * (EVENTS - 1) / 2, sum[0]);
        assertEquals(EVENTS, first.eventsProcessed());
        assertEquals(EVENTS, second.eventsProcessed());
    }

    @Test
    void threeProducersIntoOneConsumerLoseNothingAndKeepEachProducersOrder() throws Exception {
        final int producers = 3;
        final int perProducer = 20_000;
        final RingBuffer<LongEvent> ring = RingBuffer.createMultiProducer(LongEvent::new, 256, new HybridWaitStrategy());
        final long[] lastSeen = {-1, -1, -1};
        final long[] count = new long[1];
        final long[] outOfOrder = new long[1];
        final BatchEventProcessor<LongEvent> consumer = new BatchEventProcessor<>(ring, ring.newBarrier(),
                (event, sequence, endOfBatch) -> {
                    if (event.value != lastSeen[event.producer] + 1) {
                        outOfOrder[0]++;
                    }
                    lastSeen[event.producer] = event.value;
                    count[0]++;
                });
        ring.addGatingSequences(consumer.getSequence());
        final Thread consumerThread = new Thread(consumer, "consumer");
        consumerThread.start();
        final Thread[] threads = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            final int id = p;
            threads[p] = new Thread(() -> {
                for (long v = 0; v < perProducer; v++) {
                    ring.publishEvent((event, sequence, value, producer) -> {
                        event.value = value;
                        event.producer = producer;
                    }, v, id);
                }
            }, "producer-" + p);
            threads[p].start();
        }
        for (final Thread t : threads) {
            t.join();
        }
        final long last = (long) producers * perProducer - 1;
        while (consumer.getSequence().get() < last) {
            Thread.yield();
        }
        consumer.halt();
        consumerThread.join();

        assertEquals((long) producers * perProducer, count[0]);
        assertEquals(0, outOfOrder[0]);
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer - 1, lastSeen[p]);
        }
    }
}

package dev.slipstream.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.LiteBlockingWaitStrategy;
import dev.slipstream.sequence.WaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import java.util.stream.Stream;

/**
 * A consumer behind a claimed but unpublished slot waits the way its strategy waits: with a
 * blocking strategy its thread blocks instead of spinning or yielding.
 */
@Timeout(30)
class WaitBehindUnpublishedClaimTest {
    static Stream<Supplier<WaitStrategy>> blockingStrategies() {
        return Stream.of(BlockingWaitStrategy::new, LiteBlockingWaitStrategy::new);
    }

    @ParameterizedTest
    @MethodSource("blockingStrategies")
    void aBlockingConsumerBlocksBehindAClaimThatIsNotPublishedYet(final Supplier<WaitStrategy> strategy)
            throws Exception {
        final RingBuffer<LongEvent> ring = RingBuffer.createMultiProducer(LongEvent::new, 16, strategy.get());
        final AtomicLong handled = new AtomicLong();
        final BatchEventProcessor<LongEvent> processor = new BatchEventProcessor<>(ring, ring.newBarrier(),
                (event, sequence, endOfBatch) -> handled.incrementAndGet());
        ring.addGatingSequences(processor.getSequence());
        final Thread consumer = new Thread(processor, "consumer");
        consumer.start();

        final long slow = ring.next();                      // claimed, not yet published
        ring.publishEvent((event, sequence) -> event.value = 1);   // a later claim, published
        // the cursor is past `slow`; the consumer must block, not spin, until `slow` is published
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        Thread.State state;
        while ((state = consumer.getState()) != Thread.State.WAITING && state != Thread.State.TIMED_WAITING) {
            assertTrue(System.nanoTime() < deadline, "the consumer never blocked: it spins behind the claim");
            Thread.sleep(1);
        }
        assertEquals(0, handled.get(), "nothing is handled past an unpublished slot");

        ring.publish(slow);
        while (handled.get() < 2) {
            assertTrue(System.nanoTime() < deadline, "publishing the slot must wake the consumer");
            Thread.sleep(1);
        }
        processor.halt();
        consumer.join(10_000);
    }
}

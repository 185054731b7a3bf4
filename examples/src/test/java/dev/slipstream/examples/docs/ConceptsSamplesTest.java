package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.wait.HybridWaitStrategy;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/concepts.md, as written there. */
class ConceptsSamplesTest {
    @Test
    void claimWritePublish() throws Exception {
        RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());

        long sequence = ring.next();          // 1. claim a slot (waits if the ring is full)
        Trade trade = ring.get(sequence);     // 2. write into the preallocated event
        trade.price = 101;
        trade.quantity = 5;
        ring.publish(sequence);               // 3. make it visible to consumers
        assertEquals(0, ring.getCursor());
        assertEquals(101, ring.get(0).price);
    }

    @Test
    void translatorWithTwoArguments() throws Exception {
        final RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
        ring.publishEvent((trade, seq, price, qty) -> { trade.price = price; trade.quantity = qty; }, 101L, 5L);
        assertEquals(101, ring.get(0).price);
        assertEquals(5, ring.get(0).quantity);
    }

    @Test
    void barriers() throws Exception {
        final RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
        final BatchEventProcessor<Trade> firstStage =
                new BatchEventProcessor<>(ring, ring.newBarrier(), (trade, sequence, endOfBatch) -> { });
        SequenceBarrier first  = ring.newBarrier();                          // behind the producers
        SequenceBarrier second = ring.newBarrier(firstStage.getSequence());  // behind the producers and firstStage
        assertEquals(-1, first.getCursor());
        assertEquals(-1, second.getCursor());
    }
}

package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The code samples of README.md, as written there. */
class ReadmeSamplesTest {
    @Test
    void tenLinesPrintsThePublishedPrice() throws Exception {
        final PrintStream out = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
            BatchEventProcessor<Trade> journal = new BatchEventProcessor<>(ring, ring.newBarrier(),
                    (trade, sequence, endOfBatch) -> System.out.println(trade.price));
            ring.addGatingSequences(journal.getSequence());   // the producer never laps the journal
            Thread thread = new Thread(journal, "journal");
            thread.start();

            // 101L is boxed: Long.valueOf caches -128..127, so this call allocates nothing, a larger price would
            ring.publishEvent((trade, sequence, price) -> trade.price = price, 101L);

            while (journal.getSequence().get() < ring.getCursor()) {   // wait until the journal has handled it
                Thread.onSpinWait();
            }
            journal.halt();                                   // stops after the batch in hand; no drain
            thread.join();
        } finally {
            System.setOut(out);
        }
        assertEquals("101", captured.toString(StandardCharsets.UTF_8).strip());
    }

    @Test
    void dslPipelineDrainsOnClose() throws Exception {
        final AtomicLong journalled = new AtomicLong();
        final AtomicLong replicated = new AtomicLong();
        final AtomicLong matched = new AtomicLong();
        final EventHandler<Trade> journal = (trade, sequence, endOfBatch) -> journalled.incrementAndGet();
        final EventHandler<Trade> replicate = (trade, sequence, endOfBatch) -> replicated.incrementAndGet();
        final EventHandler<Trade> matchingEngine = (trade, sequence, endOfBatch) -> matched.addAndGet(trade.price);
        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).ringSize(1024).build()) {
            pipeline.handleEventsWith(journal, replicate).then(matchingEngine);
            pipeline.start();
            pipeline.publishEvent((trade, sequence, price) -> trade.price = price, 101L);
        }   // close(): drains every published event through every stage, then joins the threads
        assertEquals(1, journalled.get());
        assertEquals(1, replicated.get());
        assertEquals(101, matched.get());
    }
}

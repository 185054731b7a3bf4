package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.ring.EventPoller;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/getting-started.md, as written there (Trade and FirstPipeline are files of their own). */
class GettingStartedSamplesTest {
    private final Support.Book book = new Support.Book();
    private volatile boolean running = true;
    private long logged;

    private void log(final Trade trade) {
        logged += trade.price;
    }

    private RingBuffer<Trade> ring;
    private boolean published;

    /** The polling sample's other work: publish ten trades once, stop when the book has them. */
    private void doOtherWork() {
        if (book.applied == 10) {
            running = false;
        } else if (!published) {
            published = true;
            for (long i = 0; i < 10; i++) {
                ring.publishEvent((trade, sequence, price) -> trade.price = price, i);
            }
        }
    }

    @Test
    void firstPipelineRunsAndDrains() throws Exception {
        final PrintStream out = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            FirstPipeline.main(new String[0]);
        } finally {
            System.setOut(out);
        }
        final String text = captured.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("journal 109"), text);
        assertTrue(text.contains("settle 9"), text);
    }

    @Test
    void handWiredRing() throws Exception {
        RingBuffer<Trade> ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
        BatchEventProcessor<Trade> journal =
                new BatchEventProcessor<>(ring, ring.newBarrier(), (trade, sequence, endOfBatch) -> log(trade));
        ring.addGatingSequences(journal.getSequence());   // the producer never laps the journal
        Thread thread = new Thread(journal, "journal");   // not a daemon: halted and joined below
        thread.start();

        long sequence = ring.next();                       // claim
        Trade trade = ring.get(sequence);                  // write into the preallocated slot
        trade.price = 101;
        ring.publish(sequence);                            // publish: no allocation at all

        while (journal.getSequence().get() < sequence) {   // wait until the journal has handled it
            Thread.onSpinWait();
        }
        journal.halt();                                    // stops after the batch in hand; no drain
        thread.join();
        assertEquals(101, logged);
    }

    @Test
    void pollingConsumerSeesPublishedEvents() throws Exception {
        ring = RingBuffer.createSingleProducer(Trade::new, 1024, new HybridWaitStrategy());
        EventPoller<Trade> poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        EventPoller.Handler<Trade> handler = (trade, sequence, endOfBatch) -> {
            book.apply(trade);
            return true;                   // false: stop this poll here, the rest stays for the next one
        };
        while (running) {
            if (poller.poll(handler) != EventPoller.PollState.PROCESSING) {
                doOtherWork();             // nothing was available (IDLE) or it is held back upstream (GATING)
            }
        }
        assertEquals(10, book.applied);
    }
}

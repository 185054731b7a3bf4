package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A producer that finds the ring full waits without claiming: the cursor does not move until
 * space is confirmed, so a close at that moment leaves no claimed slot behind and an unpublished
 * claim is never more than a ring behind the cursor.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiProducerWaitWithoutClaimTest {

    @Test
    void producersWaitingForSpaceDoNotMoveTheCursor() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingTestWait());
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);

        final long slow = sequencer.next();                  // 0: claimed, not yet published
        sequencer.publish(1, sequencer.next(3));             // 1..3
        final CompletableFuture<Long> waiting = claimOnNewThread(sequencer);
        final CompletableFuture<Long> waitingToo = claimOnNewThread(sequencer);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sequencer.getProducerWaitCount() < 2 && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertEquals(2, sequencer.getProducerWaitCount(), "both producers found the ring full");
        assertEquals(3, sequencer.getCursor(), "waiting producers hold no claim");

        sequencer.publish(slow);
        assertEquals(3, sequencer.getHighestPublishedSequence(0, 3));

        consumer.set(3);                                     // the consumer reads 0..3 and frees the ring
        final long a = waiting.get(30, TimeUnit.SECONDS);
        final long b = waitingToo.get(30, TimeUnit.SECONDS);
        assertEquals(9, a + b, "the waiting producers got 4 and 5");
    }

    /** A producer of its own: the claim blocks, so it must not borrow a shared pool's thread. */
    private static CompletableFuture<Long> claimOnNewThread(final Sequencer sequencer) {
        final CompletableFuture<Long> claim = new CompletableFuture<>();
        final Thread producer = new Thread(() -> claim.complete(sequencer.next()));
        producer.setDaemon(true);
        producer.start();
        return claim;
    }
}

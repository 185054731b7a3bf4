package dev.slipstream.sequence;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A producer's claim moves the cursor before the producer waits for space, so the cursor can be
 * more than a ring ahead of another producer's claim that is not published yet; publishing that
 * claim must still succeed, or every producer and consumer waits for it forever.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiProducerClaimAheadTest {

    @Test
    void aClaimMoreThanARingBehindTheCursorCanStillBePublished() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingTestWait());
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);

        final long slow = sequencer.next();                  // 0: claimed, not yet published
        sequencer.publish(1, sequencer.next(3));             // 1..3
        final CompletableFuture<Long> waiting = claimOnNewThread(sequencer);      // 4: waits for 0
        final CompletableFuture<Long> waitingToo = claimOnNewThread(sequencer);   // 5
        while (sequencer.getCursor() < 5) {
            Thread.yield();                                  // both claims are on the cursor
        }
        assertTrue(slow <= sequencer.getCursor() - 4, "the unpublished claim is more than a ring behind");

        sequencer.publish(slow);                             // must not be rejected as stale
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

package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A single claim on a full ring takes its sequence at once (fetch-and-add) and waits for space
 * holding it; a close lowers its fence below every claim still waiting, so those claims are
 * refused and every sequence up to the fence is published.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiProducerWaitingClaimTest {

    @Test
    void producersWaitingForSpaceHoldTheirSequencesAndGetThemWhenSpaceIsFreed() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingWaitStrategy(0));
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(4));             // 0..3: the ring is full

        final CompletableFuture<Long> waiting = claimOnNewThread(sequencer);
        final CompletableFuture<Long> waitingToo = claimOnNewThread(sequencer);
        awaitWaits(sequencer, 2);
        assertEquals(5, sequencer.getCursor(), "each waiting producer holds one sequence");
        assertEquals(0, sequencer.remainingCapacity(), "never negative while claims wait");
        assertFalse(sequencer.hasAvailableCapacity(1));

        consumer.set(3);                                     // the consumer read 0..3
        final long a = waiting.get(30, TimeUnit.SECONDS);
        final long b = waitingToo.get(30, TimeUnit.SECONDS);
        assertEquals(9, a + b, "the waiting producers got 4 and 5");
        sequencer.publish(a);
        sequencer.publish(b);
        assertEquals(5, sequencer.getHighestPublishedSequence(4, 5));
    }

    @Test
    void aCloseFencesBelowTheClaimsStillWaitingAndRefusesThem() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingWaitStrategy(0));
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        final long slow = sequencer.next();                  // 0: claimed, published after the close
        sequencer.publish(1, sequencer.next(3));             // 1..3
        final CompletableFuture<Long> waiting = claimOnNewThread(sequencer);
        final CompletableFuture<Long> waitingToo = claimOnNewThread(sequencer);
        awaitWaits(sequencer, 2);
        assertEquals(5, sequencer.getCursor());

        sequencer.close("test");
        assertEquals(3, sequencer.getCloseFence(), "lowered to the last slot whose space was free");
        for (final CompletableFuture<Long> refused : new CompletableFuture[] {waiting, waitingToo}) {
            final ExecutionException thrown = assertThrows(ExecutionException.class,
                    () -> refused.get(30, TimeUnit.SECONDS));
            assertInstanceOf(SequencerClosedException.class, thrown.getCause());
            assertTrue(thrown.getCause().getMessage().contains("last accepted sequence is 3"),
                    thrown.getCause().getMessage());
        }
        sequencer.publish(slow);                             // claimed before the close, below the fence
        assertEquals(3, sequencer.getHighestPublishedSequence(0, sequencer.getCloseFence()),
                "no hole below the fence");
    }

    @Test
    void aClaimWaitingAtTheCloseWhoseSpaceWasAlreadyFreedIsAccepted() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingWaitStrategy(0));
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(4));
        final CompletableFuture<Long> waiting = claimOnNewThread(sequencer);
        awaitWaits(sequencer, 1);

        // the consumer frees slot 0 and the ring closes at once: whether the waiting producer looks
        // before or after the close, its claim 4 is at the fence and must be accepted
        consumer.set(0);
        sequencer.close("test");
        assertEquals(4, sequencer.getCloseFence());
        final long four = waiting.get(30, TimeUnit.SECONDS);
        assertEquals(4, four);
        sequencer.publish(four);
        assertEquals(4, sequencer.getHighestPublishedSequence(1, sequencer.getCloseFence()));
    }

    private static void awaitWaits(final Sequencer sequencer, final long waits) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (sequencer.getProducerWaitCount() < waits && System.nanoTime() < deadline) {
            Thread.yield();
        }
        assertEquals(waits, sequencer.getProducerWaitCount(), "producers found the ring full");
    }

    /** A producer of its own: the claim blocks, so it must not borrow a shared pool's thread. */
    private static CompletableFuture<Long> claimOnNewThread(final Sequencer sequencer) {
        final CompletableFuture<Long> claim = new CompletableFuture<>();
        final Thread producer = new Thread(() -> {
            try {
                claim.complete(sequencer.next());
            } catch (RuntimeException e) {
                claim.completeExceptionally(e);
            }
        });
        producer.setDaemon(true);
        producer.start();
        return claim;
    }
}

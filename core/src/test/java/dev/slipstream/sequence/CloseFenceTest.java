package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.sequence.SequencerTest.Kind;
import dev.slipstream.sequence.SequencerTest.WaitingClaim;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The close protocol: the fence, claims made before it, claims that raced it, waiting producers. */
@Timeout(30)
class CloseFenceTest {

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anOpenSequencerHasNoFence(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        assertEquals(Sequencer.OPEN, sequencer.getCloseFence());
        sequencer.publish(sequencer.next());
        assertEquals(Sequencer.OPEN, sequencer.getCloseFence());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theFenceIsTheHighestClaimAndAClaimBelowItPublishesAfterTheClose(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        sequencer.publish(sequencer.next());
        final long inFlight = sequencer.next(2);   // claimed, being written
        sequencer.close("shutdown");
        assertEquals(inFlight, sequencer.getCloseFence(), "a claim made before the close is accepted");
        sequencer.publish(inFlight - 1, inFlight);   // must not throw: it was accepted
        assertTrue(sequencer.isAvailable(inFlight));
        assertThrows(SequencerClosedException.class, sequencer::next);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theFirstCloseFixesTheFence(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        sequencer.publish(sequencer.next());
        sequencer.close("first");
        sequencer.close("second");
        assertEquals(0, sequencer.getCloseFence());
        final SequencerClosedException closed = assertThrows(SequencerClosedException.class, sequencer::next);
        assertTrue(closed.getMessage().contains("first"), closed.getMessage());
    }

    @Test
    void aMultiProducerClaimWaitingForSpaceWhenTheRingClosesLeavesNoHole() throws Exception {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(4, new YieldingWaitStrategy(0));
        SequencerTest.fill(sequencer);

        final WaitingClaim claim = WaitingClaim.start(sequencer);
        awaitProducerWaits(sequencer, 1);
        sequencer.close("shutdown while full");
        assertTrue(claim.done().await(10, TimeUnit.SECONDS));
        assertTrue(claim.thrown().get() instanceof SequencerClosedException, String.valueOf(claim.thrown().get()));
        assertEquals(4, sequencer.getCursor(), "the waiting producer held its claim of 4");
        assertEquals(3, sequencer.getCloseFence(), "the fence stops below the claim that had no space");
        assertTrue(claim.thrown().get().getMessage().contains("waiting for space"), claim.thrown().get().getMessage());
        assertEquals(3, sequencer.getHighestPublishedSequence(0, sequencer.getCloseFence()),
                "everything up to the fence is published: no hole");
    }

    @Test
    void aMultiProducerClaimThatRacedTheCloseIsRefusedAtPublishAndNeverSeen() {
        final MultiProducerSequencer sequencer = new MultiProducerSequencer(8, new YieldingWaitStrategy(0));
        sequencer.publish(sequencer.next());
        // a producer checked "open", the ring closes and computes its fence, then the claim lands
        sequencer.close("shutdown");
        final long raced = sequencer.cursor.addAndGet(1);     // the CAS that lost the race with close()
        final SequencerClosedException refused =
                assertThrows(SequencerClosedException.class, () -> sequencer.publish(raced));
        assertTrue(refused.getMessage().contains("not accepted"), refused.getMessage());
        assertTrue(refused.getMessage().contains("last accepted sequence is 0"), refused.getMessage());
        assertFalse(sequencer.isAvailable(raced), "a refused event is never seen by a consumer");
        assertEquals(0, sequencer.getHighestPublishedSequence(0, sequencer.getCloseFence()),
                "everything up to the fence stays published: the refusal leaves no hole below it");
    }

    @Test
    void aSingleProducerClaimAfterTheCloseIsRefusedWithNothingClaimed() {
        final SingleProducerSequencer sequencer = new SingleProducerSequencer(8, new YieldingWaitStrategy(0));
        sequencer.publish(sequencer.next());
        sequencer.close("shutdown");
        final SequencerClosedException refused = assertThrows(SequencerClosedException.class, sequencer::next);
        assertTrue(refused.getMessage().contains("closed (shutdown)"), refused.getMessage());
        assertEquals(0, sequencer.getCloseFence());
        assertEquals(0, sequencer.nextValue, "a refused claim leaves nothing claimed");
        assertEquals(0, sequencer.getCursor(), "a refused event is never seen by a consumer");
    }

    @Test
    void aSingleProducerClaimTheCloseCountedIsPublishedAfterTheClose() {
        final SingleProducerSequencer sequencer = new SingleProducerSequencer(8, new YieldingWaitStrategy(0));
        sequencer.publish(sequencer.next());
        // the claim's store reached the closing thread before it computed the fence
        sequencer.nextValue = 1;
        sequencer.close("shutdown");
        assertEquals(1, sequencer.getCloseFence(), "the fence counts the claim it saw");
        sequencer.publish(1);
        assertEquals(1, sequencer.getCursor(), "an accepted claim is published after the close");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void producerWaitsAreCountedOncePerClaimThatFoundTheRingFull(final Kind kind) throws Exception {
        final Sequencer sequencer = kind.create(2);
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(2));
        assertEquals(0, sequencer.getProducerWaitCount(), "claims that found space are not counted");
        final Thread producer = new Thread(() -> sequencer.publish(sequencer.next()));
        producer.start();
        awaitProducerWaits(sequencer, 1);
        consumer.set(0);
        producer.join(10_000);
        assertFalse(producer.isAlive());
        assertEquals(1, sequencer.getProducerWaitCount(), "one claim waited, however many times it looked");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rejectsRingsLargerThanTheDocumentedMaximum(final Kind kind) {
        final IllegalArgumentException tooBig =
                assertThrows(IllegalArgumentException.class, () -> kind.create(1 << 30));
        assertTrue(tooBig.getMessage().contains("at most " + Sequencer.MAX_BUFFER_SIZE), tooBig.getMessage());
    }

    private static void awaitProducerWaits(final Sequencer sequencer, final long count) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sequencer.getProducerWaitCount() < count) {
            assertTrue(System.nanoTime() < deadline, "the producer never found the ring full");
            Thread.sleep(1);
        }
    }
}

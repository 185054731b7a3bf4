package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Behaviour both sequencers share, run against each. */
class SequencerTest {
    enum Kind {
        SINGLE, MULTI;

        Sequencer create(final int size) {
            return this == SINGLE
                    ? new SingleProducerSequencer(size, new YieldingWaitStrategy(0))
                    : new MultiProducerSequencer(size, new YieldingWaitStrategy(0));
        }
    }

    /** Gates {@code sequencer} on a new consumer that has read nothing, and fills the ring. */
    static Sequence fill(final Sequencer sequencer) {
        final Sequence consumer = new Sequence();
        sequencer.addGatingSequences(consumer);
        sequencer.publish(0, sequencer.next(sequencer.getBufferSize()));
        return consumer;
    }

    /** A producer thread making one claim with {@code next()}, and what that claim threw. */
    record WaitingClaim(CountDownLatch done, AtomicReference<Throwable> thrown) {
        static WaitingClaim start(final Sequencer sequencer) {
            final WaitingClaim claim = new WaitingClaim(new CountDownLatch(1), new AtomicReference<>());
            new Thread(() -> {
                try {
                    sequencer.next();
                } catch (Throwable t) {
                    claim.thrown.set(t);
                }
                claim.done.countDown();
            }).start();
            return claim;
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rejectsSizesThatAreNotPowersOfTwo(final Kind kind) {
        final IllegalArgumentException notPowerOfTwo =
                assertThrows(IllegalArgumentException.class, () -> kind.create(1000));
        assertTrue(notPowerOfTwo.getMessage().contains("power of two, got 1000"), notPowerOfTwo.getMessage());
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> kind.create(0));
        assertTrue(zero.getMessage().contains("at least 1, got 0"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> kind.create(-8));
    }

    @org.junit.jupiter.api.Test
    void rejectsNullStrategies() {
        final WaitStrategy wait = new YieldingWaitStrategy(0);
        final NullPointerException noWait =
                assertThrows(NullPointerException.class, () -> new SingleProducerSequencer(8, null));
        assertTrue(noWait.getMessage().contains("waitStrategy"));
        assertThrows(NullPointerException.class, () -> new MultiProducerSequencer(8, null));
        final NullPointerException noProducerWait =
                assertThrows(NullPointerException.class, () -> new SingleProducerSequencer(8, wait, null));
        assertTrue(noProducerWait.getMessage().contains("producerWaitStrategy"));
        assertThrows(NullPointerException.class, () -> new MultiProducerSequencer(8, wait, null));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void claimsAndPublishesInOrder(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        assertEquals(-1, sequencer.getHighestPublishedSequence(0, -1));
        assertEquals(0, sequencer.next());
        assertFalse(sequencer.isAvailable(0));
        sequencer.publish(0);
        assertTrue(sequencer.isAvailable(0));
        final long hi = sequencer.next(3);
        assertEquals(3, hi);
        sequencer.publish(1, 3);
        assertTrue(sequencer.isAvailable(3));
        assertEquals(3, sequencer.getCursor());
        assertEquals(3, sequencer.getHighestPublishedSequence(1, 3));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rejectsClaimsOutsideOneToBufferSize(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> sequencer.next(0));
        assertTrue(zero.getMessage().contains("between 1 and the buffer size 8, got 0"), zero.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sequencer.next(9));
        assertThrows(IllegalArgumentException.class, () -> sequencer.tryNext(9));
        assertThrows(IllegalArgumentException.class, () -> sequencer.tryNext(-1));
        assertEquals(-1, sequencer.getCursor(), "a rejected claim claims nothing");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void rejectsPublishingWhatWasNeverClaimed(final Kind kind) {
        final Sequencer sequencer = kind.create(8);
        final IllegalArgumentException never = assertThrows(IllegalArgumentException.class, () -> sequencer.publish(0));
        assertTrue(never.getMessage().contains("never claimed"), never.getMessage());
        sequencer.next();
        assertThrows(IllegalArgumentException.class, () -> sequencer.publish(0, 1));
        final IllegalArgumentException empty =
                assertThrows(IllegalArgumentException.class, () -> sequencer.publish(1, 0));
        assertTrue(empty.getMessage().contains("empty"));
        sequencer.publish(0);
        assertTrue(sequencer.isAvailable(0), "the valid publication still goes through");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void tryNextFailsWhenTheSlowestConsumerIsARingBehind(final Kind kind) throws Exception {
        final Sequencer sequencer = kind.create(4);
        final Sequence consumer = fill(sequencer);
        assertEquals(0, sequencer.remainingCapacity());
        assertFalse(sequencer.hasAvailableCapacity(1));
        assertThrows(InsufficientCapacityException.class, sequencer::tryNext);
        consumer.set(1);
        assertEquals(2, sequencer.remainingCapacity());
        assertTrue(sequencer.hasAvailableCapacity(2));
        assertThrows(InsufficientCapacityException.class, () -> sequencer.tryNext(3));
        assertEquals(5, sequencer.tryNext(2));
        assertEquals(0, sequencer.remainingCapacity());
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void gatingSequencesStartAtTheCursorAndCanBeRemoved(final Kind kind) {
        final Sequencer sequencer = kind.create(4);
        sequencer.publish(0, sequencer.next(3));
        final Sequence late = new Sequence();
        sequencer.addGatingSequences(late);
        assertEquals(2, late.get(), "a stage added later starts at the cursor");
        assertEquals(2, sequencer.getMinimumSequence());
        assertTrue(sequencer.removeGatingSequence(late));
        assertFalse(sequencer.removeGatingSequence(late));
        assertThrows(NullPointerException.class, () -> sequencer.addGatingSequences((Sequence) null));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void producerWaitsForTheConsumerWhenFull(final Kind kind) throws Exception {
        final Sequencer sequencer = kind.create(2);
        final Sequence consumer = fill(sequencer);

        final CountDownLatch claimed = new CountDownLatch(1);
        final AtomicReference<Long> result = new AtomicReference<>();
        final Thread producer = new Thread(() -> {
            result.set(sequencer.next());
            claimed.countDown();
        });
        producer.start();
        assertFalse(claimed.await(50, TimeUnit.MILLISECONDS), "the ring is full: the producer must wait");
        consumer.set(0);
        assertTrue(claimed.await(10, TimeUnit.SECONDS));
        assertEquals(2L, result.get());
        producer.join();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void closeReleasesAProducerWaitingForSpaceAndRejectsLaterClaims(final Kind kind) throws Exception {
        final Sequencer sequencer = kind.create(2);
        fill(sequencer);

        final WaitingClaim claim = WaitingClaim.start(sequencer);
        assertFalse(claim.done().await(50, TimeUnit.MILLISECONDS));
        sequencer.close("test shutdown");
        assertTrue(claim.done().await(10, TimeUnit.SECONDS), "close must release a blocked producer");
        assertTrue(claim.thrown().get() instanceof SequencerClosedException, String.valueOf(claim.thrown().get()));
        assertTrue(claim.thrown().get().getMessage().contains("test shutdown"));
        assertTrue(sequencer.isClosed());
        assertThrows(SequencerClosedException.class, sequencer::next);
        assertThrows(SequencerClosedException.class, sequencer::tryNext);
        assertTrue(sequencer.isAvailable(1), "what was published before the close stays readable");
        assertThrows(NullPointerException.class, () -> sequencer.close(null));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBarrierWithItsOwnStrategyWaitsWithIt(final Kind kind) throws Exception {
        final Sequencer sequencer = kind.create(8);
        final java.util.concurrent.atomic.AtomicInteger waits = new java.util.concurrent.atomic.AtomicInteger();
        final WaitStrategy counting = new WaitStrategy() {
            @Override
            public long waitFor(final long sequence, final Sequence cursor, final Sequence dependent,
                                final SequenceBarrier barrier) {
                waits.incrementAndGet();
                return dependent.get();
            }

            @Override
            public void signalAllWhenBlocking() {
            }
        };
        sequencer.publish(sequencer.next());
        final SequenceBarrier barrier = sequencer.newBarrier(counting);
        assertEquals(0, barrier.waitFor(0));
        assertEquals(1, waits.get(), "the barrier's own strategy did the waiting");
        assertThrows(NullPointerException.class, () -> sequencer.newBarrier((WaitStrategy) null));
    }
}

package dev.slipstream.stress.ring;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.Sequence;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * On a multi-producer ring the cursor counts claims, and a producer that finds the ring full
 * has already claimed (it waits after its fetch-and-add). Another producer that claimed earlier
 * must still be able to publish its slot while the cursor is a whole ring or more ahead of it:
 * if it could not, its slot would never be published and every consumer and producer would
 * wait forever.
 */
class MultiProducerClaimAheadTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void earlierClaimCanBePublishedWhileALaterClaimWaitsForSpace() throws Exception {
        final CountDownLatch waitingForSpace = new CountDownLatch(1);
        final RingBuffer<StressEvent> ring = RingBuffer.create(ProducerType.MULTI, StressEvent::new, 4,
                NoWaitStrategy.INSTANCE, attempt -> {
                    waitingForSpace.countDown();
                    Thread.yield();
                });
        final Sequence consumer = new Sequence();
        ring.addGatingSequences(consumer);

        final long mine = ring.next();                        // sequence 0, not yet published
        final AtomicLong otherHi = new AtomicLong(-1);
        final AtomicReference<Throwable> otherFailure = new AtomicReference<>();
        final Thread other = new Thread(() -> {
            try {
                final long hi = ring.next(4);                 // claims 1..4; 4 needs slot 0: waits
                for (long s = hi - 3; s <= hi; s++) {
                    ring.get(s).write(s, 2);
                }
                ring.publish(hi - 3, hi);
                otherHi.set(hi);
            } catch (Throwable e) {
                otherFailure.set(e);
            }
        }, "claim-ahead-producer");
        other.setDaemon(true);
        other.start();
        try {
            assertTrue(waitingForSpace.await(30, TimeUnit.SECONDS), "the second producer never waited for space");
            assertEquals(4, ring.getCursor(), "cursor after both claims");

            ring.get(mine).write(mine, 1);
            assertDoesNotThrow(() -> ring.publish(mine), "publishing an earlier claim while a later one waits");
            assertTrue(ring.isPublished(mine), "sequence 0 published");

            consumer.set(mine);                               // frees slot 0 for sequence 4
            other.join(30_000);
            assertEquals(null, otherFailure.get(), "second producer failed");
            assertEquals(4, otherHi.get(), "second producer's claim");
            assertEquals(4, ring.sequencer().getHighestPublishedSequence(1, 4), "sequences 1..4 published");
        } finally {
            ring.close("test over");                          // frees the other thread if still waiting
            other.join(10_000);
        }
    }
}

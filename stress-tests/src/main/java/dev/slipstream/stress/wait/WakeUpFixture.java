package dev.slipstream.stress.wait;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

/**
 * A consumer that waits on a production barrier for sequence 0 of an empty single-producer
 * ring, and the two things that must end that wait: a publication, or an alert. Used by the
 * termination tests of the wait strategies that park (where a lost wake-up would leave the
 * consumer asleep forever).
 *
 * <pre>{@code
 * WakeUpFixture f = new WakeUpFixture(new BlockingWaitStrategy());
 * f.awaitFirstEvent();   // on one thread: returns once the other thread calls f.publish()
 * }</pre>
 */
public final class WakeUpFixture {
    /** A ring slot; its content does not matter here. */
    public static final class Slot {
        /** Written by the producer. */
        public long value;
    }

    private final RingBuffer<Slot> ring;
    private final SequenceBarrier barrier;

    /**
     * Creates the ring and the barrier.
     *
     * @param waitStrategy the strategy under test
     */
    public WakeUpFixture(final WaitStrategy waitStrategy) {
        ring = RingBuffer.createSingleProducer(Slot::new, 4, waitStrategy);
        barrier = ring.newBarrier();
    }

    /** Waits until sequence 0 is handed out, or the barrier is alerted. */
    public void awaitFirstEvent() {
        try {
            // a barrier may hand out less than asked for; a consumer asks again, as a processor does
            while (barrier.waitFor(0) < 0) {
                Thread.onSpinWait();
            }
        } catch (AlertException stop) {
            // alerted: the wait is over
        } catch (InterruptedException e) {
            // jcstress interrupts a stale actor when it gives up on it
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            throw new IllegalStateException("the strategies under test do not time out", e);
        }
    }

    /** Publishes sequence 0. */
    public void publish() {
        final long seq = ring.next();
        ring.get(seq).value = 42;
        ring.publish(seq);
    }

    /** Alerts the barrier, as a processor's halt() does. */
    public void alert() {
        barrier.alert();
    }
}

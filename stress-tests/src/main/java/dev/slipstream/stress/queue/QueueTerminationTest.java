package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * A poller spinning on an empty queue is released by an offer: the offer resets the threshold
 * that made polls return at once, and the spinning poll sees both the reset and the element.
 * The queues are run until their threshold is below zero before the test starts.
 */
public final class QueueTerminationTest {
    private QueueTerminationTest() {
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the offer released the poller")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the poller never saw the element")
    @State
    public static class Scq {
        private final ScqQueue<Integer> queue = new ScqQueue<>(4);

        public Scq() {
            queue.offer(0);
            queue.poll();
            for (int i = 0; i < 200; i++) {
                queue.poll(); // exhaust the threshold: polls now return after one load
            }
        }

        @Actor
        public void poller() {
            while (queue.poll() == null) {
                Thread.onSpinWait();
            }
        }

        @Signal
        public void offer() {
            queue.offer(1);
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the offer released the poller")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the poller never saw the element")
    @State
    public static class Lscq {
        private final LscqQueue<Integer> queue = new LscqQueue<>(2);

        public Lscq() {
            queue.offer(0);
            queue.poll();
            for (int i = 0; i < 200; i++) {
                queue.poll();
            }
        }

        @Actor
        public void poller() {
            while (queue.poll() == null) {
                Thread.onSpinWait();
            }
        }

        @Signal
        public void offer() {
            // the segment holds 2: the third offer crosses into a new segment
            queue.offer(1);
            queue.offer(2);
            queue.offer(3);
        }
    }
}

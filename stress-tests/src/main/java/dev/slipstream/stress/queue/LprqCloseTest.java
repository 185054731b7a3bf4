package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LprqQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Closing against an offer: an offer that returns true is taken by a consumer that closes the
 * queue and drains until {@link LprqQueue#isDrained()}; an offer that returns false is not.
 * r1: the offer's result (1 = true), r2: how many elements the consumer got (the ones offered in
 * the constructor not counted).
 */
public final class LprqCloseTest {
    private LprqCloseTest() {
    }

    static int closeAndDrain(final LprqQueue<Integer> queue) {
        queue.close();
        int found = 0;
        while (!queue.isDrained()) {
            if (queue.poll() != null) {
                found++;
            } else {
                Thread.onSpinWait();
            }
        }
        return found;
    }

    /** An empty ring with room: the offer races close() closing the ring's tail. */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "accepted before the close, drained")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused after the close")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "accepted and lost")
    @Outcome(expect = FORBIDDEN, desc = "refused but delivered, or delivered twice")
    @State
    public static class OfferAgainstClose {
        private final LprqQueue<Integer> queue = new LprqQueue<>(4);

        @Actor
        public void producer(final II_Result r) {
            r.r1 = queue.offer(1) ? 1 : 0;
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = closeAndDrain(queue);
        }
    }

    /** A full ring, so that the offer races close() to link the next ring. */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "accepted before the close, drained")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "refused after the close")
    @Outcome(id = "1, 0", expect = FORBIDDEN, desc = "accepted and lost")
    @Outcome(expect = FORBIDDEN, desc = "refused but delivered, or delivered twice")
    @State
    public static class OfferAgainstCloseOnAFullRing {
        private final LprqQueue<Integer> queue = new LprqQueue<>(1);

        public OfferAgainstCloseOnAFullRing() {
            queue.offer(0);
        }

        @Actor
        public void producer(final II_Result r) {
            r.r1 = queue.offer(1) ? 1 : 0;
        }

        @Actor
        public void consumer(final II_Result r) {
            r.r2 = closeAndDrain(queue) - 1; // the element offered in the constructor
        }
    }
}

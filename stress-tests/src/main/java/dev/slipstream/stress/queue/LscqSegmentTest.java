package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LscqQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * LSCQ segment turnover at order 0 (one element per segment): the finalize bit, the link of a
 * new segment and the retirement of the head segment, under races.
 */
public final class LscqSegmentTest {
    private LscqSegmentTest() {
    }

    static int drainDigits(final LscqQueue<Integer> q) {
        int digits = 0;
        Integer e;
        while ((e = q.poll()) != null) {
            digits = digits * 10 + e;
        }
        return digits;
    }

    /**
     * Finalize race: the only segment is full; two producers find it full at once, one of them
     * finalizes it and one links the next segment. Element 1 comes first, then 2 and 3 in either
     * order, each once.
     */
    @JCStressTest
    @Outcome(id = "123", expect = ACCEPTABLE, desc = "2 linked first")
    @Outcome(id = "132", expect = ACCEPTABLE, desc = "3 linked first")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated or out of order")
    @State
    public static class TwoProducersOnAFullSegment {
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);

        public TwoProducersOnAFullSegment() {
            queue.offer(1);
        }

        @Actor
        public void first() {
            queue.offer(2);
        }

        @Actor
        public void second() {
            queue.offer(3);
        }

        @Arbiter
        public void arbiter(final I_Result r) {
            r.r1 = drainDigits(queue);
        }
    }

    /**
     * Finalize against a poll: the producer finds the segment full (and finalizes it) while the
     * consumer takes the element and gives its slot back. Whether 2 lands in the old segment or
     * a new one, the consumer gets 1 and the arbiter 2.
     */
    @JCStressTest
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "nothing lost")
    @Outcome(expect = FORBIDDEN, desc = "lost or duplicated")
    @State
    public static class OfferAgainstPollOnAFullSegment {
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);

        public OfferAgainstPollOnAFullSegment() {
            queue.offer(1);
        }

        @Actor
        public void producer() {
            queue.offer(2);
        }

        @Actor
        public void consumer(final II_Result r) {
            final Integer e = queue.poll();
            r.r1 = e == null ? 0 : e;
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            r.r2 = drainDigits(queue);
        }
    }

    /**
     * Retiring the head segment: the consumer polls twice while the producer crosses into new
     * segments. Order 0 makes every offer after the first link a segment, and every poll after
     * the first retire one.
     */
    @JCStressTest
    @Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "consumer got both")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "second poll before the second offer (arbiter drains 2)")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "first poll before the first offer")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "both polls early")
    @Outcome(expect = FORBIDDEN, desc = "order broken")
    @State
    public static class SegmentCrossing {
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);
        private int first;
        private int second;

        @Actor
        public void producer() {
            queue.offer(1);
            queue.offer(2);
        }

        @Actor
        public void consumer() {
            final Integer a = queue.poll();
            final Integer b = queue.poll();
            first = a == null ? 0 : a;
            second = b == null ? 0 : b;
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            // what the consumer did not get must still be there, in order
            final int rest = drainDigits(queue);
            final int expectedRest = first == 0 && second == 0 ? 12 : (second == 2 ? 0 : 2);
            r.r1 = first;
            r.r2 = rest == expectedRest ? second : -rest;
        }
    }
}

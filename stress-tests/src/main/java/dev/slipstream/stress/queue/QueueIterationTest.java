package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import java.util.Queue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The weakly consistent iterator against a concurrent poll and offer. The queue starts as
 * [1, 2]; one thread polls (taking 1) and then offers 3; the other iterates once. 2 is present
 * throughout, so it is always returned; 1 may be returned (it was there when the iteration
 * began); 3 only if the iterator was created after the poll, since it returns no element offered
 * after its creation; nothing twice, nothing out of order. r1 is the iteration as digits.
 */
public final class QueueIterationTest {
    private QueueIterationTest() {
    }

    static void pollThenOffer(final Queue<Integer> q) {
        q.poll();
        q.offer(3);
    }

    static void iterate(final Queue<Integer> q, final I_Result r) {
        int digits = 0;
        for (final Integer e : q) {
            digits = digits * 10 + e;
        }
        r.r1 = digits;
    }

    @JCStressTest
    @Outcome(id = "12", expect = ACCEPTABLE, desc = "iterator created before the poll")
    @Outcome(id = "2", expect = ACCEPTABLE, desc = "after the poll, before 3 was visible")
    @Outcome(id = "23", expect = ACCEPTABLE, desc = "after the poll and the offer")
    @Outcome(expect = FORBIDDEN, desc = "2 missed, an element twice, out of order, or 3 with 1")
    @State
    public static class Scq {
        private final ScqQueue<Integer> queue = new ScqQueue<>(4);

        public Scq() {
            queue.offer(1);
            queue.offer(2);
        }

        @Actor
        public void mutator() {
            pollThenOffer(queue);
        }

        @Actor
        public void iterator(final I_Result r) {
            iterate(queue, r);
        }
    }

    /** One element per segment: the iteration crosses segments while they are retired and linked. */
    @JCStressTest
    @Outcome(id = "12", expect = ACCEPTABLE, desc = "iterator created before the poll")
    @Outcome(id = "2", expect = ACCEPTABLE, desc = "after the poll, before 3 was visible")
    @Outcome(id = "23", expect = ACCEPTABLE, desc = "after the poll and the offer")
    @Outcome(expect = FORBIDDEN, desc = "2 missed, an element twice, out of order, or 3 with 1")
    @State
    public static class Lscq {
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);

        public Lscq() {
            queue.offer(1);
            queue.offer(2);
        }

        @Actor
        public void mutator() {
            pollThenOffer(queue);
        }

        @Actor
        public void iterator(final I_Result r) {
            iterate(queue, r);
        }
    }
}

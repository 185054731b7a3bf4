package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import java.util.Queue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Single-producer FIFO: one thread offers 1, 2, 3; another polls twice while it does; the
 * arbiter drains the rest. The consumer and the arbiter together see 1, 2, 3 once each, in
 * order. r1 and r2 are the consumer's polls (0 = empty), r3 the drained rest as digits.
 */
public final class QueueFifoTest {
    private QueueFifoTest() {
    }

    static void offerThree(final Queue<Integer> q) {
        q.offer(1);
        q.offer(2);
        q.offer(3);
    }

    static void pollTwo(final Queue<Integer> q, final III_Result r) {
        final Integer a = q.poll();
        final Integer b = q.poll();
        r.r1 = a == null ? 0 : a;
        r.r2 = b == null ? 0 : b;
    }

    static void drain(final Queue<Integer> q, final III_Result r) {
        int digits = 0;
        Integer e;
        while ((e = q.poll()) != null) {
            digits = digits * 10 + e;
        }
        r.r3 = digits;
    }

    @JCStressTest
    @Outcome(id = "0, 0, 123", expect = ACCEPTABLE, desc = "both polls before the first offer")
    @Outcome(id = "0, 1, 23", expect = ACCEPTABLE, desc = "first poll early")
    @Outcome(id = "1, 0, 23", expect = ACCEPTABLE, desc = "second poll between offers")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "elements lost")
    @Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "consumer kept up")
    @Outcome(id = "1, 2, 0", expect = FORBIDDEN, desc = "3 lost")
    @Outcome(expect = FORBIDDEN, desc = "order broken, element lost or duplicated")
    @State
    public static class Scq {
        private final ScqQueue<Integer> queue = new ScqQueue<>(4);

        @Actor
        public void producer() {
            offerThree(queue);
        }

        @Actor
        public void consumer(final III_Result r) {
            pollTwo(queue, r);
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            drain(queue, r);
        }
    }

    @JCStressTest
    @Outcome(id = "0, 0, 123", expect = ACCEPTABLE, desc = "both polls before the first offer")
    @Outcome(id = "0, 1, 23", expect = ACCEPTABLE, desc = "first poll early")
    @Outcome(id = "1, 0, 23", expect = ACCEPTABLE, desc = "second poll between offers")
    @Outcome(id = "1, 2, 3", expect = ACCEPTABLE, desc = "consumer kept up")
    @Outcome(expect = FORBIDDEN, desc = "order broken, element lost or duplicated")
    @State
    public static class LscqOrderZero {
        // one element per segment: every offer after the first crosses to a new segment
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);

        @Actor
        public void producer() {
            offerThree(queue);
        }

        @Actor
        public void consumer(final III_Result r) {
            pollTwo(queue, r);
        }

        @Arbiter
        public void arbiter(final III_Result r) {
            drain(queue, r);
        }
    }
}

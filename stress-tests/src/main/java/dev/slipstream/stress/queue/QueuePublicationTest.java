package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.queue.SlotSequenceQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Publication through the queue: a consumer that polls an element sees the plain, non-final
 * fields its producer wrote before offering it. The data array is written and read with plain
 * accesses; only the rings' CAS and volatile loads order them.
 */
public final class QueuePublicationTest {
    private QueuePublicationTest() {
    }

    /** An element with plain fields, written before the offer. */
    static final class Payload {
        int a;
        int b;
    }

    @JCStressTest
    @Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "polled before the offer: empty")
    @Outcome(id = "42, 43", expect = ACCEPTABLE, desc = "polled the element and saw both fields")
    @Outcome(expect = FORBIDDEN, desc = "saw the element without the fields written before its offer")
    @State
    public static class Scq {
        private final ScqQueue<Payload> queue = new ScqQueue<>(4);

        @Actor
        public void producer() {
            final Payload p = new Payload();
            p.a = 42;
            p.b = 43;
            queue.offer(p);
        }

        @Actor
        public void consumer(final II_Result r) {
            final Payload p = queue.poll();
            r.r1 = p == null ? -1 : p.a;
            r.r2 = p == null ? -1 : p.b;
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "polled before the offer: empty")
    @Outcome(id = "42, 43", expect = ACCEPTABLE, desc = "polled the element and saw both fields")
    @Outcome(expect = FORBIDDEN, desc = "saw the element without the fields written before its offer")
    @State
    public static class Lscq {
        private final LscqQueue<Payload> queue = new LscqQueue<>(1);

        public Lscq() {
            // fill and drain the first segment, so that the offer below links a new one
            queue.offer(new Payload());
            queue.offer(new Payload());
            queue.poll();
        }

        @Actor
        public void producer() {
            final Payload p = new Payload();
            p.a = 42;
            p.b = 43;
            queue.offer(p);
        }

        @Actor
        public void consumer(final II_Result r) {
            Payload p = queue.poll(); // the element left in the constructor
            p = queue.poll();
            r.r1 = p == null ? -1 : p.a;
            r.r2 = p == null ? -1 : p.b;
        }
    }

    @JCStressTest
    @Outcome(id = "-1, -1", expect = ACCEPTABLE, desc = "polled before the offer: empty")
    @Outcome(id = "42, 43", expect = ACCEPTABLE, desc = "polled the element and saw both fields")
    @Outcome(expect = FORBIDDEN, desc = "saw the element without the fields written before its offer")
    @State
    public static class SlotSequence {
        private final SlotSequenceQueue<Payload> queue = new SlotSequenceQueue<>(2);

        public SlotSequence() {
            // one lap done: the offer below reuses a slot a consumer freed
            queue.offer(new Payload());
            queue.offer(new Payload());
            queue.poll();
            queue.poll();
        }

        @Actor
        public void producer() {
            final Payload p = new Payload();
            p.a = 42;
            p.b = 43;
            queue.offer(p);
        }

        @Actor
        public void consumer(final II_Result r) {
            final Payload p = queue.poll();
            r.r1 = p == null ? -1 : p.a;
            r.r2 = p == null ? -1 : p.b;
        }
    }
}

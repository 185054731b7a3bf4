package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LprqQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The orderings of {@link LprqQueue} under the Java Memory Model, two actors (and an arbiter) so
 * that they run on two CPUs: nothing lost or duplicated with two producers and two consumers
 * (rings of one and two cells, so that rings are closed and linked, and cells reused by later
 * laps); a consumer sees the fields of an element written before its offer; one producer's
 * elements arrive in order; a poller spinning on an empty queue is released by an offer.
 */
public final class LprqQueueStressTest {
    private LprqQueueStressTest() {
    }

    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class MpmcRingOfOne {
        private final LprqQueue<Integer> queue = new LprqQueue<>(1);
        private final QueueMpmcTest.Seen seen = new QueueMpmcTest.Seen();

        @Actor
        public void first() {
            queue.offer(1);
            queue.offer(2);
            seen.mask1 = QueueMpmcTest.Seen.record(queue, QueueMpmcTest.Seen.record(queue, 0));
        }

        @Actor
        public void second() {
            queue.offer(3);
            queue.offer(4);
            seen.mask2 = QueueMpmcTest.Seen.record(queue, QueueMpmcTest.Seen.record(queue, 0));
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            QueueMpmcTest.finish(queue, seen, r);
        }
    }

    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class MpmcRingOfTwo {
        private final LprqQueue<Integer> queue = new LprqQueue<>(2);
        private final QueueMpmcTest.Seen seen = new QueueMpmcTest.Seen();

        @Actor
        public void first() {
            queue.offer(1);
            seen.mask1 = QueueMpmcTest.Seen.record(queue, 0);
            queue.offer(2);
            seen.mask1 = QueueMpmcTest.Seen.record(queue, seen.mask1);
        }

        @Actor
        public void second() {
            queue.offer(3);
            seen.mask2 = QueueMpmcTest.Seen.record(queue, 0);
            queue.offer(4);
            seen.mask2 = QueueMpmcTest.Seen.record(queue, seen.mask2);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            QueueMpmcTest.finish(queue, seen, r);
        }
    }

    /** An element with a plain field, written before the offer. */
    static final class Payload {
        int value;
    }

    @JCStressTest
    @Outcome(id = "-1", expect = ACCEPTABLE, desc = "polled before the offer")
    @Outcome(id = "42", expect = ACCEPTABLE, desc = "the element and its field")
    @Outcome(id = "0", expect = FORBIDDEN, desc = "the element without its field")
    @State
    public static class Publication {
        private final LprqQueue<Payload> queue = new LprqQueue<>(2);

        @Actor
        public void producer() {
            final Payload p = new Payload();
            p.value = 42;
            queue.offer(p);
        }

        @Actor
        public void consumer(final I_Result r) {
            final Payload p = queue.poll();
            r.r1 = p == null ? -1 : p.value;
        }
    }

    @JCStressTest
    @Outcome(id = {"0, 0", "1, 0", "1, 2", "0, 1"}, expect = ACCEPTABLE, desc = "in order")
    @Outcome(expect = FORBIDDEN, desc = "out of order or duplicated")
    @State
    public static class SingleProducerFifo {
        private final LprqQueue<Integer> queue = new LprqQueue<>(1);

        @Actor
        public void producer() {
            queue.offer(1);
            queue.offer(2);
        }

        @Actor
        public void consumer(final II_Result r) {
            final Integer a = queue.poll();
            final Integer b = queue.poll();
            r.r1 = a == null ? 0 : a;
            r.r2 = b == null ? 0 : b;
        }
    }

    @JCStressTest(Mode.Termination)
    @Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the offer released the poller")
    @Outcome(id = "STALE", expect = FORBIDDEN, desc = "the poller never saw the element")
    @State
    public static class Termination {
        private final LprqQueue<Integer> queue = new LprqQueue<>(2);

        public Termination() {
            queue.offer(0);
            queue.poll();
            for (int i = 0; i < 20; i++) {
                queue.poll(); // polls of an empty ring: the tail is moved up to the head
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
}

package dev.slipstream.stress.queue;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.queue.SlotSequenceQueue;
import java.util.Queue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two producers and two consumers (each actor offers two elements and polls twice; on two CPUs
 * the two roles share the two actors), the arbiter drains the rest. r1 is a bitmask of the
 * elements 1..4 seen by anyone, r2 the number of elements seen twice: "15, 0" is the only
 * acceptable outcome.
 */
public final class QueueMpmcTest {
    private QueueMpmcTest() {
    }

    /** What the actors and the arbiter saw; each actor writes only its own fields. */
    static final class Seen {
        int mask1;
        int mask2;
        int dup;

        /** Offers {@code a} and {@code b}, then polls twice: the mask of what the polls took. */
        static int offerTwoPollTwo(final Queue<Integer> q, final int a, final int b) {
            q.offer(a);
            q.offer(b);
            return record(q, record(q, 0));
        }

        /**
         * Offers {@code a} and {@code b}, each until accepted (a full queue is polled to make
         * room, and what that poll takes is recorded), then polls once.
         */
        static int offerTwoMakingRoomPollOne(final Queue<Integer> q, final int a, final int b) {
            return record(q, offerOrPoll(q, b, offerOrPoll(q, a, 0)));
        }

        private static int offerOrPoll(final Queue<Integer> q, final int e, final int mask) {
            int m = mask;
            while (!q.offer(e)) {
                m = record(q, m); // full: make room ourselves
            }
            return m;
        }

        static int record(final Queue<Integer> q, final int mask) {
            final Integer e = q.poll();
            return e == null ? mask : mask | (1 << (e - 1)) | ((mask & (1 << (e - 1))) << 8);
        }
    }

    static void finish(final Queue<Integer> q, final Seen s, final II_Result r) {
        int mask = 0;
        int dup = Integer.bitCount(s.mask1 >>> 8) + Integer.bitCount(s.mask2 >>> 8);
        final int m1 = s.mask1 & 0xFF;
        final int m2 = s.mask2 & 0xFF;
        dup += Integer.bitCount(m1 & m2);
        mask = m1 | m2;
        Integer e;
        while ((e = q.poll()) != null) {
            final int bit = 1 << (e - 1);
            if ((mask & bit) != 0) {
                dup++;
            }
            mask |= bit;
        }
        r.r1 = mask;
        r.r2 = dup;
    }

    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class Scq {
        private final ScqQueue<Integer> queue = new ScqQueue<>(4);
        private final Seen seen = new Seen();

        @Actor
        public void first() {
            seen.mask1 = Seen.offerTwoPollTwo(queue, 1, 2);
        }

        @Actor
        public void second() {
            seen.mask2 = Seen.offerTwoPollTwo(queue, 3, 4);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            finish(queue, seen, r);
        }
    }

    /** Capacity 2: offers fail (really or spuriously full) and are retried until accepted. */
    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class ScqCapacityTwo {
        private final ScqQueue<Integer> queue = new ScqQueue<>(2);
        private final Seen seen = new Seen();

        @Actor
        public void first() {
            seen.mask1 = Seen.offerTwoMakingRoomPollOne(queue, 1, 2);
        }

        @Actor
        public void second() {
            seen.mask2 = Seen.offerTwoMakingRoomPollOne(queue, 3, 4);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            finish(queue, seen, r);
        }
    }

    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class LscqOrderZero {
        private final LscqQueue<Integer> queue = new LscqQueue<>(1);
        private final Seen seen = new Seen();

        @Actor
        public void first() {
            seen.mask1 = Seen.offerTwoPollTwo(queue, 1, 2);
        }

        @Actor
        public void second() {
            seen.mask2 = Seen.offerTwoPollTwo(queue, 3, 4);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            finish(queue, seen, r);
        }
    }

    /** The candidate bounded queue at capacity 2: offers fail when full and are retried. */
    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class SlotSequenceCapacityTwo {
        private final SlotSequenceQueue<Integer> queue = new SlotSequenceQueue<>(2);
        private final Seen seen = new Seen();

        @Actor
        public void first() {
            seen.mask1 = Seen.offerTwoMakingRoomPollOne(queue, 1, 2);
        }

        @Actor
        public void second() {
            seen.mask2 = Seen.offerTwoMakingRoomPollOne(queue, 3, 4);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            finish(queue, seen, r);
        }
    }

    /**
     * LPRQ with {@code WAIT_FOR_OFFER}, rings of two cells: polls that overtake offers wait for
     * them. ({@code BACK_OFF} adds only pauses between positions, which change no ordering.)
     */
    @JCStressTest
    @Outcome(id = "15, 0", expect = ACCEPTABLE, desc = "every element exactly once")
    @Outcome(expect = FORBIDDEN, desc = "an element lost or duplicated")
    @State
    public static class LprqWaitForOffer {
        private final LprqQueue<Integer> queue = new LprqQueue<>(2, LprqQueue.Contention.WAIT_FOR_OFFER);
        private final Seen seen = new Seen();

        @Actor
        public void first() {
            seen.mask1 = Seen.offerTwoPollTwo(queue, 1, 2);
        }

        @Actor
        public void second() {
            seen.mask2 = Seen.offerTwoPollTwo(queue, 3, 4);
        }

        @Arbiter
        public void arbiter(final II_Result r) {
            finish(queue, seen, r);
        }
    }
}

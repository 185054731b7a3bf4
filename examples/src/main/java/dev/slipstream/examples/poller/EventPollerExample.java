package dev.slipstream.examples.poller;

import dev.slipstream.ring.EventPoller;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.concurrent.locks.LockSupport;

/**
 * A consumer that owns its thread loop: an {@link EventPoller} instead of a processor thread.
 * Use it when the consuming thread has other duties too (a timer, a selector, a game loop): each
 * {@code poll} hands over whatever is available now and returns at once, so the loop decides
 * when to do what.
 *
 * <p>Here a producer publishes price ticks; the polling thread keeps a volume-weighted average
 * price, handles at most {@value #MAX_PER_POLL} ticks per poll (its handler returns false to stop
 * early, leaving the rest for the next poll) so that its "timer" duty runs at least that often,
 * and backs off by parking when a poll finds nothing.
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.poller.EventPollerExample [ticks]
 * </pre>
 */
public final class EventPollerExample {
    static final int MAX_PER_POLL = 256;

    /** A price tick: the ring's preallocated event. */
    static final class Tick {
        long price;
        long quantity;
    }

    /** What the polling loop saw. */
    record Summary(long ticks, double vwap, long polls, long idlePolls, long timerRuns, long largestPoll) {
    }

    private EventPollerExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional: the number of ticks (default 5,000,000)
     * @throws Exception if the poller or a thread fails
     */
    public static void main(final String[] args) throws Exception {
        final long ticks = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 5_000_000;
        final Summary s = run(ticks);
        System.out.printf("%,d ticks, VWAP %.4f%n", s.ticks(), s.vwap());
        System.out.printf("%,d polls (%,d found nothing), at most %d ticks per poll, timer duty ran %,d times%n",
                s.polls(), s.idlePolls(), s.largestPoll(), s.timerRuns());
    }

    static Summary run(final long ticks) throws Exception {
        final RingBuffer<Tick> ring = RingBuffer.createSingleProducer(Tick::new, 4096, new YieldingWaitStrategy());
        final EventPoller<Tick> poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());     // the producer never laps the poller

        final Thread producer = new Thread(() -> {
            for (long i = 0; i < ticks; i++) {
                final long sequence = ring.next();
                final Tick tick = ring.get(sequence);
                tick.price = 10_000 + (i % 100);
                tick.quantity = 1 + (i % 7);
                ring.publish(sequence);
            }
        }, "producer");
        producer.start();

        // The polling loop: the state lives in this small object so that the handler below, created
        // once, can update it without allocating per poll.
        final class Loop implements EventPoller.Handler<Tick> {
            long seen;
            long notional;
            long volume;
            int inThisPoll;

            @Override
            public boolean onEvent(final Tick tick, final long sequence, final boolean endOfBatch) {
                notional += tick.price * tick.quantity;
                volume += tick.quantity;
                seen++;
                return ++inThisPoll < MAX_PER_POLL;    // false: stop here, the rest waits for the next poll
            }
        }
        final Loop loop = new Loop();
        long polls = 0;
        long idle = 0;
        long timerRuns = 0;
        long largest = 0;
        long nextTimer = System.nanoTime();
        while (loop.seen < ticks) {
            loop.inThisPoll = 0;
            final EventPoller.PollState state = poller.poll(loop);
            polls++;
            largest = Math.max(largest, loop.inThisPoll);
            if (state != EventPoller.PollState.PROCESSING) {
                idle++;
                LockSupport.parkNanos(1_000);       // nothing to do: give the core back briefly
            }
            final long now = System.nanoTime();
            if (now >= nextTimer) {                 // the loop's other duty, e.g. heartbeats
                timerRuns++;
                nextTimer = now + 1_000_000;
            }
        }
        producer.join();
        return new Summary(loop.seen, (double) loop.notional / loop.volume, polls, idle, timerRuns, largest);
    }
}

package dev.slipstream.sequence;

import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The natural race of a close against producers of a full ring: a small ring, one or three producers
 * publishing as fast as they can, a consumer that stops at a random point (so the ring fills and
 * producers wait for space), then a close. Counts, over many rounds, the three ways the
 * "nothing accepted is lost" contract can break at the ring level: a hole below the close fence,
 * an accepted publish above it, and a producer that never ends because its accepted claim can
 * never get space (the run stops at the first such round, after releasing the producer).
 */
final class CloseRace {
    /** What a run of rounds found. */
    record Outcome(int rounds, long accepted, int roundsWithHole, long acceptedPastFence, int roundsWithStuckProducer) {
        boolean clean() {
            return roundsWithHole == 0 && acceptedPastFence == 0 && roundsWithStuckProducer == 0;
        }
    }

    /** How long a producer may take to end after the close before the round counts it as stuck. */
    private static final long STUCK_MILLIS = TimeUnit.SECONDS.toMillis(10);

    private CloseRace() {
    }

    /**
     * Runs up to {@code rounds} rounds, or until {@code budgetNanos} has passed.
     *
     * @param sequencers makes a fresh sequencer of 4 slots per round
     * @param producerCount publishing threads: 1 for a single-producer sequencer
     */
    static Outcome run(final Supplier<Sequencer> sequencers, final int rounds, final long budgetNanos,
                       final int producerCount)
            throws InterruptedException {
        final long deadline = System.nanoTime() + budgetNanos;
        int done = 0;
        int holes = 0;
        long accepted = 0;
        long pastFence = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            final Sequencer sequencer = sequencers.get();
            final Sequence consumer = new Sequence();
            sequencer.addGatingSequences(consumer);
            final AtomicLong highestAccepted = new AtomicLong(-1);
            final AtomicLong acceptedCount = new AtomicLong();
            final List<Thread> producers = new ArrayList<>();
            for (int p = 0; p < producerCount; p++) {
                final Thread producer = new Thread(() -> {
                    try {
                        while (true) {
                            final long s = sequencer.next();
                            sequencer.publish(s);
                            // publish returned normally: the event is accepted
                            acceptedCount.incrementAndGet();
                            highestAccepted.accumulateAndGet(s, Math::max);
                        }
                    } catch (SequencerClosedException closed) {
                        // expected once the ring closes
                    }
                });
                producer.setDaemon(true);
                producers.add(producer);
                producer.start();
            }
            // the consumer reads a random number of events, then stops: the ring fills
            final int toRead = ThreadLocalRandom.current().nextInt(0, 16);
            long read = -1;
            while (read < toRead - 1) {
                final long published = sequencer.getHighestPublishedSequence(read + 1, sequencer.getCursor());
                if (published > read) {
                    read = published;
                    consumer.set(read);
                } else {
                    Thread.onSpinWait();
                }
            }
            if (ThreadLocalRandom.current().nextBoolean()) {
                Thread.yield();
            }
            sequencer.close("round " + done);
            boolean stuck = false;
            for (final Thread producer : producers) {
                producer.join(STUCK_MILLIS);
                stuck |= producer.isAlive();
            }
            if (stuck) {
                // free the whole ring so the stuck producer can finish, then report the round
                consumer.set(sequencer.getCursor());
                for (final Thread producer : producers) {
                    producer.join(STUCK_MILLIS);
                }
                return new Outcome(done + 1, accepted + acceptedCount.get(), holes, pastFence, 1);
            }
            final long fence = sequencer.getCloseFence();
            // every sequence up to the fence must be published: a gap is an abandoned claim
            if (sequencer.getHighestPublishedSequence(read + 1, fence) != fence) {
                holes++;
            }
            if (highestAccepted.get() > fence) {
                pastFence += highestAccepted.get() - fence;
            }
            accepted += acceptedCount.get();
            done++;
        }
        return new Outcome(done, accepted, holes, pastFence, 0);
    }
}

package dev.slipstream.examples;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The smallest useful pipeline: one producer thread, one ring, one consumer stage
 * ({@link BatchEventProcessor}), wired by hand. It runs twice:
 * <ol>
 *   <li>throughput: the producer publishes as fast as it can; prints events/s;</li>
 *   <li>latency: the producer publishes at a fixed rate; the consumer records, in an HdrHistogram,
 *       the time from when each event was due to when it handled it; prints the percentiles.</li>
 * </ol>
 * The consumer checks the sum of the values, so a lost or repeated event fails the run.
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.PipelineDemo [events] [latencyEvents] [ratePerSecond]
 * </pre>
 */
public final class PipelineDemo {
    /** The event: preallocated in every slot, overwritten by each publication. */
    static final class ValueEvent {
        long value;
        long dueNanos;
    }

    /** The consumer stage: sums the values and records latency. Runs on its own thread. */
    static final class Consumer implements EventHandler<ValueEvent> {
        private final long expectedEvents;
        private final CountDownLatch done = new CountDownLatch(1);
        private final Histogram latency;
        private long count;
        private long sum;

        Consumer(final long expectedEvents, final Histogram latency) {
            this.expectedEvents = expectedEvents;
            this.latency = latency;
        }

        @Override
        public void onEvent(final ValueEvent event, final long sequence, final boolean endOfBatch) {
            if (latency != null) {
                latency.recordValue(Math.min(latency.getHighestTrackableValue(), System.nanoTime() - event.dueNanos));
            }
            sum += event.value;
            if (++count == expectedEvents) {
                done.countDown();
            }
        }
    }

    /**
     * What one phase measured.
     *
     * @param events events published
     * @param elapsedNanos from the first publication until the consumer handled the last one
     * @param sum the consumer's sum of the values (must be {@code events * (events - 1) / 2})
     * @param latency due time to handled, in ns; null for the throughput phase
     */
    record Phase(long events, long elapsedNanos, long sum, Histogram latency) {
        boolean complete() {
            return sum == events * (events - 1) / 2;
        }

        double eventsPerSecond() {
            return events * 1e9 / elapsedNanos;
        }
    }

    private PipelineDemo() {
    }

    /**
     * Runs both phases.
     *
     * @param args optional: events for the throughput phase (default 20,000,000), events for the
     *     latency phase (default 500,000), rate of the latency phase per second (default 100,000)
     * @throws InterruptedException if interrupted
     */
    public static void main(final String[] args) throws InterruptedException {
        final long events = args.length > 0 ? Long.parseLong(args[0].replace("_", "")) : 20_000_000;
        final long latencyEvents = args.length > 1 ? Long.parseLong(args[1].replace("_", "")) : 500_000;
        final long rate = args.length > 2 ? Long.parseLong(args[2].replace("_", "")) : 100_000;
        System.exit(run(events, latencyEvents, rate, System.out) ? 0 : 1);
    }

    static boolean run(final long events, final long latencyEvents, final long ratePerSecond, final PrintStream out)
            throws InterruptedException {
        if (events < 1 || latencyEvents < 1 || ratePerSecond < 1) {
            throw new IllegalArgumentException("events, latencyEvents and ratePerSecond must be positive, got "
                    + events + ", " + latencyEvents + ", " + ratePerSecond);
        }
        out.println("1P-1C pipeline: producer -> ring of 65,536 -> consumer (HybridWaitStrategy)");
        final Phase throughput = runPhase(events, 0);
        out.printf("throughput: %,d events in %.2f s = %,.0f events/s%s%n", events, throughput.elapsedNanos() / 1e9,
                throughput.eventsPerSecond(), throughput.complete() ? "" : "  SUM MISMATCH: events lost");
        final Phase paced = runPhase(latencyEvents, ratePerSecond);
        final Histogram h = paced.latency();
        out.printf("latency at %,d events/s (us): p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  p99.99 %.1f  max %.1f%s%n",
                ratePerSecond, h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3,
                h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
                h.getValueAtPercentile(99.99) / 1e3, h.getMaxValue() / 1e3,
                paced.complete() ? "" : "  SUM MISMATCH: events lost");
        return throughput.complete() && paced.complete();
    }

    /** One producer (this thread), one consumer thread; {@code ratePerSecond == 0} means unpaced. */
    static Phase runPhase(final long events, final long ratePerSecond) throws InterruptedException {
        final RingBuffer<ValueEvent> ring =
                RingBuffer.createSingleProducer(ValueEvent::new, 1 << 16, new HybridWaitStrategy());
        final Histogram latency = ratePerSecond == 0 ? null : new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final Consumer consumer = new Consumer(events, latency);
        final BatchEventProcessor<ValueEvent> processor =
                new BatchEventProcessor<>(ring, ring.newBarrier(), consumer);
        ring.addGatingSequences(processor.getSequence());      // the producer never laps the consumer
        final Thread thread = new Thread(processor, "consumer");
        thread.start();

        final long intervalNanos = ratePerSecond == 0 ? 0 : 1_000_000_000L / ratePerSecond;
        final long start = System.nanoTime();
        for (long i = 0; i < events; i++) {
            long due = 0;
            if (intervalNanos != 0) {
                // latency counts from when the event was due, not when it was sent: a stall that
                // delays the producer is charged to every event it delayed
                due = start + i * intervalNanos;
                long now;
                while ((now = System.nanoTime()) < due) {
                    LockSupport.parkNanos(due - now);
                }
            }
            final long sequence = ring.next();          // claim
            final ValueEvent event = ring.get(sequence);
            event.value = i;                            // write into the preallocated slot
            event.dueNanos = due;
            ring.publish(sequence);                     // make it visible to the consumer
        }
        consumer.done.await();
        final long elapsed = System.nanoTime() - start;
        processor.halt();
        thread.join();
        // join: the consumer's plain writes (sum, histogram) are visible from here
        return new Phase(events, elapsed, consumer.sum, latency);
    }
}

package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;

/**
 * Multicast: journal, replicate and analytics each see every trade, in parallel, on their own
 * threads. The producer waits only for the slowest of them.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.MulticastExample
 * </pre>
 */
public final class MulticastExample {
    private MulticastExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional event count
     */
    public static void main(final String[] args) {
        final long[] counts = run(Examples.events(args, 10_000_000));
        System.out.printf("journal %d, replicate %d, analytics %d%n", counts[0], counts[1], counts[2]);
    }

    /**
     * Publishes {@code events} trades to three parallel stages.
     *
     * @param events how many trades
     * @return how many trades each stage saw
     */
    public static long[] run(final long events) {
        final long[] counts = new long[3];
        // each handler is called by its own stage thread only, so plain fields are safe here
        final EventHandler<Trade> journal = (trade, sequence, endOfBatch) -> counts[0]++;
        final EventHandler<Trade> replicate = (trade, sequence, endOfBatch) -> counts[1]++;
        final EventHandler<Trade> analytics = (trade, sequence, endOfBatch) -> counts[2]++;

        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).name("multicast").ringSize(1 << 14)
                .producers(ProducerType.SINGLE).waitStrategy(new YieldingWaitStrategy()).build()) {
            pipeline.handleEventsWith(StageSpec.of("journal", journal), StageSpec.of("replicate", replicate),
                    StageSpec.of("analytics", analytics));
            pipeline.start();
            final long start = System.nanoTime();
            for (long id = 0; id < events; id++) {
                pipeline.publishEvent(Trade::fill, id);
            }
            pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            Examples.printThroughput("multicast to 3 stages", events, start);
        }
        return counts;
    }
}

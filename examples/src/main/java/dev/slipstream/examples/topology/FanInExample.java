package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Fan-in: three gateway threads publish into one ring (a multi-producer sequencer), one matcher
 * consumes everything. Each gateway's trades arrive in the order it published them.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.FanInExample
 * </pre>
 */
public final class FanInExample {
    private static final int PRODUCERS = 3;

    private FanInExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional event count per producer
     * @throws InterruptedException if interrupted while joining the producers
     */
    public static void main(final String[] args) throws InterruptedException {
        System.out.println("out-of-order arrivals: " + run(Examples.events(args, 3_000_000)));
    }

    /**
     * Has three threads publish {@code perProducer} trades each into one matcher.
     *
     * @param perProducer trades per producer thread
     * @return how many trades arrived out of their producer's order (always 0)
     * @throws InterruptedException if interrupted while joining the producers
     */
    public static long run(final long perProducer) throws InterruptedException {
        final long[] lastId = new long[PRODUCERS];
        final long[] outOfOrder = new long[1];
        java.util.Arrays.fill(lastId, -1);
        final EventHandler<Trade> matcher = (trade, sequence, endOfBatch) -> {
            if (trade.id != lastId[trade.producer] + 1) {
                outOfOrder[0]++;
            }
            lastId[trade.producer] = trade.id;
        };
        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).name("fan-in").ringSize(1 << 14)
                .producers(ProducerType.MULTI)             // several publishing threads: atomic claims
                .waitStrategy(new HybridWaitStrategy()).build()) {
            pipeline.handleEventsWith(StageSpec.of("matcher", matcher));
            pipeline.start();
            final long start = System.nanoTime();
            final List<Thread> gateways = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                final int producer = p;
                final Thread gateway = new Thread(() -> {
                    for (long id = 0; id < perProducer; id++) {
                        pipeline.publishEvent((trade, sequence, tradeId, from) -> {
                            Trade.fill(trade, sequence, tradeId);
                            trade.producer = from;
                        }, id, producer);
                    }
                }, "gateway-" + p);
                gateways.add(gateway);
                gateway.start();
            }
            for (final Thread gateway : gateways) {
                gateway.join();
            }
            pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            Examples.printThroughput("fan-in 3P -> 1C", PRODUCERS * perProducer, start);
        }
        return outOfOrder[0];
    }
}

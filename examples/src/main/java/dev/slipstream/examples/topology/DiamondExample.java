package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageGroup;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;

/**
 * Diamond: pricing and risk run in parallel on every trade; settle runs after both, so it can
 * read what each of them wrote.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.DiamondExample
 * </pre>
 */
public final class DiamondExample {
    private DiamondExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional event count
     */
    public static void main(final String[] args) {
        System.out.println("settled " + run(Examples.events(args, 10_000_000)) + " trades with both results");
    }

    /**
     * Publishes {@code events} trades through the diamond.
     *
     * @param events how many trades
     * @return how many trades settle saw with both upstream results present
     */
    public static long run(final long events) {
        final long[] complete = new long[1];
        final EventHandler<Trade> pricing = (trade, sequence, endOfBatch) -> trade.notional = trade.price * trade.quantity;
        final EventHandler<Trade> risk = (trade, sequence, endOfBatch) -> trade.risk = 1 + (trade.quantity & 3);
        // settle follows both: it never sees a trade before pricing and risk have finished with it
        final EventHandler<Trade> settle = (trade, sequence, endOfBatch) -> {
            if (trade.notional == trade.price * trade.quantity && trade.risk > 0) {
                complete[0]++;
            }
        };
        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).name("diamond").ringSize(1 << 14)
                .producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build()) {
            final StageGroup<Trade> parallel = pipeline.handleEventsWith(StageSpec.of("pricing", pricing),
                    StageSpec.of("risk", risk));
            pipeline.after(parallel).handleEventsWith(StageSpec.of("settle", settle));
            System.out.println(pipeline.describe().toDot());
            pipeline.start();
            final long start = System.nanoTime();
            for (long id = 0; id < events; id++) {
                pipeline.publishEvent(Trade::fill, id);
            }
            pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            Examples.printThroughput("diamond pricing, risk -> settle", events, start);
        }
        return complete[0];
    }
}

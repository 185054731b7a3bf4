package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;

/**
 * Pipeline: price -> risk -> book. Each stage sees every trade, in order, and only after the
 * stage before it has finished with it, so risk can read the notional that pricing wrote.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.PipelineExample
 * </pre>
 */
public final class PipelineExample {
    private PipelineExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional event count
     */
    public static void main(final String[] args) {
        System.out.println("booked notional " + run(Examples.events(args, 10_000_000)));
    }

    /**
     * Publishes {@code events} trades through the pipeline and shuts it down.
     *
     * @param events how many trades
     * @return the total notional the last stage booked
     */
    public static long run(final long events) {
        final long[] booked = new long[1];
        // Plain handlers: one thread each. Pricing writes a field that risk reads; the pipeline's
        // sequences make that write visible before risk sees the trade.
        final EventHandler<Trade> pricing = (trade, sequence, endOfBatch) -> trade.notional = trade.price * trade.quantity;
        final EventHandler<Trade> risk = (trade, sequence, endOfBatch) -> trade.risk = trade.notional / 100;
        final EventHandler<Trade> book = (trade, sequence, endOfBatch) -> booked[0] += trade.notional;

        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new)
                .name("pipeline")
                .ringSize(1 << 14)
                .producers(ProducerType.SINGLE)          // one publishing thread: no CAS on the claim path
                .waitStrategy(new YieldingWaitStrategy()) // threads may outnumber cores: do not busy-spin
                .build()) {
            pipeline.handleEventsWith(StageSpec.of("pricing", pricing))
                    .then(StageSpec.of("risk", risk))
                    .then(StageSpec.of("book", book));
            System.out.println(pipeline.describe().toMermaid());
            pipeline.start();

            final long start = System.nanoTime();
            for (long id = 0; id < events; id++) {
                pipeline.publishEvent(Trade::fill, id);
            }
            // drains every published trade through all three stages, then joins the threads
            final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(30));
            Examples.printThroughput("pipeline price -> risk -> book", events, start);
            System.out.println(result);
        }
        return booked[0];
    }
}

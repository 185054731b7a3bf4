package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.topology.WakePolicy;
import dev.slipstream.wait.HybridWaitStrategy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Work pool: three pricers share one stage and each trade is priced by exactly one of them; an
 * audit stage after the pool sees a trade only once the pricer that took it has finished.
 * Wake-up is biased: while pricer 0 keeps up, the others stay parked and cost no context switches.
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.WorkPoolExample
 * </pre>
 */
public final class WorkPoolExample {
    private WorkPoolExample() {
    }

    /** A pricer with some work per trade (a few hundred nanoseconds of hashing). */
    private static final class Pricer implements EventHandler<Trade> {
        @Override
        public void onEvent(final Trade trade, final long sequence, final boolean endOfBatch) {
            long h = trade.id;
            for (int i = 0; i < 64; i++) {
                h = h * 0x9E3779B97F4A7C15L + i;
                h ^= h >>> 29;
            }
            trade.risk = h;                          // keep the work: its result is stored
            trade.notional = trade.price * trade.quantity;
        }
    }

    /**
     * Runs the example.
     *
     * @param args optional event count
     */
    public static void main(final String[] args) {
        System.out.println("audited notional " + run(Examples.events(args, 5_000_000)));
    }

    /**
     * Prices {@code events} trades in a pool of three, then audits them.
     *
     * @param events how many trades
     * @return the total notional the audit stage saw
     */
    public static long run(final long events) {
        final AtomicLong audited = new AtomicLong();
        final long[] total = new long[1];
        final EventHandler<Trade> audit = (trade, sequence, endOfBatch) -> {
            total[0] += trade.notional;
            if (endOfBatch) {
                audited.set(total[0]);
            }
        };
        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).name("pool").ringSize(1 << 14)
                .producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build()) {
            // each pricer is a distinct instance: a handler is only ever called by one thread
            pipeline.handleEventsWith(StageSpec.workerPool("pricers", new Pricer(), new Pricer(), new Pricer())
                            .wakePolicy(WakePolicy.BIASED).maxBatchSize(64))
                    .then(StageSpec.of("audit", audit));
            pipeline.start();
            final long start = System.nanoTime();
            for (long id = 0; id < events; id++) {
                pipeline.publishEvent(Trade::fill, id);
            }
            pipeline.shutdown(Duration.ofSeconds(60)).requireClean();
            Examples.printThroughput("work pool of 3 pricers -> audit", events, start);
            System.out.println("pricers: " + pipeline.stage("pricers").metrics().eventsProcessed() + " events in "
                    + pipeline.stage("pricers").metrics().batchesProcessed() + " batches");
        }
        return audited.get();
    }
}

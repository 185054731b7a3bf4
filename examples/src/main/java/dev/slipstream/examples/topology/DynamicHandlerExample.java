package dev.slipstream.examples.topology;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.Stage;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;

/**
 * Adding and removing a handler while the pipeline runs: an audit stage joins half way (it sees
 * trades published from then on) and leaves again (it stops gating the producer at once).
 *
 * <pre>
 * mvn -B -q -pl examples -am compile exec:java -Dexec.mainClass=dev.slipstream.examples.topology.DynamicHandlerExample
 * </pre>
 */
public final class DynamicHandlerExample {
    private DynamicHandlerExample() {
    }

    /**
     * Runs the example.
     *
     * @param args optional event count
     */
    public static void main(final String[] args) {
        final long[] seen = run(Examples.events(args, 3_000_000));
        System.out.printf("journal saw %d, the temporary audit saw %d%n", seen[0], seen[1]);
    }

    /**
     * Publishes {@code events} trades in three thirds: audit joins after the first and leaves after
     * the second.
     *
     * @param events how many trades
     * @return how many trades the journal and the audit saw
     */
    public static long[] run(final long events) {
        final long[] journalCount = new long[1];
        final long[] auditCount = new long[1];
        final EventHandler<Trade> journal = (trade, sequence, endOfBatch) -> journalCount[0]++;
        final EventHandler<Trade> audit = (trade, sequence, endOfBatch) -> auditCount[0]++;
        final long third = events / 3;
        try (Slipstream<Trade> pipeline = Slipstream.builder(Trade::new).name("dynamic").ringSize(1 << 12)
                .producers(ProducerType.SINGLE).waitStrategy(new YieldingWaitStrategy()).build()) {
            pipeline.handleEventsWith(StageSpec.of("journal", journal));
            pipeline.start();
            final long start = System.nanoTime();
            publish(pipeline, 0, third);
            // joins at the current cursor: it sees only what is published from here on
            final Stage auditStage = pipeline.addHandler(StageSpec.of("audit", audit));
            System.out.println("after adding: " + pipeline.describe());
            publish(pipeline, third, 2 * third);
            // stops after its current batch; the producer no longer waits for it
            final long unread = pipeline.removeStage(auditStage);
            System.out.println("audit left " + unread + " published trades unread when removed");
            publish(pipeline, 2 * third, events);
            pipeline.shutdown(Duration.ofSeconds(30)).requireClean();
            Examples.printThroughput("dynamic add/remove", events, start);
        }
        return new long[] {journalCount[0], auditCount[0]};
    }

    private static void publish(final Slipstream<Trade> pipeline, final long from, final long to) {
        for (long id = from; id < to; id++) {
            pipeline.publishEvent(Trade::fill, id);
        }
    }
}

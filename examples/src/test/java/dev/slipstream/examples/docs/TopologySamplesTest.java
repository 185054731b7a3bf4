package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.Stage;
import dev.slipstream.topology.StageRemoval;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.topology.TopologyDescription;
import dev.slipstream.wait.HybridWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import dev.slipstream.wait.SleepingWaitStrategy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/topology.md, as written there, run in order on one pipeline. */
class TopologySamplesTest {
    private final Support.Log log = new Support.Log();
    private final AtomicLong journalled = new AtomicLong();
    private final AtomicLong replicated = new AtomicLong();
    private final AtomicLong matched = new AtomicLong();
    private final AtomicLong published = new AtomicLong();
    private final AtomicLong audited = new AtomicLong();
    private final AtomicBoolean journalOnDaemon = new AtomicBoolean();
    private final EventHandler<Order> journal = (order, sequence, endOfBatch) -> {
        journalOnDaemon.set(Thread.currentThread().isDaemon());
        journalled.incrementAndGet();
    };
    private final EventHandler<Order> replicator = Support.counting(replicated);
    private final EventHandler<Order> matcher = Support.counting(matched);
    private final EventHandler<Order> publisher = Support.counting(published);
    private final EventHandler<Order> auditor = Support.counting(audited);

    @Test
    void buildWirePublishReconfigureDescribe() throws Exception {
        Slipstream<Order> pipeline = Slipstream.builder(Order::new)
                .name("orders")                                   // thread names: orders-<stage>
                .ringSize(4096)                                   // power of two (default 1024)
                .producers(ProducerType.MULTI)                    // default MULTI: always safe
                .waitStrategy(new HybridWaitStrategy())           // default: HybridWaitStrategy
                .producerWaitStrategy(ProducerWaitStrategies.defaultStrategy())
                .threadFactory(body -> {                          // see threads-and-pinning.md
                    Thread thread = new Thread(body);
                    thread.setDaemon(true);                       // as the default: a stuck stage
                    return thread;                                // cannot keep the JVM alive
                })
                .exceptionHandler(ExceptionHandlers.logAndContinue())
                .stallThreshold(Duration.ofSeconds(1))            // JFR stall events, see monitoring.md
                .build();
        pipeline.handleEventsWith(
                StageSpec.of("journal", journal).waitStrategy(new SleepingWaitStrategy()).maxBatchSize(512),
                StageSpec.of("replicate", replicator))
            .then(StageSpec.of("match", matcher).exceptionHandler(ExceptionHandlers.logAndContinue()))
            .then(StageSpec.of("market-data", publisher));
        pipeline.start();
        final long id = 1;
        final long price = 100;
        final long quantity = 5;
        RingBuffer<Order> ring = pipeline.ringBuffer();
        long sequence = ring.next();
        ring.get(sequence).set(id, price, quantity);
        ring.publish(sequence);
        Stage audit = pipeline.addHandler(StageSpec.of("audit", auditor));  // starts at the current cursor
        // ... later
        StageRemoval removal = pipeline.removeStage(audit, Duration.ofSeconds(2)); // halt, join, re-gate
        if (!removal.isRemoved()) {
            log.warn(removal.toString());   // its thread did not end: still in the pipeline, still gating
        }
        TopologyDescription graph = pipeline.describe();
        System.out.println(graph);              // orders: orders.ring -> journal, orders.ring -> replicate, ...
        System.out.println(graph.toMermaid());  // paste into Markdown
        System.out.println(graph.toDot());      // Graphviz
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertEquals(1, journalled.get());
        assertTrue(journalOnDaemon.get(), "the sample's thread factory makes daemon threads");
        assertEquals(1, replicated.get());
        assertEquals(1, matched.get());
        assertEquals(1, published.get());
        assertTrue(removal.isRemoved(), removal.toString());
        assertTrue(log.lines.isEmpty(), log.lines.toString());
        assertTrue(graph.toString().contains("journal"), graph.toString());
    }
}

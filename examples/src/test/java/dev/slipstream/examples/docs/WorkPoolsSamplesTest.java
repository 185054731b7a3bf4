package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.topology.QueueWorkerPool;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/work-pools.md, as written there. */
class WorkPoolsSamplesTest {
    @Test
    void ringFedPool() throws Exception {
        final AtomicLong decoded = new AtomicLong();
        final AtomicLong publishedCount = new AtomicLong();
        final EventHandler<Order> decoder = Support.counting(decoded);
        final EventHandler<Order> publisher = Support.counting(publishedCount);
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
        final long pricedBefore = Pricer.PRICED.get();
        pipeline.handleEventsWith(StageSpec.of("decode", decoder))
                .then(StageSpec.workerPool("pricers", new Pricer(), new Pricer(), new Pricer()))
                .then(StageSpec.of("publish", publisher));     // sees an event after its pricer finished it
        pipeline.start();
        for (long i = 0; i < 100; i++) {
            pipeline.publishEvent((order, sequence, id) -> order.set(id, 100, 1), i);
        }
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertEquals(100, decoded.get());
        assertEquals(100, Pricer.PRICED.get() - pricedBefore, "each order to exactly one pricer");
        assertEquals(100, publishedCount.get());
    }

    @Test
    void queueFedPool() throws Exception {
        final Job job = new Job(1);
        final long handledBefore = JobHandler.HANDLED.get();
        QueueWorkerPool<Job> pool = QueueWorkerPool.builder(new LscqQueue<Job>())
                .handlers(new JobHandler(), new JobHandler(), new JobHandler())
                .name("jobs")
                .build();
        pool.start();
        pool.offer(job);                                  // never blocks; wakes a worker only if needed
        ShutdownResult result = pool.shutdown(Duration.ofSeconds(5));   // drains the queue first
        assertTrue(result.isClean(), result.toString());
        assertEquals(1, JobHandler.HANDLED.get() - handledBefore);
    }
}

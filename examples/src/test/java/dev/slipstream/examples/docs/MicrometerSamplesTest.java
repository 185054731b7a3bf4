package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.micrometer.QueueMetrics;
import dev.slipstream.micrometer.SlipstreamMetrics;
import dev.slipstream.queue.ScqBlockingQueue;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The Micrometer sample of docs/guide/monitoring.md, as written there. */
class MicrometerSamplesTest {
    @Test
    void bindPipelineAndQueue() throws Exception {
        final MeterRegistry registry = new SimpleMeterRegistry();
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
        pipeline.handleEventsWith(StageSpec.of("journal", Support.<Order>counting(new AtomicLong())));
        final ScqBlockingQueue<Job> jobs = new ScqBlockingQueue<>(64);
        new SlipstreamMetrics(pipeline, Tags.of("service", "matching")).bindTo(registry);  // after wiring the stages
        new QueueMetrics("jobs", jobs).bindTo(registry);
        pipeline.start();
        pipeline.publishEvent((order, sequence, id) -> order.set(id, 100, 1), 1L);
        jobs.put(new Job(1));
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertEquals(1.0, registry.get("slipstream.stage.events").tags("stage", "journal").functionCounter().count());
        assertEquals(1.0, registry.get("slipstream.queue.size").tags("queue", "jobs").gauge().value());
        assertEquals(63.0, registry.get("slipstream.queue.remaining.capacity").tags("queue", "jobs").gauge().value());
    }
}

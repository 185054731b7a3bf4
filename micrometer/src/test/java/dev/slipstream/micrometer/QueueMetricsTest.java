package dev.slipstream.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.slipstream.queue.LscqBlockingQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqBlockingQueue;
import dev.slipstream.queue.ScqQueue;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Queue;
import org.junit.jupiter.api.Test;

class QueueMetricsTest {
    private static double gauge(final MeterRegistry registry, final String name, final String queue) {
        return registry.get(name).tags("queue", queue).gauge().value();
    }

    private static void fill(final Queue<String> queue, final int n) {
        for (int i = 0; i < n; i++) {
            queue.offer("e" + i);
        }
    }

    @Test
    void boundedQueuesReportSizeCapacityAndRemainingCapacity() {
        final MeterRegistry registry = new SimpleMeterRegistry();
        final ScqQueue<String> scq = new ScqQueue<>(16);
        final ScqBlockingQueue<String> blocking = new ScqBlockingQueue<>(32);
        new QueueMetrics("scq", scq, Tags.of("service", "test")).bindTo(registry);
        new QueueMetrics("scq-blocking", blocking).bindTo(registry);
        fill(scq, 5);
        fill(blocking, 7);
        assertEquals(5.0, gauge(registry, "slipstream.queue.size", "scq"));
        assertEquals(16.0, gauge(registry, "slipstream.queue.capacity", "scq"));
        assertEquals(11.0, gauge(registry, "slipstream.queue.remaining.capacity", "scq"));
        assertEquals(7.0, gauge(registry, "slipstream.queue.size", "scq-blocking"));
        assertEquals(32.0, gauge(registry, "slipstream.queue.capacity", "scq-blocking"));
        assertEquals(25.0, gauge(registry, "slipstream.queue.remaining.capacity", "scq-blocking"));
        scq.poll();
        assertEquals(12.0, gauge(registry, "slipstream.queue.remaining.capacity", "scq"));
        assertEquals(4.0, registry.get("slipstream.queue.size").tags("service", "test").gauge().value());
    }

    @Test
    void unboundedQueuesReportSizeOnly() {
        final MeterRegistry registry = new SimpleMeterRegistry();
        final LscqQueue<String> lscq = new LscqQueue<>();
        final LscqBlockingQueue<String> blocking = new LscqBlockingQueue<>();
        new QueueMetrics("lscq", lscq).bindTo(registry);
        new QueueMetrics("lscq-blocking", blocking).bindTo(registry);
        fill(lscq, 5000);
        fill(blocking, 3);
        assertEquals(5000.0, gauge(registry, "slipstream.queue.size", "lscq"));
        assertEquals(3.0, gauge(registry, "slipstream.queue.size", "lscq-blocking"));
        assertNull(registry.find("slipstream.queue.remaining.capacity").tags("queue", "lscq").gauge());
        assertNull(registry.find("slipstream.queue.capacity").tags("queue", "lscq-blocking").gauge());
    }

    @Test
    void rejectsNulls() {
        assertThrows(NullPointerException.class, () -> new QueueMetrics(null, new ScqQueue<String>(4)));
        assertThrows(NullPointerException.class, () -> new QueueMetrics("q", null));
        assertThrows(NullPointerException.class, () -> new QueueMetrics("q", new ScqQueue<String>(4), null));
    }
}

package dev.slipstream.micrometer;

import dev.slipstream.queue.ScqQueue;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;

/**
 * Binds the meters of one queue to a Micrometer registry: {@code slipstream.queue.size} and, for
 * a bounded queue, {@code slipstream.queue.remaining.capacity} and
 * {@code slipstream.queue.capacity}, each tagged {@code queue=<name>} and with the tags given.
 *
 * <p>Made for {@link ScqQueue}, {@link dev.slipstream.queue.ScqBlockingQueue},
 * {@link dev.slipstream.queue.LscqQueue} and {@link dev.slipstream.queue.LscqBlockingQueue}
 * (whose sizes are estimates while other threads operate, read without locking), and it works for
 * any {@link Queue}. A {@link BlockingQueue} reports its {@code remainingCapacity()}; an
 * {@code ScqQueue} its capacity less its size; an unbounded queue (remaining capacity
 * {@link Integer#MAX_VALUE}) has no capacity gauges. The gauges hold the queue through a weak
 * reference and read it only when the registry asks.
 *
 * <pre>{@code
 * ScqBlockingQueue<Job> jobs = new ScqBlockingQueue<>(1024);
 * new QueueMetrics("jobs", jobs).bindTo(registry);
 * }</pre>
 */
public final class QueueMetrics implements MeterBinder {
    private final Queue<?> queue;
    private final Iterable<Tag> tags;

    /**
     * Meters for a queue, tagged with its name only.
     *
     * @param name the queue's name, the value of the {@code queue} tag
     * @param queue the queue
     * @throws NullPointerException if an argument is null
     */
    public QueueMetrics(final String name, final Queue<?> queue) {
        this(name, queue, Tags.empty());
    }

    /**
     * Meters for a queue, tagged with its name and the given tags.
     *
     * @param name the queue's name, the value of the {@code queue} tag
     * @param queue the queue
     * @param tags extra tags for every meter
     * @throws NullPointerException if an argument is null
     */
    public QueueMetrics(final String name, final Queue<?> queue, final Iterable<Tag> tags) {
        this.queue = Objects.requireNonNull(queue, "queue must not be null");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags must not be null"), "queue",
                Objects.requireNonNull(name, "name must not be null"));
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry must not be null");
        Gauge.builder("slipstream.queue.size", queue, Queue::size)
                .description("Elements in the queue (an estimate while other threads operate)")
                .baseUnit("elements").tags(tags).register(registry);
        if (queue instanceof ScqQueue) {
            Gauge.builder("slipstream.queue.capacity", (ScqQueue<?>) queue, ScqQueue::capacity)
                    .description("Elements the queue can hold").baseUnit("elements").tags(tags).register(registry);
            Gauge.builder("slipstream.queue.remaining.capacity", (ScqQueue<?>) queue, q -> Math.max(0, q.capacity() - q.size()))
                    .description("Elements that could be offered now without the queue being full")
                    .baseUnit("elements").tags(tags).register(registry);
        } else if (queue instanceof BlockingQueue && ((BlockingQueue<?>) queue).remainingCapacity() != Integer.MAX_VALUE) {
            final BlockingQueue<?> blocking = (BlockingQueue<?>) queue;
            Gauge.builder("slipstream.queue.capacity", blocking, q -> q.size() + q.remainingCapacity())
                    .description("Elements the queue can hold").baseUnit("elements").tags(tags).register(registry);
            Gauge.builder("slipstream.queue.remaining.capacity", blocking, BlockingQueue::remainingCapacity)
                    .description("Elements that could be offered now without the queue being full")
                    .baseUnit("elements").tags(tags).register(registry);
        }
    }
}

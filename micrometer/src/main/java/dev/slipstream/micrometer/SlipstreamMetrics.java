package dev.slipstream.micrometer;

import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.topology.Slipstream;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * Binds the meters of one pipeline ({@link Slipstream}) to a Micrometer registry. Every meter
 * reads the pipeline's allocation-free getters when the registry asks for a value; the binder adds
 * no work and no allocation to publishing or handling events.
 *
 * <table>
 *   <caption>Meters (each tagged {@code pipeline=<name>} and with the tags given)</caption>
 *   <tr><th>name</th><th>type</th><th>what</th></tr>
 *   <tr><td>{@code slipstream.ring.size}</td><td>gauge</td><td>slots in the ring</td></tr>
 *   <tr><td>{@code slipstream.ring.remaining.capacity}</td><td>gauge</td><td>slots producers could claim now without waiting</td></tr>
 *   <tr><td>{@code slipstream.ring.cursor}</td><td>gauge</td><td>highest claimed or published sequence</td></tr>
 *   <tr><td>{@code slipstream.producer.waits}</td><td>function counter</td><td>claims that found the ring full and had to wait</td></tr>
 *   <tr><td>{@code slipstream.stage.lag}</td><td>gauge, tag {@code stage}</td><td>events the stage is behind the producers</td></tr>
 *   <tr><td>{@code slipstream.stage.sequence}</td><td>gauge, tag {@code stage}</td><td>last sequence the stage finished</td></tr>
 *   <tr><td>{@code slipstream.stage.workers}</td><td>gauge, tag {@code stage}</td><td>threads running the stage</td></tr>
 *   <tr><td>{@code slipstream.stage.events}</td><td>function counter, tag {@code stage}</td><td>events handled</td></tr>
 *   <tr><td>{@code slipstream.stage.batches}</td><td>function counter, tag {@code stage}</td><td>batches handled</td></tr>
 *   <tr><td>{@code slipstream.stage.exceptions}</td><td>function counter, tag {@code stage}</td><td>exceptions passed to the stage's exception handler</td></tr>
 * </table>
 *
 * <p>The meters hold the pipeline and its stage views through weak references, as Micrometer
 * does by default: a pipeline that is no longer used can be collected, and its gauges then read
 * {@code NaN}. Bind after the stages are wired; stages added later appear when {@link #bindTo}
 * is called again (meters already registered are kept, not duplicated).
 *
 * <pre>{@code
 * Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
 * pipeline.handleEventsWith(StageSpec.of("journal", journal)).then(StageSpec.of("match", matcher));
 * new SlipstreamMetrics(pipeline, Tags.of("service", "matching")).bindTo(registry);
 * pipeline.start();
 * }</pre>
 */
public final class SlipstreamMetrics implements MeterBinder {
    private final Slipstream<?> pipeline;
    private final Iterable<Tag> tags;

    /**
     * Meters for a pipeline, tagged with its name only.
     *
     * @param pipeline the pipeline
     * @throws NullPointerException if {@code pipeline} is null
     */
    public SlipstreamMetrics(final Slipstream<?> pipeline) {
        this(pipeline, Tags.empty());
    }

    /**
     * Meters for a pipeline, tagged with its name and the given tags.
     *
     * @param pipeline the pipeline
     * @param tags extra tags for every meter
     * @throws NullPointerException if an argument is null
     */
    public SlipstreamMetrics(final Slipstream<?> pipeline, final Iterable<Tag> tags) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline must not be null");
        this.tags = Tags.concat(Objects.requireNonNull(tags, "tags must not be null"), "pipeline", pipeline.name());
    }

    @Override
    public void bindTo(final MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry must not be null");
        final PipelineMetrics metrics = pipeline.metrics();
        Gauge.builder("slipstream.ring.size", metrics, PipelineMetrics::bufferSize)
                .description("Slots in the ring buffer").baseUnit("events").tags(tags).register(registry);
        Gauge.builder("slipstream.ring.remaining.capacity", metrics, PipelineMetrics::remainingCapacity)
                .description("Slots producers could claim now without waiting").baseUnit("events")
                .tags(tags).register(registry);
        Gauge.builder("slipstream.ring.cursor", metrics, PipelineMetrics::cursor)
                .description("Highest claimed (many producers) or published (one producer) sequence")
                .tags(tags).register(registry);
        FunctionCounter.builder("slipstream.producer.waits", pipeline.ringBuffer(), RingBuffer::producerWaitCount)
                .description("Claims that found the ring full and had to wait for a slot")
                .tags(tags).register(registry);
        for (final StageMetrics stage : metrics.stages()) {
            final Tags stageTags = Tags.concat(tags, "stage", stage.stageName());
            Gauge.builder("slipstream.stage.lag", stage, StageMetrics::lag)
                    .description("Events the stage is behind the producers").baseUnit("events")
                    .tags(stageTags).register(registry);
            Gauge.builder("slipstream.stage.sequence", stage, StageMetrics::sequence)
                    .description("Sequence of the last event the stage finished").tags(stageTags).register(registry);
            Gauge.builder("slipstream.stage.workers", stage, StageMetrics::workers)
                    .description("Threads running the stage").baseUnit("threads").tags(stageTags).register(registry);
            FunctionCounter.builder("slipstream.stage.events", stage, StageMetrics::eventsProcessed)
                    .description("Events handled by the stage, including those whose handler threw")
                    .baseUnit("events").tags(stageTags).register(registry);
            FunctionCounter.builder("slipstream.stage.batches", stage, StageMetrics::batchesProcessed)
                    .description("Batches handled by the stage").baseUnit("batches").tags(stageTags).register(registry);
            FunctionCounter.builder("slipstream.stage.exceptions", stage, StageMetrics::exceptionsHandled)
                    .description("Handler exceptions passed to the stage's exception handler")
                    .tags(stageTags).register(registry);
        }
    }
}

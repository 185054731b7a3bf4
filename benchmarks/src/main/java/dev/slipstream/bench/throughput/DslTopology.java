package dev.slipstream.bench.throughput;

import dev.slipstream.bench.ring.SlipstreamRing;
import dev.slipstream.bench.support.EventPlacement;
import dev.slipstream.bench.support.Threads;
import dev.slipstream.bench.support.ValueEvent;
import dev.slipstream.bench.wait.SlipWaits;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.topology.Slipstream;
import java.time.Duration;
import java.util.List;

/**
 * Slipstream through its public DSL: the five topologies built with {@link Slipstream}'s builder
 * and {@code handleEventsWith / then}, as a user writes them, with the same handlers as the
 * {@link RingTopology} on {@link SlipstreamRing} ({@link StageHandlers}) and the same
 * {@code next / get / publish} producer loop (on {@link Slipstream#ringBuffer()}). Compared with
 * that topology, it shows what the
 * DSL adds on the hot path: the wait strategy wrapped so that added stages are signalled too,
 * and the library's default producer wait (another one only when the system property
 * {@code bench.producerWait} names it, see {@link SlipWaits#producerWait()}).
 *
 * <pre>{@code
 * Topology t = new DslTopology(Shape.DIAMOND, "yielding", 65536);
 * }</pre>
 */
public final class DslTopology extends AbstractTopology {
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);

    private final Slipstream<ValueEvent> pipeline;
    private final RingBuffer<ValueEvent> ring;

    /** Builds the pipeline; no thread runs until {@link #start()}. */
    public DslTopology(final Shape shape, final String wait, final int ringSize) {
        super(shape, "slipstream-dsl");
        final Slipstream.Builder<ValueEvent> builder = Slipstream.builder(EventPlacement::newEvent);
        final ProducerWaitStrategy producerWait = SlipWaits.producerWait();
        if (producerWait != null) {
            builder.producerWaitStrategy(producerWait);
        }
        pipeline = builder
                .name("dsl-" + shape.id())
                .ringSize(ringSize)
                .producers(shape.producers() > 1 ? ProducerType.MULTI : ProducerType.SINGLE)
                .waitStrategy(SlipWaits.create(wait))
                .threadFactory(Threads::daemon)
                .build();
        final List<EventHandler<ValueEvent>> stages = StageHandlers.slipstream(shape, stageCounts, sinks);
        switch (shape) {
            case UNICAST, SEQUENCER -> pipeline.handleEventsWith(stages.get(0));
            case PIPELINE -> pipeline.handleEventsWith(stages.get(0)).then(stages.get(1)).then(stages.get(2));
            case MULTICAST -> pipeline.handleEventsWith(stages.get(0), stages.get(1), stages.get(2));
            case DIAMOND -> pipeline.handleEventsWith(stages.get(0), stages.get(1)).then(stages.get(2));
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        }
        ring = pipeline.ringBuffer();
    }

    @Override
    protected void publishRange(final int producer, final long first, final int n) {
        SlipstreamRing.INSTANCE.publishRange(ring, producer, first, n);
    }

    @Override
    protected void abort(final Throwable cause) {
        SlipstreamRing.INSTANCE.abort(ring, cause);
    }

    @Override
    protected void startStages() {
        pipeline.start();
    }

    @Override
    protected void stopStages() {
        // every published event has been consumed when a batch returns: nothing is left to drain,
        // and a shutdown that leaves something behind fails the benchmark
        pipeline.shutdown(STOP_TIMEOUT).requireClean();
    }
}

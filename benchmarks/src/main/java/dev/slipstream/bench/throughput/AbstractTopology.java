package dev.slipstream.bench.throughput;

import dev.slipstream.bench.support.BatchCount;
import dev.slipstream.bench.support.FailureSource;
import dev.slipstream.bench.support.Sink;
import dev.slipstream.bench.support.Work;


/**
 * What every implementation of a topology shares: the batch driver, the helper producers of
 * the sequencer shape, and the checksum checks. Subclasses wire the stages and publish.
 *
 * <p>Producer {@code p} publishes consecutive values from its own counter; producer 0 is the
 * benchmark thread, producers 1 and 2 (sequencer shape only) are helper threads started here
 * and released for each batch through a {@link ProducerCrew}.
 *
 * <pre>{@code
 * final class MyTopology extends AbstractTopology {
 *     MyTopology(Shape s) { super(s, "my"); }
 *     protected void publishRange(int producer, long first, int n) { ... }
 *     protected void startStages() { ... }
 *     protected void stopStages() { ... }
 * }
 * }</pre>
 */
public abstract class AbstractTopology implements Topology, FailureSource {
    /** The topology. */
    protected final Shape shape;
    /** The last stages; one, or three for multicast. */
    protected final Sink[] sinks;
    /** One batch counter per stage, in the order of {@link Shape#stageNames()}. */
    protected final BatchCount[] stageCounts;
    private final String label;
    private final long[] nextValue;
    private final long[] sumBefore;
    private long target;
    private ProducerCrew crew;

    /**
     * Creates the shared state.
     *
     * @param shape the topology
     * @param impl the implementation name, for messages
     */
    protected AbstractTopology(final Shape shape, final String impl) {
        this.shape = shape;
        this.label = impl + " " + shape.id();
        final int lastStages = shape == Shape.MULTICAST ? 3 : 1;
        sinks = new Sink[lastStages];
        for (int i = 0; i < lastStages; i++) {
            sinks[i] = new Sink(shape.producers());
        }
        stageCounts = new BatchCount[shape.consumers()];
        for (int i = 0; i < stageCounts.length; i++) {
            stageCounts[i] = new BatchCount();
        }
        nextValue = new long[shape.producers()];
        for (int p = 0; p < nextValue.length; p++) {
            nextValue[p] = 1;
        }
        sumBefore = new long[lastStages];
    }

    /**
     * Publishes {@code n} events with values {@code first .. first + n - 1}, tagged with
     * {@code producer}, waiting for space as the implementation does.
     *
     * @param producer the producer index (0 is the benchmark thread)
     * @param first the first value
     * @param n how many events
     */
    protected abstract void publishRange(int producer, long first, int n);

    /**
     * Called on the thread of a helper producer that failed: releases every other producer that
     * may be waiting for space that will never come, so the benchmark fails instead of hanging.
     * The default does nothing (the peer's producers cannot fail this way).
     *
     * @param cause what the producer failed with
     */
    protected void abort(final Throwable cause) {
    }

    /** Starts the consumer threads. */
    protected abstract void startStages();

    /** Stops and joins the consumer threads. */
    protected abstract void stopStages();

    @Override
    public final void start() {
        startStages();
        if (shape.producers() > 1) {
            crew = new ProducerCrew(shape.producers() - 1, this::publishRange, label, this::abort);
            crew.start();
        }
    }

    @Override
    public final void runBatch(final int n) {
        final int producers = shape.producers();
        if (n % producers != 0) {
            throw new IllegalArgumentException("batch size must be a multiple of " + producers + ", got " + n);
        }
        final int share = n / producers;
        long expected = 0;
        for (int i = 0; i < sinks.length; i++) {
            sumBefore[i] = sinks[i].sum();
        }
        for (int p = 0; p < producers; p++) {
            expected += Work.sumOfRange(nextValue[p], share);
        }
        if (crew != null) {
            crew.release(nextValue, share);
        }
        try {
            publishRange(0, nextValue[0], share);
        } catch (RuntimeException e) {
            final Throwable helperFailure = failure();
            if (helperFailure == null) {
                throw e;
            }
            final IllegalStateException failed = new IllegalStateException(label + ": a producer failed", helperFailure);
            failed.addSuppressed(e);
            throw failed;
        }
        for (int p = 0; p < producers; p++) {
            nextValue[p] += share;
        }
        target += n;
        if (shape == Shape.PIPELINE) {
            expected = Work.pipelineChecksum(expected, n);
        } else if (shape == Shape.DIAMOND) {
            expected = Work.diamondChecksum(expected, n);
        }
        for (int i = 0; i < sinks.length; i++) {
            sinks[i].await(target, label, this);
            Work.check(label, i, expected, sinks[i].sum() - sumBefore[i]);
            if (sinks[i].orderErrors() != 0) {
                throw new IllegalStateException("checksum mismatch in " + label + ": "
                        + sinks[i].orderErrors() + " events arrived out of their producer's order");
            }
        }
    }

    @Override
    public final BatchCount[] stageCounts() {
        return stageCounts.clone();
    }

    @Override
    public final Throwable failure() {
        return crew == null ? null : crew.failure();
    }

    @Override
    public final void close() {
        try {
            if (crew != null) {
                crew.stop();
            }
        } finally {
            stopStages();
        }
    }
}

package dev.slipstream.topology;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import java.util.List;
import java.util.stream.IntStream;

/** A work-pool stage: N workers, each event to one of them. */
final class PoolNode<E> extends StageNode<E> {
    private final WorkerPool<E> pool;
    private final Sequence[] sequences;

    PoolNode(final Slipstream<E> pipeline, final String name, final List<StageNode<E>> upstream,
             final WaitStrategy ownWaitStrategy, final SequenceBarrier barrier, final StageSpec<? super E> spec,
             final TrackingExceptionHandler<E> exceptionHandler) {
        super(pipeline, name, upstream, ownWaitStrategy, barrier, spec, exceptionHandler);
        final WorkerPool.Builder<E> builder = WorkerPool.builder(pipeline.ringBuffer())
                .name(name)
                .embedded()
                .barrier(barrier)
                .wakePolicy(spec.wakePolicy)
                .exceptionHandler(exceptionHandler);
        if (spec.maxBatchSize > 0) {
            builder.batchSize(spec.maxBatchSize);
        }
        builder.handlersFrom(spec.handlers);
        this.pool = builder.build();
        this.sequences = pool.getSequences();
    }

    @Override
    Sequence[] sequences() {
        return sequences;
    }

    @Override
    Runnable[] runnables() {
        return IntStream.range(0, pool.size()).mapToObj(pool::worker).toArray(Runnable[]::new);
    }

    @Override
    void startAfter(final long sequence) {
        pool.startAfter(sequence);
    }

    @Override
    void halt() {
        pool.halt();
    }

    @Override
    public long sequence() {
        return pool.getSequence();
    }

    @Override
    public long eventsProcessed() {
        return pool.eventsProcessed();
    }

    @Override
    public long batchesProcessed() {
        return pool.batchesProcessed();
    }

    @Override
    public long exceptionsHandled() {
        return pool.exceptionsHandled();
    }
}

package dev.slipstream.topology;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import java.util.List;

/** A stage that runs one handler on one thread through a batch event processor. */
final class HandlerNode<E> extends StageNode<E> {
    private final BatchEventProcessor<E> processor;
    private final Sequence[] sequences;

    HandlerNode(final Slipstream<E> pipeline, final String name, final List<StageNode<E>> upstream,
                final WaitStrategy ownWaitStrategy, final SequenceBarrier barrier, final StageSpec<? super E> spec,
                final TrackingExceptionHandler<E> exceptionHandler) {
        super(pipeline, name, upstream, ownWaitStrategy, barrier, spec, exceptionHandler);
        this.processor = new BatchEventProcessor<E>(pipeline.ringBuffer(), barrier, spec.handlers.get(0))
                .setName(pipeline.name() + "/" + name)
                .setExceptionHandler(exceptionHandler);
        if (spec.maxBatchSize > 0) {
            processor.setMaxBatchSize(spec.maxBatchSize);
        }
        if (spec.rewindStrategy != null) {
            processor.setRewindStrategy(spec.rewindStrategy);
        }
        this.sequences = new Sequence[] {processor.getSequence()};
    }

    @Override
    Sequence[] sequences() {
        return sequences;
    }

    @Override
    Runnable[] runnables() {
        return new Runnable[] {processor};
    }

    @Override
    void startAfter(final long sequence) {
        // release: the stage's thread, started later, reads it as its starting point
        processor.getSequence().set(sequence);
    }

    @Override
    void halt() {
        processor.halt();
    }

    @Override
    public long sequence() {
        return processor.getSequence().get();
    }

    @Override
    public long eventsProcessed() {
        return processor.eventsProcessed();
    }

    @Override
    public long batchesProcessed() {
        return processor.batchesProcessed();
    }

    @Override
    public long exceptionsHandled() {
        return processor.exceptionsHandled();
    }

    @Override
    long batchRewinds() {
        return processor.batchRewinds();
    }
}

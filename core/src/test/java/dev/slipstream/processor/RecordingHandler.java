package dev.slipstream.processor;

import dev.slipstream.sequence.Sequence;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * Records every callback. Read the lists after the processor's thread has been joined (the
 * join orders the writes before the reads), or use the latches while it runs.
 */
class RecordingHandler implements EventHandler<LongEvent> {
    final List<Long> sequences = new ArrayList<>();
    final List<Long> values = new ArrayList<>();
    final List<Long> endOfBatch = new ArrayList<>();
    final List<long[]> batchStarts = new ArrayList<>();
    /** The processor's sequence as the handler saw it during each event. */
    final List<Long> sequenceSeen = new ArrayList<>();
    final List<Long> timeouts = new ArrayList<>();
    final CountDownLatch started = new CountDownLatch(1);
    final CountDownLatch shutdown = new CountDownLatch(1);
    int starts;
    int shutdowns;
    Sequence observed;
    /** Thrown by onStart, after it has recorded the call, when set. */
    RuntimeException startFailure;
    /** Thrown by onShutdown, after it has recorded the call, when set. */
    RuntimeException shutdownFailure;

    @Override
    public void onEvent(final LongEvent event, final long sequence, final boolean endOfBatch) throws Exception {
        sequences.add(sequence);
        values.add(event.value);
        if (endOfBatch) {
            this.endOfBatch.add(sequence);
        }
        if (observed != null) {
            sequenceSeen.add(observed.get());
        }
    }

    @Override
    public void onStart() {
        starts++;
        started.countDown();
        throwIfSet(startFailure);
    }

    @Override
    public void onShutdown() {
        shutdowns++;
        shutdown.countDown();
        throwIfSet(shutdownFailure);
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth) {
        batchStarts.add(new long[] {batchSize, queueDepth});
    }

    @Override
    public void onTimeout(final long sequence) throws Exception {
        timeouts.add(sequence);
    }

    private static void throwIfSet(final RuntimeException failure) {
        if (failure != null) {
            throw failure;
        }
    }
}

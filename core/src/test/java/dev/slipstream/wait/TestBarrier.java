package dev.slipstream.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.SingleProducerSequencer;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;

/**
 * A barrier over a cursor and a dependent sequence the test moves by hand, so that a wait
 * strategy can be driven without a sequencer. Alerts are a real barrier's, over the same strategy.
 */
final class TestBarrier implements SequenceBarrier {
    final WaitStrategy waitStrategy;
    final Sequence cursor;
    final Sequence dependent;
    private final SequenceBarrier alerts;

    /** A barrier whose dependent sequence is the cursor itself (no upstream stage). */
    TestBarrier(final WaitStrategy waitStrategy) {
        this.waitStrategy = waitStrategy;
        this.cursor = new Sequence();
        this.dependent = cursor;
        this.alerts = new SingleProducerSequencer(1, waitStrategy).newBarrier();
    }

    /** A barrier behind an upstream stage whose sequence is {@code dependent}. */
    TestBarrier(final WaitStrategy waitStrategy, final Sequence cursor, final Sequence dependent) {
        this.waitStrategy = waitStrategy;
        this.cursor = cursor;
        this.dependent = dependent;
        this.alerts = new SingleProducerSequencer(1, waitStrategy).newBarrier();
    }

    /** Publishes up to {@code sequence} the way a single-producer sequencer does. */
    void publish(final long sequence) {
        cursor.set(sequence);
        waitStrategy.signalAllWhenBlocking();
    }

    @Override
    public long waitFor(final long sequence) throws AlertException, InterruptedException, TimeoutException {
        checkAlert();
        return waitStrategy.waitFor(sequence, cursor, dependent, this);
    }

    @Override
    public long getCursor() {
        return dependent.get();
    }

    @Override
    public boolean isAlerted() {
        return alerts.isAlerted();
    }

    @Override
    public void alert() {
        alerts.alert();
    }

    @Override
    public void clearAlert() {
        alerts.clearAlert();
    }

    @Override
    public void checkAlert() throws AlertException {
        alerts.checkAlert();
    }
}

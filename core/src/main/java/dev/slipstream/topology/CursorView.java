package dev.slipstream.topology;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.Sequencer;

/** A read-only sequence that follows a sequencer's cursor, for wait strategies that take one. */
final class CursorView extends Sequence {
    private final Sequencer sequencer;

    CursorView(final Sequencer sequencer) {
        this.sequencer = sequencer;
    }

    @Override
    public long get() {
        // acquire (inside getCursor): what the producers released before moving the cursor is visible
        return sequencer.getCursor();
    }

    @Override
    public long getVolatile() {
        return sequencer.getCursor();
    }

    @Override
    public long getPlain() {
        return sequencer.getCursor();
    }

    @Override
    public void set(final long value) {
        throw readOnly();
    }

    @Override
    public void setVolatile(final long value) {
        throw readOnly();
    }

    @Override
    public boolean compareAndSet(final long expected, final long newValue) {
        throw readOnly();
    }

    @Override
    public long getAndAdd(final long increment) {
        throw readOnly();
    }

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("a cursor view is read-only");
    }
}

package dev.slipstream.sequence;

/**
 * A sequence whose value is computed from other state (the minimum of several sequences, the
 * published prefix of a ring): it is read like any sequence, and every write throws.
 *
 * <pre>{@code
 * Sequence slowest = new SequenceGroup(first.getSequence(), second.getSequence());
 * long passedByBoth = slowest.get();
 * slowest.set(7);   // UnsupportedOperationException
 * }</pre>
 */
abstract class ReadOnlySequence extends Sequence {
    private final String whyReadOnly;

    /**
     * @param whyReadOnly the end of the exception message: what this sequence is, so a caller
     *     sees why it cannot be written
     */
    ReadOnlySequence(final String whyReadOnly) {
        this.whyReadOnly = whyReadOnly;
    }

    @Override
    public final void set(final long value) {
        throw readOnly();
    }

    @Override
    public final void setVolatile(final long value) {
        throw readOnly();
    }

    @Override
    public final boolean compareAndSet(final long expected, final long newValue) {
        throw readOnly();
    }

    @Override
    public final long getAndAdd(final long increment) {
        throw readOnly();
    }

    private UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("cannot write this sequence: " + whyReadOnly);
    }
}

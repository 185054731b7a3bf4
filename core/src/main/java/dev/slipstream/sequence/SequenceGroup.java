package dev.slipstream.sequence;

import java.util.Arrays;

/**
 * A read-only view of several sequences whose value is their minimum: what a stage that
 * depends on several upstream stages may read up to.
 *
 * <pre>{@code
 * Sequence upstream = new SequenceGroup(journal.getSequence(), replicator.getSequence());
 * long readable = upstream.get();   // the slower of the two
 * }</pre>
 */
public final class SequenceGroup extends Sequence {
    private final Sequence[] sequences;

    /**
     * Creates the group.
     *
     * @param sequences the sequences, at least one
     * @throws IllegalArgumentException if none is given
     * @throws NullPointerException if the array or one of its elements is null
     */
    public SequenceGroup(final Sequence... sequences) {
        if (sequences.length == 0) {
            throw new IllegalArgumentException("a SequenceGroup needs at least one sequence");
        }
        for (int i = 0; i < sequences.length; i++) {
            if (sequences[i] == null) {
                throw new NullPointerException("sequence " + i + " of the group is null");
            }
        }
        this.sequences = Arrays.copyOf(sequences, sequences.length);
    }

    /** @return the minimum of the group, read with acquire loads */
    @Override
    public long get() {
        return Sequences.minimum(sequences);
    }

    /** @return the minimum of the group, read with acquire loads */
    @Override
    public long getVolatile() {
        return Sequences.minimum(sequences);
    }

    /** @return the minimum of the group, read with acquire loads */
    @Override
    public long getPlain() {
        return Sequences.minimum(sequences);
    }

    /** @throws UnsupportedOperationException always: a group is read-only */
    @Override
    public void set(final long value) {
        throw readOnly();
    }

    /** @throws UnsupportedOperationException always: a group is read-only */
    @Override
    public void setVolatile(final long value) {
        throw readOnly();
    }

    /** @throws UnsupportedOperationException always: a group is read-only */
    @Override
    public boolean compareAndSet(final long expected, final long newValue) {
        throw readOnly();
    }

    /** @throws UnsupportedOperationException always: a group is read-only */
    @Override
    public long getAndAdd(final long increment) {
        throw readOnly();
    }

    /**
     * The number of sequences in the group.
     *
     * @return the size
     */
    public int size() {
        return sequences.length;
    }

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("a SequenceGroup is a read-only minimum of other sequences");
    }
}

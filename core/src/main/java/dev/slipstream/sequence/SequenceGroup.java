package dev.slipstream.sequence;

import java.util.Arrays;
import java.util.Objects;

/**
 * A read-only view of several sequences whose value is their minimum: what a stage that
 * depends on several upstream stages may read up to.
 *
 * <pre>{@code
 * Sequence upstream = new SequenceGroup(journal.getSequence(), replicator.getSequence());
 * long readable = upstream.get();   // the slower of the two
 * }</pre>
 */
public final class SequenceGroup extends ReadOnlySequence {
    private final Sequence[] sequences;

    /**
     * Creates the group.
     *
     * @param sequences the sequences, at least one
     * @throws IllegalArgumentException if none is given
     * @throws NullPointerException if the array or one of its elements is null
     */
    public SequenceGroup(final Sequence... sequences) {
        super("a SequenceGroup is the minimum of other sequences");
        if (sequences.length == 0) {
            throw new IllegalArgumentException("a SequenceGroup needs at least one sequence");
        }
        for (int i = 0; i < sequences.length; i++) {
            Objects.requireNonNull(sequences[i], "sequence " + i + " of the group is null");
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

    /**
     * The number of sequences in the group.
     *
     * @return the size
     */
    public int size() {
        return sequences.length;
    }
}

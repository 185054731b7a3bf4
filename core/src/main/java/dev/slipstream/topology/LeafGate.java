package dev.slipstream.topology;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.Sequences;

/**
 * The one gating sequence a pipeline registers with its ring: the minimum of the sequences of its
 * leaf stages (those no other stage follows), or, with no stage, where the last one stopped (-1 at
 * first), so that producers never pass events no stage has read. The pipeline swaps the set of leaves atomically when
 * stages are added or removed, and sets each new stage's starting sequence itself; a sequencer
 * that registers this view and sets it to its cursor changes nothing, which is the point.
 */
final class LeafGate extends Sequence {
    private static final Sequence[] NONE = new Sequence[0];

    /** Copy on write under the pipeline's lock; producers read a stable array. */
    private volatile Sequence[] leaves = NONE;
    /**
     * What the gate reads while there is no leaf: -1 before the first stage (nothing may be
     * overwritten: events published before any stage exists wait for it), then the sequence of the
     * last stage removed.
     */
    private volatile long floor = -1L;

    /** Sets what the gate holds at if no leaf is left; under the pipeline's lock, before setLeaves. */
    void holdAt(final long sequence) {
        // volatile store, ordered before the setLeaves store that may empty the leaves
        floor = sequence;
    }

    long floor() {
        return floor;
    }

    void setLeaves(final Sequence[] updated) {
        // volatile store: producers that read the new array read the new stages' starting values,
        // which were released before this store
        leaves = updated;
    }

    Sequence[] leaves() {
        return leaves;
    }

    @Override
    public long get() {
        // acquire loads of each leaf: a producer that sees a stage past a slot sees its reads done
        final Sequence[] current = leaves;
        return current.length == 0 ? floor : Sequences.minimum(current, Long.MAX_VALUE);
    }

    @Override
    public long getVolatile() {
        return get();
    }

    @Override
    public long getPlain() {
        return get();
    }

    /** Ignored: the pipeline sets its stages' sequences itself. */
    @Override
    public void set(final long value) {
    }

    /** Ignored: the pipeline sets its stages' sequences itself. */
    @Override
    public void setVolatile(final long value) {
    }

    @Override
    public boolean compareAndSet(final long expected, final long newValue) {
        throw new UnsupportedOperationException("the pipeline's gate is a read-only view of its leaf stages");
    }

    @Override
    public long getAndAdd(final long increment) {
        throw new UnsupportedOperationException("the pipeline's gate is a read-only view of its leaf stages");
    }

    @Override
    public String toString() {
        return Long.toString(get());
    }
}

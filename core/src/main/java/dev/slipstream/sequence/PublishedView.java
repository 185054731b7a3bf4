package dev.slipstream.sequence;

import java.lang.invoke.VarHandle;

/**
 * A read-only sequence whose value is the highest published sequence of a ring whose cursor
 * counts claims (many producers): what a consumer waits on while a claimed slot is still being
 * written. Wait strategies only read it, through {@link #get()} and {@link #getVolatile()}.
 *
 * <p>It holds no per-waiter state, so one view serves every thread sharing a barrier (a work
 * pool's workers). Its scan starts at the slowest consumer and stops at the first unpublished
 * slot, so it is short while consumers keep up.
 */
final class PublishedView extends ReadOnlySequence {
    private final SequenceBarrier barrier;

    PublishedView(final SequenceBarrier barrier) {
        super("it is a view of the ring's published prefix");
        this.barrier = barrier;
    }

    @Override
    public long get() {
        // acquire loads of the cursor and of the availability flags (inside getCursor): an
        // event counted here is visible
        return barrier.getCursor();
    }

    @Override
    public long getVolatile() {
        // full fence first: wait strategies use this load as the second half of a StoreLoad pair
        VarHandle.fullFence();
        return barrier.getCursor();
    }

    @Override
    public long getPlain() {
        return get();
    }
}

package dev.slipstream.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A copy of {@link SegmentPretoucher}'s hand-over (no thread: the model check calls the steps)
 * with one ordering or check removed, to show that {@link SpareHandoverLincheckTest} catches it.
 */
final class MutantPretoucher {
    enum Bug {
        /** The spare is published before its pages are touched: the toucher can overwrite the writer's bytes. */
        PUBLISH_BEFORE_TOUCH,
        /** No stop check after publishing: a spare published while close runs is never disposed. */
        NO_STOP_RECHECK
    }

    private static final VarHandle READY;
    private static final VarHandle STOPPING;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            READY = lookup.findVarHandle(MutantPretoucher.class, "ready", SpareSegment.class);
            STOPPING = lookup.findVarHandle(MutantPretoucher.class, "stopping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SegmentPretoucher.Spares spares;
    private final Bug bug;
    @SuppressWarnings("unused")
    private SpareSegment ready;
    @SuppressWarnings("unused")
    private boolean stopping;

    MutantPretoucher(final SegmentPretoucher.Spares spares, final Bug bug) {
        this.spares = spares;
        this.bug = bug;
    }

    SpareSegment takeReady() {
        return (SpareSegment) READY.getAndSet(this, null);
    }

    boolean prepareOne() {
        if ((boolean) STOPPING.getVolatile(this) || READY.getAcquire(this) != null) {
            return false;
        }
        final SpareSegment spare = spares.create();
        if (bug == Bug.PUBLISH_BEFORE_TOUCH) {
            READY.setVolatile(this, spare);
        }
        final ByteBuffer pages = spare.pages();
        for (int offset = 0; offset < pages.capacity(); offset += Segment.PAGE) {
            if ((boolean) STOPPING.getVolatile(this)) {
                if (bug != Bug.PUBLISH_BEFORE_TOUCH) {
                    spares.dispose(spare);
                }
                return false;
            }
            pages.put(offset, (byte) 0);
        }
        if (bug == Bug.PUBLISH_BEFORE_TOUCH) {
            return true;
        }
        READY.setVolatile(this, spare);
        if (bug != Bug.NO_STOP_RECHECK && (boolean) STOPPING.getVolatile(this)) {
            final SpareSegment back = (SpareSegment) READY.getAndSet(this, null);
            if (back != null) {
                spares.dispose(back);
            }
        }
        return true;
    }

    void close() {
        STOPPING.setVolatile(this, true);
        final SpareSegment left = (SpareSegment) READY.getAndSet(this, null);
        if (left != null) {
            spares.dispose(left);
        }
    }
}

package dev.slipstream.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * Keeps the next {@link #WINDOW} bytes after the writer's position touched in the segment the
 * writer is filling, on the pretoucher's thread, so that the page fault of each first write to a
 * 4 KiB page is taken there and not on the writer's thread, while the pages made dirty stay about
 * what the writer writes anyway (touching a whole segment at once dirties all of it, and its
 * writeback then competes with the pipeline).
 *
 * <p>A touch is a compare-and-set of a page's first int from zero to zero: it makes the page
 * resident and writable and never changes a byte, even when the writer has already written there.
 *
 * <p>The mappings' lifetime: the toucher may be touching the segment the writer has just left, so
 * the writer does not unmap it: it {@link #retire retires} it, and the toucher's thread unmaps it
 * after its step, once it can no longer be touching it (the writer announces its next segment
 * before it retires the last, so a toucher that has taken a retired mapping from the queue reads
 * the next one from then on). Once the toucher has {@link #stop stopped}, the writer unmaps
 * itself.
 *
 * <p>Thread use: {@link #follow}, {@link #writerAt} and {@link #retire} by the writer;
 * {@link #step} by the pretoucher's thread (or a model check); {@link #stop} by that thread when it
 * ends, or by the journal's owner after joining it.
 */
final class AheadToucher {
    /** Touches one page of a mapping: {@link Segment#casPageWord} (a check of the mapping's life in a model check). */
    interface PageTouch {
        void touch(ByteBuffer pages, int offset);
    }

    /** How far ahead of the writer the pages are kept touched: 26 ms of 64-byte records at 1M/s. */
    static final int WINDOW = 2 << 20;
    /** The shortest park between steps: the writer at 1M records/s moves 80 KiB in it. */
    static final long MIN_PARK_NANOS = 1_000_000L;
    /**
     * The longest park between steps, for a writer that moves under 1/32 of the window in it (under
     * 1 MB/s): fewer wake-ups where the pipeline's threads need the CPUs more than the toucher does.
     */
    static final long MAX_PARK_NANOS = 64_000_000L;

    private static final VarHandle LIVE;
    private static final VarHandle WRITER_AT;
    private static final VarHandle STOPPED;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            LIVE = lookup.findVarHandle(AheadToucher.class, "live", ByteBuffer.class);
            WRITER_AT = lookup.findVarHandle(AheadToucher.class, "writerAt", int.class);
            STOPPED = lookup.findVarHandle(AheadToucher.class, "stopped", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int window;
    private final PageTouch touch;
    private final Consumer<ByteBuffer> unmapper;
    /** Mappings the writer has left, for the toucher's thread to unmap. */
    private final ConcurrentLinkedQueue<ByteBuffer> retired = new ConcurrentLinkedQueue<>();
    @SuppressWarnings("unused") // accessed through LIVE
    private ByteBuffer live;
    @SuppressWarnings("unused") // accessed through WRITER_AT
    private int writerAt;
    @SuppressWarnings("unused") // accessed through STOPPED
    private boolean stopped;
    /** The toucher's thread only: the mapping it touched last, how far, and the writer's pace. */
    private ByteBuffer touching;
    private int touchedTo;
    private int lastAt;
    private long parkNanos = MIN_PARK_NANOS;

    /**
     * @param window bytes kept touched after the writer's position (a multiple of the page)
     * @param touch touches a page
     * @param unmapper unmaps a mapping ({@code Unmapper::unmap}; a marker in a model check)
     */
    AheadToucher(final int window, final PageTouch touch, final Consumer<ByteBuffer> unmapper) {
        this.window = window;
        this.touch = touch;
        this.unmapper = unmapper;
    }

    /** The writer's side: it writes {@code mapping} from {@code position} on. */
    void follow(final ByteBuffer mapping, final int position) {
        writerAt(position);
        // release, after the position: a toucher that sees the new mapping sees its position too
        LIVE.setRelease(this, mapping);
    }

    /** The writer's side, at each batch's end: how far it has written. */
    void writerAt(final int position) {
        // opaque: the toucher needs a recent position, not the bytes before it (it never reads them)
        WRITER_AT.setOpaque(this, position);
    }

    /**
     * The writer's side, after {@link #follow} has announced the next mapping: the mapping it
     * left, unmapped by the toucher's thread, or here if the toucher has stopped.
     */
    void retire(final ByteBuffer mapping) {
        if (lvStopped()) {
            unmapper.accept(mapping);
            return;
        }
        retired.offer(mapping);
        if (lvStopped()) {
            // the toucher stopped after the look above and may have emptied the queue before the
            // offer: no toucher touches anything any more, so the writer unmaps what is left
            unmapRetired();
        }
    }

    /**
     * The toucher's step: touches the pages from the writer's position to {@link #WINDOW} after it
     * that it has not touched yet, then unmaps the mappings the writer has retired.
     *
     * @return true if it touched or unmapped anything
     */
    boolean step() {
        // the touch first, the unmapping after: a mapping taken from the queue is never the one
        // read here (the writer announced its successor before retiring it)
        return touchAhead(lvLive()) | unmapRetired();
    }

    /** The mapping the writer last announced, or null before the first. */
    ByteBuffer lvLive() {
        // acquire: pairs with the release in follow (the mapping's position is the one stored before it)
        return (ByteBuffer) LIVE.getAcquire(this);
    }

    /** Touches the pages of {@code target} from the writer's position to the window's end not touched yet. */
    boolean touchAhead(final ByteBuffer target) {
        if (target == null) {
            return false;
        }
        final int at = (int) WRITER_AT.getOpaque(this);
        if (target != touching) {
            touching = target;
            touchedTo = 0;
            // a new segment: the writer's pace is not known in it yet, so look again soon
            parkNanos = MIN_PARK_NANOS;
        } else {
            pace(at - lastAt);
        }
        lastAt = at;
        final int to = (int) Math.min(target.capacity(), (long) at + window);
        boolean worked = false;
        for (int offset = Math.max(touchedTo, at & -Segment.PAGE); offset < to; offset += Segment.PAGE) {
            touch.touch(target, offset);
            touchedTo = offset + Segment.PAGE;
            worked = true;
        }
        return worked;
    }

    /**
     * Halves the park when the writer moved more than 1/8 of the window since the last step,
     * doubles it when it moved less than 1/32: at 1M records/s about 2 ms, at 10k/s 64 ms.
     */
    private void pace(final int advanced) {
        if (advanced > window / 8) {
            parkNanos = Math.max(MIN_PARK_NANOS, parkNanos / 2);
        } else if (advanced < window / 32) {
            parkNanos = Math.min(MAX_PARK_NANOS, parkNanos * 2);
        }
    }

    /** How long the toucher's thread may park after its step and keep ahead of the writer's pace. */
    long parkNanos() {
        return parkNanos;
    }

    /**
     * Marks the toucher stopped (the writer unmaps for itself from then on) and unmaps what is
     * retired. Called on the toucher's thread as it ends, or after it has been joined. Idempotent.
     */
    void stop() {
        // volatile: ordered before the queue is emptied below, against the writer's offer and look
        STOPPED.setVolatile(this, true);
        unmapRetired();
    }

    /** Unmaps the mappings the writer has retired. */
    boolean unmapRetired() {
        boolean any = false;
        for (ByteBuffer mapping = retired.poll(); mapping != null; mapping = retired.poll()) {
            unmapper.accept(mapping);
            any = true;
        }
        return any;
    }

    private boolean lvStopped() {
        // volatile: pairs with stop(): one of the writer and the stopping toucher sees the other
        return (boolean) STOPPED.getVolatile(this);
    }
}

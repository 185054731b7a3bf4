package dev.slipstream.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps one {@link SpareSegment} ready for the writer, made on a daemon thread of its own, its
 * first pages touched, and runs the {@link AheadToucher} on the same thread: the file creation and
 * the minor page fault of each first write to a page (one per 4 KiB) are taken here and not on the
 * writer's thread. Used when {@link JournalConfig#pretouch(boolean)} is on.
 *
 * <p>The hand-over is safe by construction: the pretoucher writes only a spare that nobody else
 * can reach yet (a new file, every byte zero, so writing zero destroys nothing), then publishes it
 * in {@code ready}; after that it never touches it again. The writer takes it with an exchange
 * and writes it only from then on. The writer never waits: with no spare ready it creates its
 * segment itself, as without a pretoucher. {@link #close()} stops and joins the thread before it
 * disposes (unmaps and deletes) the spare left in {@code ready}; a spare still being touched is
 * disposed by the thread itself, its only owner.
 *
 * <p>Thread use: {@link #takeReady()} by the writer, {@link #close()} by the journal's owner after
 * the writer has stopped; {@link #prepareOne()} by the pretoucher's thread (or a model check).
 */
final class SegmentPretoucher implements AutoCloseable {
    /** Makes and removes spares: files in the journal's directory, or heap buffers in a model check. */
    interface Spares {
        SpareSegment create();

        void dispose(SpareSegment spare);
    }

    /** Told of each page as it is touched: a test's way to act while a spare is half touched. */
    interface PageListener {
        PageListener NONE = offset -> { };

        void touched(int offset);
    }

    private static final System.Logger LOG = System.getLogger(SegmentPretoucher.class.getName());
    /** How long the thread parks between spares when it has no {@link AheadToucher}. */
    private static final long IDLE_PARK_NANOS = 2_000_000L;
    private static final VarHandle READY;
    private static final VarHandle STOPPING;

    static {
        try {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            READY = lookup.findVarHandle(SegmentPretoucher.class, "ready", SpareSegment.class);
            STOPPING = lookup.findVarHandle(SegmentPretoucher.class, "stopping", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Spares spares;
    private final PageListener listener;
    /** Null in a model check of the spares' hand-over alone. */
    private final AheadToucher ahead;
    /** How many bytes of a spare are touched before it is published. */
    private final int spareTouch;
    private final Thread thread;
    /** The spare the writer may take; null while none is ready. */
    @SuppressWarnings("unused") // accessed through READY
    private SpareSegment ready;
    @SuppressWarnings("unused") // accessed through STOPPING
    private boolean stopping;
    private boolean closed;
    /** Spares the writer has taken; the writer's thread only. */
    private long taken;

    /**
     * @param spares makes and removes the spares
     * @param threadName the name of the thread, or null for no thread ({@link #prepareOne()} called directly)
     * @param listener told of each page touched
     */
    SegmentPretoucher(final Spares spares, final String threadName, final PageListener listener) {
        this(spares, threadName, listener, null, Integer.MAX_VALUE);
    }

    /**
     * @param spares makes and removes the spares
     * @param threadName the name of the thread, or null for no thread (the steps called directly)
     * @param listener told of each page touched in a spare
     * @param ahead the toucher that follows the writer, run between the spares, or null
     * @param spareTouch how many bytes of each spare are touched before it is published
     */
    SegmentPretoucher(final Spares spares, final String threadName, final PageListener listener,
                      final AheadToucher ahead, final int spareTouch) {
        this.spares = spares;
        this.listener = listener;
        this.ahead = ahead;
        this.spareTouch = spareTouch;
        if (threadName == null) {
            this.thread = null;
        } else {
            this.thread = new Thread(this::run, threadName);
            this.thread.setDaemon(true);
        }
    }

    /** Starts the thread, which makes the first spare at once. */
    void start() {
        thread.start();
    }

    /**
     * The writer's side: the ready spare, or null if none is ready (the writer then makes its own
     * segment). Asks the thread for the next one.
     */
    SpareSegment takeReady() {
        final SpareSegment spare = xchgReady(null);
        if (spare != null) {
            taken++;
            if (thread != null) {
                LockSupport.unpark(thread);
            }
        }
        return spare;
    }

    /**
     * The pretoucher's step: if no spare is ready and no stop is asked, makes one, touches its
     * pages up to the configured length (every page in a model check) and publishes it.
     *
     * @return true if a spare was published
     */
    boolean prepareOne() {
        if (lvStopping() || lvReady() != null) {
            return false;
        }
        final SpareSegment spare = spares.create();
        final ByteBuffer pages = spare.pages();
        final int end = Math.min(pages.capacity(), spareTouch);
        for (int offset = 0; offset < end; offset += Segment.PAGE) {
            if (lvStopping()) {
                spares.dispose(spare);
                return false;
            }
            // a plain write is enough: nobody else can reach this spare before svReady below
            pages.put(offset, (byte) 0);
            listener.touched(offset);
        }
        svReady(spare);
        if (lvStopping()) {
            // a close that ran since the check above may have looked at ready before the store:
            // take the spare back unless close has it already (the exchange decides which of the two)
            final SpareSegment back = xchgReady(null);
            if (back != null) {
                spares.dispose(back);
            }
        }
        return true;
    }

    private void run() {
        try {
            while (!lvStopping()) {
                // the stop check comes after the step and before the park: an unpark from close may
                // have been used up by a wait inside the step (file system calls, a listener), so
                // the park must not be what notices a stop asked for before it
                prepareOne();
                final long park = ahead == null ? IDLE_PARK_NANOS : stepAhead();
                if (!lvStopping()) {
                    // a taken spare unparks it early
                    LockSupport.parkNanos(this, park);
                }
            }
        } catch (RuntimeException | Error e) {
            // the writer makes its own segments and takes its own faults from here on
            LOG.log(System.Logger.Level.WARNING, "journal pretoucher " + thread.getName()
                    + " stopped: the writer creates its segments itself from now on", e);
        } finally {
            if (ahead != null) {
                ahead.stop();
            }
        }
    }

    private long stepAhead() {
        ahead.step();
        return ahead.parkNanos();
    }

    /** How many spares the writer has taken: read on the writer's thread (tests). */
    long taken() {
        return taken;
    }

    /** Whether a spare is ready now (tests wait for it before a roll that must use it). */
    boolean hasReady() {
        return lvReady() != null;
    }

    /** Stops and joins the thread, then disposes the spare no writer took. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        svStopping(true);
        if (thread != null) {
            LockSupport.unpark(thread);
            joinUninterruptibly(thread);
        }
        if (ahead != null) {
            ahead.stop();
        }
        final SpareSegment left = xchgReady(null);
        if (left != null) {
            spares.dispose(left);
        }
    }

    private static void joinUninterruptibly(final Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private SpareSegment lvReady() {
        // acquire: a spare seen here was published whole (only whether one is there matters)
        return (SpareSegment) READY.getAcquire(this);
    }

    private void svReady(final SpareSegment spare) {
        // volatile, not only release: the pages written above are seen by whoever takes the spare,
        // and this store is ordered before the stop check that follows it (close stores stopping
        // and then exchanges ready: one of the two sides sees the other)
        READY.setVolatile(this, spare);
    }

    private SpareSegment xchgReady(final SpareSegment value) {
        // volatile exchange: the writer's acquire of the toucher's pages; exactly one of writer,
        // close and the toucher gets a given spare
        return (SpareSegment) READY.getAndSet(this, value);
    }

    private boolean lvStopping() {
        // volatile: pairs with svStopping in close (a store then an exchange, see svReady)
        return (boolean) STOPPING.getVolatile(this);
    }

    private void svStopping(final boolean value) {
        // volatile: ordered before close's exchange of ready
        STOPPING.setVolatile(this, value);
    }
}

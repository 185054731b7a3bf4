package dev.slipstream.journal;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model check of the pretoucher's hand-over ({@link SegmentPretoucher}, its thread left out: the
 * toucher's step, the writer's take and the owner's close are the operations: the step on a thread
 * of its own, close on the writer's as the journal's contract has it). Spares are heap buffers of
 * two pages. In every interleaving the results must match a sequential order of the same calls ({@link Spec}): a spare the writer takes is touched whole and
 * no one writes it after the writer's own bytes (the writer reads back every byte it wrote); and
 * once close has returned and every call has ended, no spare is left that was neither taken nor
 * disposed ({@link #noSpareOutlivesClose()}).
 */
@Tag("scaled")
public class SpareHandoverLincheckTest {
    static final int PAGES = 2;

    private final HeapSpares spares = new HeapSpares();
    private final Handover handover = create(spares);
    /** Read between the writer's writes and its read-back: a point where the checker may switch threads. */
    private volatile int writerStep;
    private boolean closed;

    /** The protocol under check, behind the three calls the model makes. */
    interface Handover {
        boolean prepare();

        SpareSegment take();

        void close();
    }

    Handover create(final SegmentPretoucher.Spares made) {
        final SegmentPretoucher pretoucher = new SegmentPretoucher(made, null, SegmentPretoucher.PageListener.NONE);
        return new Handover() {
            @Override
            public boolean prepare() {
                return pretoucher.prepareOne();
            }

            @Override
            public SpareSegment take() {
                return pretoucher.takeReady();
            }

            @Override
            public void close() {
                pretoucher.close();
            }
        };
    }

    /** The toucher's step. */
    @Operation(nonParallelGroup = "toucher")
    public boolean prepare() {
        return handover.prepare();
    }

    /**
     * The writer: takes a spare, writes a byte into each page, reads them back; the pages intact, or
     * -1. A closed journal's writer refuses to write before it would roll (JournalWriter.claim).
     */
    @Operation(nonParallelGroup = "writer")
    public int take() {
        if (closed) {
            return -1;
        }
        final SpareSegment spare = handover.take();
        if (spare == null) {
            return -1;
        }
        spares.taken.incrementAndGet();
        final ByteBuffer pages = spare.pages();
        for (int p = 0; p < PAGES; p++) {
            pages.put(p * Segment.PAGE, (byte) 1);
            writerStep++;
        }
        int intact = 0;
        for (int p = 0; p < PAGES; p++) {
            writerStep++;
            intact += pages.get(p * Segment.PAGE) == 1 ? 1 : 0;
        }
        return intact;
    }

    /** The owner's close: after the writer has stopped (the journal's contract), so on the writer's thread here. */
    @Operation(nonParallelGroup = "writer")
    public void close() {
        handover.close();
        closed = true;
    }

    /**
     * After every call has ended (the journal's close joins the toucher's thread): once closed,
     * every spare made was taken by the writer or disposed.
     */
    @Validate
    public void noSpareOutlivesClose() {
        if (closed && spares.leftover() != 0) {
            throw new IllegalStateException("spare left after close: made " + spares.made + ", disposed "
                    + spares.disposed + ", taken " + spares.taken);
        }
    }

    /** The sequential meaning. */
    public static class Spec {
        private boolean ready;
        private boolean closed;

        public boolean prepare() {
            if (closed || ready) {
                return false;
            }
            ready = true;
            return true;
        }

        public int take() {
            if (!ready) {
                return -1;
            }
            ready = false;
            return PAGES;
        }

        public void close() {
            closed = true;
            ready = false;
        }

    }

    /** Heap spares that count what is made, disposed and taken (atomically: two threads may dispose at once). */
    static final class HeapSpares implements SegmentPretoucher.Spares {
        final AtomicInteger made = new AtomicInteger();
        final AtomicInteger disposed = new AtomicInteger();
        final AtomicInteger taken = new AtomicInteger();

        @Override
        public SpareSegment create() {
            made.incrementAndGet();
            return new SpareSegment(null, ByteBuffer.allocate(PAGES * Segment.PAGE));
        }

        @Override
        public void dispose(final SpareSegment spare) {
            disposed.incrementAndGet();
        }

        int leftover() {
            return made.get() - disposed.get() - taken.get();
        }
    }

    @Test
    public void modelChecking() {
        options().check(getClass());
    }

    @Test
    @Tag("stress")
    public void theModelCheckCatchesASparePublishedBeforeItIsTouched() {
        ModelChecks.assertCaught(options(), PublishBeforeTouch.class, "Invalid execution results");
    }

    @Test
    @Tag("stress")
    public void theModelCheckCatchesAStepThatDoesNotLookForACloseAfterPublishing() {
        ModelChecks.assertCaught(options(), NoStopRecheck.class, "spare left after close");
    }

    private static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                // 4 in every build, 15 with -Pstress, 200 with -Dslipstream.stress.long=true
                .iterations(Boolean.getBoolean("slipstream.stress.long") ? 200 : Boolean.getBoolean("slipstream.stress") ? 15 : 4)
                .invocationsPerIteration(1_000)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(1)
                .sequentialSpecification(Spec.class);
    }

    /** The mutant that publishes a spare before touching it (model-checked by the test above, not a JUnit class of its own). */
    @Disabled("a deliberate mutant, model-checked by theModelCheckCatchesASparePublishedBeforeItIsTouched")
    public static class PublishBeforeTouch extends SpareHandoverLincheckTest {
        @Override
        Handover create(final SegmentPretoucher.Spares made) {
            return mutant(made, MutantPretoucher.Bug.PUBLISH_BEFORE_TOUCH);
        }
    }

    /** The mutant whose step does not look for a close after publishing. */
    @Disabled("a deliberate mutant, model-checked by theModelCheckCatchesAStepThatDoesNotLookForACloseAfterPublishing")
    public static class NoStopRecheck extends SpareHandoverLincheckTest {
        @Override
        Handover create(final SegmentPretoucher.Spares made) {
            return mutant(made, MutantPretoucher.Bug.NO_STOP_RECHECK);
        }
    }

    static Handover mutant(final SegmentPretoucher.Spares made, final MutantPretoucher.Bug bug) {
        final MutantPretoucher m = new MutantPretoucher(made, bug);
        return new Handover() {
            @Override
            public boolean prepare() {
                return m.prepareOne();
            }

            @Override
            public SpareSegment take() {
                return m.takeReady();
            }

            @Override
            public void close() {
                m.close();
            }
        };
    }
}

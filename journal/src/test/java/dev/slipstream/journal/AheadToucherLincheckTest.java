package dev.slipstream.journal;

import java.nio.ByteBuffer;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model check of the {@link AheadToucher}'s mappings' lifetime: the writer rolls (announces its
 * next mapping, then retires the one it left, as {@code JournalWriter.roll} does) and moves its
 * position; the toucher's thread steps and, once, stops. Mappings are heap buffers of three pages;
 * unmapping one marks it. In every interleaving no page is touched in a mapping after it was
 * unmapped, and once the toucher has stopped and every call has ended, every retired mapping was
 * unmapped exactly once.
 */
@Tag("scaled")
public class AheadToucherLincheckTest {
    static final int PAGES = 3;

    /** Each mapping made, and how many times it was unmapped (a roll per operation at most). */
    private final ByteBuffer[] made = new ByteBuffer[16];
    private final int[] unmaps = new int[16];
    private int count;
    private final AheadToucher toucher = new AheadToucher(2 * Segment.PAGE, this::touch, this::unmap);
    private ByteBuffer current = mapping();
    private int retired;
    private volatile boolean touchedAfterUnmap;
    private boolean stopped;
    private int position;

    public AheadToucherLincheckTest() {
        toucher.follow(current, 0);
    }

    /** Made on the writer's thread only (and in the constructor). */
    private ByteBuffer mapping() {
        final ByteBuffer pages = ByteBuffer.allocate(PAGES * Segment.PAGE);
        made[count] = pages;
        count++;
        return pages;
    }

    private synchronized int indexOf(final ByteBuffer pages) {
        for (int i = 0; i < made.length; i++) {
            if (made[i] == pages) {
                return i;
            }
        }
        throw new IllegalStateException("a mapping the writer never made");
    }

    private void touch(final ByteBuffer pages, final int offset) {
        if (unmapCount(pages) != 0) {
            touchedAfterUnmap = true;
        }
        pages.put(offset, pages.get(offset));
    }

    private synchronized int unmapCount(final ByteBuffer pages) {
        return unmaps[indexOf(pages)];
    }

    private synchronized void unmap(final ByteBuffer pages) {
        unmaps[indexOf(pages)]++;
    }

    /** The writer's roll, in {@code JournalWriter}'s order: the next mapping announced, then the last retired. */
    void roll(final ByteBuffer left, final ByteBuffer next) {
        toucher.follow(next, 0);
        toucher.retire(left);
    }

    @Operation(nonParallelGroup = "writer")
    public void roll() {
        final ByteBuffer left = current;
        current = mapping();
        position = 0;
        retired++;
        roll(left, current);
    }

    @Operation(nonParallelGroup = "writer")
    public void write() {
        position = Math.min(position + Segment.PAGE, PAGES * Segment.PAGE);
        toucher.writerAt(position);
    }

    /** The toucher's step; none after it has stopped (its thread has ended). */
    @Operation(nonParallelGroup = "toucher")
    public void step() {
        if (!stopped) {
            step(toucher);
        }
    }

    void step(final AheadToucher t) {
        t.step();
    }

    /** The toucher's thread ends (it steps no more). */
    @Operation(nonParallelGroup = "toucher")
    public void stop() {
        toucher.stop();
        stopped = true;
    }

    @Override
    public String toString() {
        return "AheadToucherLincheckTest[retired " + retired + "]";
    }

    /** No touch in an unmapped mapping; once stopped, every retired mapping unmapped once, the live one never. */
    @Validate
    public void mappingsLiveWhileTouchedAndUnmappedOnce() {
        if (touchedAfterUnmap) {
            throw new IllegalStateException("a page was touched in an unmapped mapping");
        }
        int unmapped = 0;
        for (int i = 0; i < count; i++) {
            if (unmaps[i] > 1) {
                throw new IllegalStateException("a mapping was unmapped " + unmaps[i] + " times");
            }
            if (made[i] == current && unmaps[i] != 0) {
                throw new IllegalStateException("the writer's mapping was unmapped");
            }
            unmapped += unmaps[i];
        }
        if (stopped && unmapped != retired) {
            throw new IllegalStateException("retired mapping left after stop: retired " + retired
                    + ", unmapped " + unmapped);
        }
    }

    /** The sequential meaning: no operation returns anything; the validation above is the check. */
    public static class Spec {
        public void roll() {
        }

        public void write() {
        }

        public void step() {
        }

        public void stop() {
        }
    }

    @Test
    public void modelChecking() {
        options().check(getClass());
    }

    @Test
    @Tag("stress")
    public void theModelCheckCatchesAWriterThatUnmapsWhatItLeaves() {
        ModelChecks.assertCaught(options(), UnmapOnRoll.class, "touched in an unmapped mapping");
    }

    @Test
    @Tag("stress")
    public void theModelCheckCatchesAStepThatUnmapsBeforeItTouches() {
        ModelChecks.assertCaught(options(), UnmapBeforeTouch.class, "touched in an unmapped mapping");
    }

    private static ModelCheckingOptions options() {
        return new ModelCheckingOptions()
                // 4 in every build, 15 with -Pstress, 200 with -Dslipstream.stress.long=true
                .iterations(Boolean.getBoolean("slipstream.stress.long") ? 200 : Boolean.getBoolean("slipstream.stress") ? 15 : 4)
                .invocationsPerIteration(1_000)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(0)
                .sequentialSpecification(Spec.class);
    }

    /** The mutant writer that unmaps the mapping it leaves itself, as it may without a toucher. */
    @Disabled("a deliberate mutant, model-checked by theModelCheckCatchesAWriterThatUnmapsWhatItLeaves")
    public static class UnmapOnRoll extends AheadToucherLincheckTest {
        @Override
        void roll(final ByteBuffer left, final ByteBuffer next) {
            follow(next);
            unmapNow(left);
        }
    }

    /** The mutant step that reads the writer's mapping, unmaps the retired ones, then touches. */
    @Disabled("a deliberate mutant, model-checked by theModelCheckCatchesAStepThatUnmapsBeforeItTouches")
    public static class UnmapBeforeTouch extends AheadToucherLincheckTest {
        @Override
        void step(final AheadToucher t) {
            final ByteBuffer target = t.lvLive();
            t.unmapRetired();
            t.touchAhead(target);
        }
    }

    void follow(final ByteBuffer next) {
        toucher.follow(next, 0);
    }

    void unmapNow(final ByteBuffer pages) {
        unmap(pages);
    }
}

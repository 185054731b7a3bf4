package dev.slipstream.bench.support;

import java.util.Locale;

/** Padding before the counters. */
abstract class BatchCountLhsPadding {
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** The counters, written only by the stage thread that owns them. */
abstract class BatchCountFields extends BatchCountLhsPadding {
    protected long lastEnd = -1L;
    protected long batches;
}

/** Padding after the counters. */
abstract class BatchCountRhsPadding extends BatchCountFields {
    protected long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * How a stage's events arrive: how many batches, and how many batches of each size (in
 * power-of-two classes: 1, 2-3, 4-7, ...). A stage that keeps up with its producer sees batches
 * of a few events; one that runs behind sees large ones (the batching effect).
 *
 * <p>The stage thread calls {@link #endOfBatch} for every event, before it makes the event's
 * effects visible to the benchmark thread (a sink's release, or its processor's sequence), so a
 * {@link #snapshot()} taken after the benchmark thread saw the last event is complete.
 *
 * <pre>{@code
 * count.endOfBatch(sequence, endOfBatch);        // stage thread, per event
 * BatchCount.Snapshot before = count.snapshot(); // benchmark thread, between passes
 * System.out.println(count.snapshot().minus(before));
 * }</pre>
 */
public final class BatchCount extends BatchCountRhsPadding {
    /** Size classes: class k holds batches of 2^k to 2^(k+1)-1 events. */
    public static final int SIZE_CLASSES = 64;
    /** Spare slots on each side of the classes, so the array shares no line with other objects. */
    private static final int ARRAY_PAD = 16;

    private final long[] bySizeClass = new long[SIZE_CLASSES + 2 * ARRAY_PAD];

    /** Counts a batch when {@code endOfBatch} is set. Stage thread only. */
    public void endOfBatch(final long sequence, final boolean endOfBatch) {
        if (endOfBatch) {
            final long size = sequence - lastEnd;
            lastEnd = sequence;
            batches++;
            bySizeClass[ARRAY_PAD + 63 - Long.numberOfLeadingZeros(size)]++;
        }
    }

    /** A copy of the counters; read it only once the stage has handed on the events it counted. */
    public Snapshot snapshot() {
        final long[] classes = new long[SIZE_CLASSES];
        System.arraycopy(bySizeClass, ARRAY_PAD, classes, 0, SIZE_CLASSES);
        return new Snapshot(lastEnd + 1L, batches, classes);
    }

    /** Counters at one moment, and their differences. */
    public record Snapshot(long events, long batches, long[] bySizeClass) {
        /** The counts since {@code earlier}. */
        public Snapshot minus(final Snapshot earlier) {
            final long[] classes = new long[SIZE_CLASSES];
            for (int k = 0; k < SIZE_CLASSES; k++) {
                classes[k] = bySizeClass[k] - earlier.bySizeClass[k];
            }
            return new Snapshot(events - earlier.events, batches - earlier.batches, classes);
        }

        /** Events per batch. */
        public double meanBatch() {
            return batches == 0 ? 0.0 : events / (double) batches;
        }

        /**
         * The share of batches in each size class that holds at least half a percent of them, e.g.
         * {@code 1:3% 2-3:41% 4-7:52% 8-15:4%}.
         *
         * @return the distribution
         */
        public String distribution() {
            final StringBuilder out = new StringBuilder();
            for (int k = 0; k < SIZE_CLASSES; k++) {
                if (bySizeClass[k] * 200 < batches) {
                    continue;   // under half a percent of the batches
                }
                final long lo = 1L << k;
                final long hi = (lo << 1) - 1L;
                out.append(out.length() == 0 ? "" : " ")
                        .append(lo == hi ? Long.toString(lo) : lo + "-" + hi).append(':')
                        .append(String.format(Locale.ROOT, "%.0f%%", 100.0 * bySizeClass[k] / batches));
            }
            return out.toString();
        }
    }
}

package dev.slipstream.stress.topology;

import dev.slipstream.processor.EventHandler;
import java.util.BitSet;

/**
 * A soak-test handler: checks that the stages it follows have finished each event, records what
 * it saw per producer (count, checksum, order, and every value in a bit set), marks the event as
 * done by its stage, and throws for a seeded 1% of events.
 */
final class Recorder implements EventHandler<SoakEvent> {
    private final int mark;
    private final int[] requiredMarks;
    private final long failSeed;
    final long[] count;
    final long[] sum;
    final long[] last;
    final BitSet[] seen;
    long orderViolations;
    long duplicates;
    long upstreamViolations;
    long thrown;

    Recorder(final int producers, final int mark, final long failSeed, final int... requiredMarks) {
        this.mark = mark;
        this.requiredMarks = requiredMarks;
        this.failSeed = failSeed;
        this.count = new long[producers];
        this.sum = new long[producers];
        this.last = new long[producers];
        this.seen = new BitSet[producers];
        for (int p = 0; p < producers; p++) {
            last[p] = -1;
            seen[p] = new BitSet();
        }
    }

    @Override
    public void onEvent(final SoakEvent event, final long sequence, final boolean endOfBatch) {
        for (final int required : requiredMarks) {
            if (event.marks[required] != sequence) {
                upstreamViolations++;
            }
        }
        final int p = event.producer;
        final long v = event.value;
        if (v != last[p] + 1) {
            orderViolations++;
        }
        last[p] = v;
        if (seen[p].get((int) v)) {
            duplicates++;
        }
        seen[p].set((int) v);
        count[p]++;
        sum[p] += v;
        if (mark >= 0) {
            event.marks[mark] = sequence;
        }
        if (fails(p, v, failSeed)) {
            thrown++;
            throw new IllegalStateException("seeded failure of producer " + p + " value " + v);
        }
    }

    /** Whether the handler seeded with {@code seed} throws for this event: about 1% of events. */
    static boolean fails(final int producer, final long value, final long seed) {
        long h = (value * 0x9E3779B97F4A7C15L) ^ (producer * 0xC2B2AE3D27D4EB4FL) ^ seed;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return Math.floorMod(h, 100) == 0;
    }

    long failSeed() {
        return failSeed;
    }

    long total() {
        long total = 0;
        for (final long c : count) {
            total += c;
        }
        return total;
    }
}

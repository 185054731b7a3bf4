package dev.slipstream.stress.topology;

import dev.slipstream.processor.EventHandler;
import java.util.BitSet;

/**
 * What one stage handled: per producer, the indices it saw. Written by the stage's thread only,
 * read after that thread was joined.
 */
final class StageLedger implements EventHandler<AccountEvent> {
    private final BitSet[] seen;
    long duplicates;

    StageLedger(final int producers) {
        seen = new BitSet[producers];
        for (int p = 0; p < producers; p++) {
            seen[p] = new BitSet();
        }
    }

    @Override
    public void onEvent(final AccountEvent event, final long sequence, final boolean endOfBatch) {
        final BitSet bits = seen[event.producer];
        final int index = (int) event.index;
        if (bits.get(index)) {
            duplicates++;
        }
        bits.set(index);
    }

    /** Accepted events (index below the producer's accepted count) this stage handled. */
    long handledAccepted(final long[] acceptedPerProducer) {
        long total = 0;
        for (int p = 0; p < seen.length; p++) {
            total += seen[p].get(0, (int) acceptedPerProducer[p]).cardinality();
        }
        return total;
    }
}

package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;
import java.nio.file.Path;

/**
 * What the journal benchmark needs from a journal: append (as a pipeline stage, so that both
 * journals are driven alike), and replay everything. One small adapter per library.
 */
interface JournalAdapter extends AutoCloseable {
    /**
     * The stage that journals each event; at the end of each batch it forces the batch to the
     * device if {@code syncEveryBatch}, else it leaves the writes in the page cache.
     */
    EventHandler<Record64> stage();

    /** Reads every record from the start and returns the sum of their fields (so nothing is optimised away). */
    long replayAll();

    @Override
    void close();

    /**
     * The adapter for a library: {@code slipstream} (everyBatch if {@code syncEveryBatch}, else
     * never), {@code chronicle} (synchronous msync at each end of batch if {@code syncEveryBatch},
     * else no sync at all), or {@code control} (a no-op stage, no journal).
     */
    static JournalAdapter create(final String impl, final Path dir, final boolean syncEveryBatch) {
        return switch (impl) {
            case "slipstream" -> new SlipstreamJournalAdapter(dir, syncEveryBatch);
            case "chronicle" -> new ChronicleQueueAdapter(dir, syncEveryBatch ? ChronicleQueueAdapter.Sync.SYNC
                    : ChronicleQueueAdapter.Sync.NONE);
            case "control" -> new NoJournalAdapter();
            default -> throw new IllegalArgumentException("unknown impl " + impl + "; expected slipstream, chronicle or control");
        };
    }
}

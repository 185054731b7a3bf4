package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;

/**
 * The control: a stage that does nothing, in the journal's place. The same pipeline with it and
 * with a journal measures what the journal adds, apart from what the producer, the ring, the
 * thread hops and the recording stage cost.
 *
 * <pre>{@code
 * try (JournalAdapter control = new NoJournalAdapter()) {
 *     pipeline.handleEventsWith(control.stage()).then(recorder);
 * }
 * }</pre>
 */
final class NoJournalAdapter implements JournalAdapter {
    private final EventHandler<Record64> stage = (r, sequence, endOfBatch) -> { };

    @Override
    public EventHandler<Record64> stage() {
        return stage;
    }

    @Override
    public long replayAll() {
        return 0;
    }

    @Override
    public void close() {
        // nothing to release
    }
}

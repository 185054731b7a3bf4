package dev.slipstream.ring;

import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceGroup;
import dev.slipstream.sequence.Sequencer;
import java.util.Objects;

/**
 * A pull-style consumer for a thread that runs its own loop (a game loop, a selector, a
 * duty cycle that also does other work) instead of handing one to a processor.
 *
 * <p>Each {@link #poll(Handler)} delivers whatever is available now, as one batch, and returns
 * at once. Add {@link #getSequence()} as a gating sequence so producers do not lap the poller.
 *
 * <pre>{@code
 * EventPoller<Tick> poller = ring.newPoller();
 * ring.addGatingSequences(poller.getSequence());
 * while (running) {
 *     if (poller.poll((tick, seq, endOfBatch) -> { book.apply(tick); return true; })
 *             == EventPoller.PollState.IDLE) {
 *         doOtherWork();
 *     }
 * }
 * }</pre>
 *
 * @param <E> the event type
 */
public final class EventPoller<E> {
    /** What a call to {@link #poll(Handler)} found. */
    public enum PollState {
        /** Events were delivered. */
        PROCESSING,
        /** Events are claimed or published but held back by an upstream stage or an unfinished publication. */
        GATING,
        /** Nothing was available. */
        IDLE
    }

    /**
     * Receives polled events.
     *
     * @param <E> the event type
     */
    @FunctionalInterface
    public interface Handler<E> {
        /**
         * Handles one event.
         *
         * @param event the event
         * @param sequence its sequence
         * @param endOfBatch true for the last event available in this poll
         * @return true to continue with the next available event, false to stop this poll here
         * @throws Exception anything; it propagates out of {@link #poll(Handler)}, and the
         *     events before this one count as consumed
         */
        boolean onEvent(E event, long sequence, boolean endOfBatch) throws Exception;
    }

    private final DataProvider<E> dataProvider;
    private final Sequencer sequencer;
    private final Sequence sequence = new Sequence();
    /** What the poller may read up to: the cursor, or the slowest upstream stage. */
    private final Sequence gatingSequence;

    private EventPoller(final DataProvider<E> dataProvider, final Sequencer sequencer, final Sequence gatingSequence) {
        this.dataProvider = dataProvider;
        this.sequencer = sequencer;
        this.gatingSequence = gatingSequence;
    }

    static <E> EventPoller<E> create(final DataProvider<E> dataProvider, final Sequencer sequencer,
                                     final Sequence[] upstream) {
        Objects.requireNonNull(upstream, "upstream sequences must not be null");
        final Sequence gating = upstream.length == 0
                ? new CursorView(sequencer)
                : upstream.length == 1 ? Objects.requireNonNull(upstream[0], "upstream sequence 0 is null")
                : new SequenceGroup(upstream);
        return new EventPoller<>(dataProvider, sequencer, gating);
    }

    /**
     * Delivers every event available now to {@code handler}.
     *
     * @param handler receives the events
     * @return what the poll found
     * @throws Exception whatever the handler threw
     */
    public PollState poll(final Handler<E> handler) throws Exception {
        Objects.requireNonNull(handler, "handler must not be null");
        final long current = sequence.getPlain();
        long next = current + 1;
        // acquire (in get and isAvailable): events up to the result are fully written
        final long available = sequencer.getHighestPublishedSequence(next, gatingSequence.get());

        if (next <= available) {
            long processed = current;
            try {
                boolean more;
                do {
                    final E event = dataProvider.get(next);
                    more = handler.onEvent(event, next, next == available);
                    processed = next;
                    next++;
                } while (more && next <= available);
            } finally {
                // release: our reads of the slots happen before a producer reuses them
                sequence.set(processed);
            }
            return PollState.PROCESSING;
        }
        return sequencer.getCursor() >= next ? PollState.GATING : PollState.IDLE;
    }

    /**
     * The sequence of the last event this poller consumed.
     *
     * @return the sequence, to gate producers on
     */
    public Sequence getSequence() {
        return sequence;
    }

    /** A read-only sequence that follows a sequencer's cursor. */
    private static final class CursorView extends Sequence {
        private final Sequencer sequencer;

        CursorView(final Sequencer sequencer) {
            this.sequencer = sequencer;
        }

        @Override
        public long get() {
            return sequencer.getCursor();
        }
    }
}

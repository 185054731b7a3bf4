package dev.slipstream.journal;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.topology.StageSpec;
import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;

/**
 * The journal as a pipeline stage: encodes every event with its {@link JournalCodec} straight
 * into the memory-mapped segment (no copy, no allocation), and at the end of each batch makes the
 * batch durable as the {@link SyncPolicy} says, with one force for the whole batch (group commit).
 * A stage's sequence advances only after its batch, so with {@link SyncPolicy#everyBatch()} the
 * stages placed after this one see durable events only:
 *
 * <pre>{@code
 * JournalStage<Order> journal = journal.stage(new OrderCodec());
 * pipeline.handleEventsWith(journal.spec("journal")).then(matching);
 * ...
 * long safe = journal.durableRingSequence();     // acknowledge clients up to here
 * }</pre>
 *
 * <p><b>Failures stop the stage.</b> If an event cannot be journalled (its record is larger than
 * a segment, the codec throws, writes past the length it declared or fewer bytes than it
 * declared, the disk fails), the stage
 * first makes the events before it in the batch durable (as the policy says), then throws a
 * {@link JournalException} naming the file, offset and sequence, and refuses every later event.
 * Run it under a halting exception handler, as {@link #spec(String)} does: the stage then stops
 * with its sequence on the last journalled event, and the pipeline stops (its first failure
 * stops it), so no later stage sees an event that is not in the journal. Under a
 * log-and-continue policy the failed event would be skipped and passed on.
 *
 * <p>Events whose journal sequence is below the journal's next sequence are replays (see
 * {@link Journal#stage(JournalCodec, long)}): they are in the journal already and pass unchanged.
 *
 * @param <E> the event type
 */
public final class JournalStage<E> implements EventHandler<E> {
    private final JournalWriter writer;
    private final JournalCodec<E> codec;
    private final long ringStart;
    /** The first failure; the stage refuses events after it. Stage thread only. */
    private JournalException failure;

    JournalStage(final JournalWriter writer, final JournalCodec<E> codec, final long ringStart) {
        this.writer = writer;
        this.codec = codec;
        this.ringStart = ringStart;
    }

    /**
     * A stage spec for this journal with a halting exception handler.
     *
     * @param name the stage's name
     * @return the spec, to pass to {@code handleEventsWith}
     */
    public StageSpec<E> spec(final String name) {
        return StageSpec.<E>of(name, this).exceptionHandler(ExceptionHandlers.halt(name));
    }

    @Override
    public void onEvent(final E event, final long ringSequence, final boolean endOfBatch) {
        if (failure != null) {
            throw new JournalException("the journal stage stopped at sequence " + failure.sequence()
                    + " and journals nothing more (ring sequence " + ringSequence + " refused): "
                    + failure.getMessage(), failure.file(), failure.offset(), ringSequence + ringStart, failure);
        }
        final long sequence = ringSequence + ringStart;
        try {
            if (sequence >= writer.nextSequence()) {
                append(event, sequence);
            }
            if (endOfBatch) {
                writer.endBatch();
            }
        } catch (JournalException e) {
            throw fail(e);
        }
    }

    private void append(final E event, final long sequence) {
        if (sequence != writer.nextSequence()) {
            throw new JournalException("ring sequence " + (sequence - ringStart) + " is journal sequence " + sequence
                    + " but the journal's next sequence is " + writer.nextSequence()
                    + ": events were skipped, or the stage was created with the wrong ring start", writer.file(),
                    writer.position(), sequence, null);
        }
        final int length;
        try {
            length = codec.encodedLength(event);
        } catch (RuntimeException e) {
            throw codecFailure("threw in encodedLength", sequence, writer.position(), e);
        }
        if (length < 0) {
            throw codecFailure("returned a negative length " + length + " from encodedLength", sequence,
                    writer.position(), null);
        }
        final ByteBuffer out = writer.claim(sequence, length);
        final int start = out.position();
        final int end = out.limit();
        try {
            codec.encode(event, out);
        } catch (BufferOverflowException | IndexOutOfBoundsException e) {
            final int offset = writer.claimedOffset();
            writer.abandon();
            throw codecFailure("wrote past the " + length + " bytes it declared", sequence, offset, e);
        } catch (RuntimeException e) {
            final int offset = writer.claimedOffset();
            writer.abandon();
            throw codecFailure("threw while encoding", sequence, offset, e);
        }
        if (out.limit() != end || out.position() != end) {
            final int offset = writer.claimedOffset();
            final String what = out.limit() != end
                    ? "moved the buffer's limit from " + end + " to " + out.limit() + " while encoding"
                    : "wrote " + (out.position() - start) + " of the " + length + " bytes it declared in"
                            + " encodedLength (replay would read bytes that were never written)";
            writer.abandon();
            throw codecFailure(what, sequence, offset, null);
        }
        writer.complete(sequence);
    }

    private JournalException codecFailure(final String what, final long sequence, final int offset,
                                          final RuntimeException cause) {
        return new JournalException("codec " + codec.getClass().getName() + " " + what + " for sequence " + sequence
                + " (" + writer.file() + " offset " + offset + ")" + (cause == null ? "" : ": " + cause)
                + "; nothing of it was journalled", writer.file(), offset, sequence, cause);
    }

    /** Makes what was written before the failure durable (by the policy), then remembers the failure. */
    private JournalException fail(final JournalException e) {
        failure = e;
        try {
            writer.endBatch();
        } catch (JournalException alsoFailed) {
            e.addSuppressed(alsoFailed);
        }
        return e;
    }

    /** Forces a pending interval's writes when the wait strategy times out (an idle journal). */
    @Override
    public void onTimeout(final long sequence) {
        if (failure == null) {
            writer.forcePending();
        }
    }

    /** Forces what is pending (unless the policy is never). */
    @Override
    public void onShutdown() {
        if (failure == null) {
            writer.forcePending();
        }
    }

    /**
     * The highest journal sequence forced to the device; see {@link Journal#durableSequence()}.
     *
     * @return the sequence, or -1 if none
     */
    public long durableSequence() {
        return writer.durableSequence();
    }

    /**
     * {@link #durableSequence()} as a sequence of this stage's ring: the ring's events up to it
     * are durable.
     *
     * @return the ring sequence, or below 0 if none of the ring's events is durable yet
     */
    public long durableRingSequence() {
        return writer.durableSequence() - ringStart;
    }

    /**
     * The highest journal sequence in the page cache (survives a process kill).
     *
     * @return the sequence, or -1 if none
     */
    public long writtenSequence() {
        return writer.writtenSequence();
    }

    /**
     * The journal sequence of the ring's sequence 0.
     *
     * @return the ring start
     */
    public long ringStart() {
        return ringStart;
    }

    @Override
    public String toString() {
        return "JournalStage[" + writer.file() + ", ring start " + ringStart + ", durable " + durableSequence() + "]";
    }
}

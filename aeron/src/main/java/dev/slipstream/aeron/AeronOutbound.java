package dev.slipstream.aeron;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.topology.StageSpec;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import java.util.Objects;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * A pipeline stage that continues the ring into an Aeron {@link ExclusivePublication}: each
 * event is encoded by a {@link MessageEncoder} behind the 8-byte {@link WireFormat} header (the
 * stream sequence) and sent, in ring order.
 *
 * <h2>Back-pressure is the ring's</h2>
 * While the publication refuses a message ({@code BACK_PRESSURED}, {@code NOT_CONNECTED},
 * {@code ADMIN_ACTION}) the stage idles with its {@link IdleStrategy} and tries again, without
 * returning from {@link #onEvent}. Its sequence does not advance, so the ring's producers are
 * gated by it exactly as by a slow local stage: a full ring, then producers waiting with the
 * ring's producer wait strategy. Nothing is dropped. {@link #metrics()} counts what it waited for.
 *
 * <h2>Failures</h2>
 * {@code CLOSED} and {@code MAX_POSITION_EXCEEDED} cannot be waited out: {@link #onEvent} throws
 * an {@link AeronBridgeException} naming the event. Give the stage a halting exception handler
 * ({@link #stageSpec(String)} does) so that the pipeline stops and reports it in
 * {@code failures()}; under the default log-and-continue policy each unsent event is logged and
 * skipped.
 *
 * <h2>Stopping</h2>
 * A pipeline's halt does not reach into a handler, so a stage waiting on a disconnected
 * publication would keep its thread. {@link #close()} (or interrupting the stage's thread) makes
 * the waiting event fail at once with an {@link AeronBridgeException}; call it before
 * {@code pipeline.halt()}, or before {@code pipeline.shutdown(timeout)} when the far side is not
 * expected back (the drain then sends what the publication accepts without waiting and reports
 * the rest as not handled).
 *
 * <h2>Sending</h2>
 * A message that fits one frame ({@code maxPayloadLength}) is encoded in place with
 * {@code tryClaim}; a longer one (up to {@code maxMessageLength}) is encoded into the stage's own
 * buffer, allocated once and grown only when a longer message first appears, then sent with
 * {@code offer}, which fragments it. Nothing is allocated per event.
 *
 * <pre>{@code
 * ExclusivePublication publication = aeron.addExclusivePublication("aeron:udp?endpoint=10.0.0.2:40123", 10);
 * AeronOutbound<Trade> toEngine = AeronOutbound.builder(publication, TRADE_ENCODER)
 *         .idleStrategy(new BackoffIdleStrategy())
 *         .build();
 * pipeline.handleEventsWith(journal).then(toEngine.stageSpec("to-engine"));
 * pipeline.start();
 * ...
 * toEngine.close();            // stop waiting on the far side
 * pipeline.halt();
 * }</pre>
 *
 * <p>One instance is one stage: it keeps the stream sequence, so use it on one thread only.
 *
 * @param <E> the event type
 */
public final class AeronOutbound<E> implements EventHandler<E>, AutoCloseable {
    private final ExclusivePublication publication;
    private final MessageEncoder<? super E> encoder;
    private final IdleStrategy idleStrategy;
    private final BufferClaim claim = new BufferClaim();
    private final OutboundMetrics metrics = new OutboundMetrics();
    private final int maxPayloadLength;
    private final int maxMessageLength;
    /** For messages longer than one frame; grown on the first such message. */
    private final ExpandableDirectByteBuffer offerBuffer;
    /** Written by close() on any thread, read by the stage thread only while it waits. */
    private volatile boolean closed;
    /** The stream sequence of the next message; the stage thread's alone (plain field). */
    private long nextSequence;

    private AeronOutbound(final Builder<E> builder) {
        this.publication = builder.publication;
        this.encoder = builder.encoder;
        this.idleStrategy = builder.idleStrategy;
        this.maxPayloadLength = publication.maxPayloadLength();
        this.maxMessageLength = publication.maxMessageLength();
        this.offerBuffer = new ExpandableDirectByteBuffer(builder.initialOfferBufferLength);
        this.nextSequence = builder.initialSequence;
    }

    /**
     * Starts building an outbound stage.
     *
     * @param publication where the events go; the caller keeps ownership (the stage never closes it)
     * @param encoder writes an event's payload
     * @param <E> the event type
     * @return the builder
     * @throws NullPointerException if either is null
     * @throws IllegalArgumentException if the publication is already closed
     */
    public static <E> Builder<E> builder(final ExclusivePublication publication,
                                         final MessageEncoder<? super E> encoder) {
        return new Builder<>(publication, encoder);
    }

    /**
     * This stage for the topology DSL, with a halting exception handler: a closed publication or
     * a stop while waiting then halts the pipeline and shows in its {@code failures()}, and the
     * shutdown result counts the events left unsent.
     *
     * @param stageName the stage's name in the pipeline
     * @return the stage specification
     */
    public StageSpec<E> stageSpec(final String stageName) {
        return StageSpec.<E>of(stageName, this).exceptionHandler(ExceptionHandlers.halt(stageName));
    }

    /**
     * Sends one event, waiting while the publication refuses it for a reason that passes.
     *
     * @param event the event
     * @param sequence the event's ring sequence (used in messages only)
     * @param endOfBatch ignored: each message is handed to Aeron at once
     * @throws AeronBridgeException if the publication is closed or at its maximum position, or
     *     the stage was closed or interrupted while waiting; the event was not sent
     * @throws IllegalArgumentException if the message is longer than the publication's
     *     {@code maxMessageLength}
     * @throws IllegalStateException if the encoder wrote another length than it declared
     */
    @Override
    public void onEvent(final E event, final long sequence, final boolean endOfBatch) {
        final int payloadLength = encoder.encodedLength(event);
        if (payloadLength < 0) {
            throw new IllegalStateException("encoder returned a negative encodedLength " + payloadLength
                    + " for the event at ring sequence " + sequence + "; expected 0 or more bytes");
        }
        final int length = WireFormat.HEADER_LENGTH + payloadLength;
        if (length <= maxPayloadLength) {
            sendClaimed(event, sequence, length);
        } else if (length <= maxMessageLength) {
            sendOffered(event, sequence, length);
        } else {
            throw new IllegalArgumentException("the event at ring sequence " + sequence + " encodes to " + length
                    + " bytes (" + WireFormat.HEADER_LENGTH + "-byte header + " + payloadLength + "-byte payload),"
                    + " more than the publication's maxMessageLength of " + maxMessageLength
                    + " bytes (term length / 8); use a longer term length or a smaller message");
        }
    }

    private void sendClaimed(final E event, final long sequence, final int length) {
        long result = publication.tryClaim(length, claim);
        if (result < 0) {
            result = awaitClaim(sequence, length, result);
        }
        final MutableDirectBuffer buffer = claim.buffer();
        final int offset = claim.offset();
        try {
            WireFormat.putSequence(buffer, offset, nextSequence);
            checkWritten(encoder.encode(event, buffer, offset + WireFormat.HEADER_LENGTH), length, sequence);
        } catch (RuntimeException | Error e) {
            // the claimed space becomes padding the receivers skip: no half-written message
            claim.abort();
            throw e;
        }
        // commit is Aeron's ordered store of the frame length: it publishes the bytes written above
        claim.commit();
        sent(length);
    }

    private void sendOffered(final E event, final long sequence, final int length) {
        final ExpandableDirectByteBuffer buffer = offerBuffer;
        // grows (allocates) only the first time a message longer than any before appears
        buffer.checkLimit(length);
        WireFormat.putSequence(buffer, 0, nextSequence);
        checkWritten(encoder.encode(event, buffer, WireFormat.HEADER_LENGTH), length, sequence);
        long result = publication.offer(buffer, 0, length);
        boolean waited = false;
        while (result < 0) {
            waited = true;
            awaitRetry(result, sequence, length);
            result = publication.offer(buffer, 0, length);
        }
        if (waited) {
            idleStrategy.reset();
            metrics.counters.increment(OutboundMetrics.WAITED);
        }
        metrics.counters.increment(OutboundMetrics.OFFERED);
        sent(length);
    }

    private long awaitClaim(final long sequence, final int length, final long firstResult) {
        long result = firstResult;
        do {
            awaitRetry(result, sequence, length);
            result = publication.tryClaim(length, claim);
        } while (result < 0);
        idleStrategy.reset();
        metrics.counters.increment(OutboundMetrics.WAITED);
        return result;
    }

    private void sent(final int length) {
        nextSequence++;
        metrics.counters.increment(OutboundMetrics.SENT);
        metrics.counters.add(OutboundMetrics.BYTES, length);
    }

    /** Counts a refusal and idles once, or throws if it cannot pass or the stage must stop. */
    private void awaitRetry(final long result, final long sequence, final int length) {
        if (result == Publication.BACK_PRESSURED) {
            metrics.counters.increment(OutboundMetrics.BACK_PRESSURED);
        } else if (result == Publication.NOT_CONNECTED) {
            metrics.counters.increment(OutboundMetrics.NOT_CONNECTED);
        } else if (result == Publication.ADMIN_ACTION) {
            // a term rotation: try again at once
            metrics.counters.increment(OutboundMetrics.ADMIN_ACTION);
            return;
        } else if (result == Publication.CLOSED) {
            throw new AeronBridgeException("publication " + describe() + " is closed: the event at ring sequence "
                    + sequence + " (stream sequence " + nextSequence + ", " + length + " bytes) was not sent");
        } else if (result == Publication.MAX_POSITION_EXCEEDED) {
            throw new AeronBridgeException("publication " + describe() + " reached its maximum position: the event"
                    + " at ring sequence " + sequence + " (stream sequence " + nextSequence + ") was not sent;"
                    + " close it and continue on a new publication");
        } else {
            throw new AeronBridgeException("publication " + describe() + " answered " + result
                    + ", which this stage does not know: the event at ring sequence " + sequence + " was not sent");
        }
        // volatile load of the flag, and the interrupt status, only on this slow path
        if (closed || Thread.currentThread().isInterrupted()) {
            // the interrupt status stays set for whoever owns the thread
            throw new AeronBridgeException("outbound stage on " + describe() + " was "
                    + (closed ? "closed" : "interrupted") + " while waiting ("
                    + (result == Publication.BACK_PRESSURED ? "back-pressured" : "not connected")
                    + "): the event at ring sequence " + sequence + " (stream sequence " + nextSequence
                    + ") was not sent");
        }
        idleStrategy.idle();
    }

    private void checkWritten(final int written, final int length, final long sequence) {
        if (written != length - WireFormat.HEADER_LENGTH) {
            throw new IllegalStateException("encoder wrote " + written + " bytes for the event at ring sequence "
                    + sequence + " but its encodedLength was " + (length - WireFormat.HEADER_LENGTH)
                    + "; encode must return exactly encodedLength");
        }
    }

    private String describe() {
        return publication.channel() + " stream " + publication.streamId() + " session " + publication.sessionId();
    }

    /**
     * Stops waiting: an event that waits for the publication now, or later, fails with an
     * {@link AeronBridgeException} instead. Events the publication accepts at once are still
     * sent. Does not close the publication (the caller owns it). Safe from any thread; idempotent.
     */
    @Override
    public void close() {
        // volatile store: the stage thread reads it on its next refused attempt
        closed = true;
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * The counters of this stage.
     *
     * @return the metrics (one instance, live)
     */
    public OutboundMetrics metrics() {
        return metrics;
    }

    /**
     * The publication this stage sends on.
     *
     * @return the publication
     */
    public ExclusivePublication publication() {
        return publication;
    }

    @Override
    public String toString() {
        return "AeronOutbound{" + describe() + ", " + metrics + '}';
    }

    /**
     * Options of an {@link AeronOutbound}.
     *
     * <pre>{@code
     * AeronOutbound<Trade> out = AeronOutbound.builder(publication, encoder)
     *         .idleStrategy(new SleepingIdleStrategy())
     *         .initialSequence(recoveredNextSequence)
     *         .build();
     * }</pre>
     *
     * @param <E> the event type
     */
    public static final class Builder<E> {
        private final ExclusivePublication publication;
        private final MessageEncoder<? super E> encoder;
        private IdleStrategy idleStrategy = new BackoffIdleStrategy();
        private long initialSequence;
        private int initialOfferBufferLength = 4096;

        private Builder(final ExclusivePublication publication, final MessageEncoder<? super E> encoder) {
            this.publication = Objects.requireNonNull(publication,
                    "publication must not be null: pass aeron.addExclusivePublication(channel, streamId)");
            this.encoder = Objects.requireNonNull(encoder, "encoder must not be null");
            if (publication.isClosed()) {
                throw new IllegalArgumentException("publication " + publication.channel() + " stream "
                        + publication.streamId() + " is already closed; pass an open publication");
            }
        }

        /**
         * How the stage waits between refused attempts; default {@link BackoffIdleStrategy}
         * (spin, yield, then park up to 1 ms).
         *
         * @param strategy the idle strategy, used by the stage's thread only
         * @return this builder
         */
        public Builder<E> idleStrategy(final IdleStrategy strategy) {
            this.idleStrategy = Objects.requireNonNull(strategy, "idleStrategy must not be null");
            return this;
        }

        /**
         * The stream sequence of the first message; default 0. A publisher that restarts and
         * resumes a stream gives the sequence after the last one it sent, so that receivers see
         * the stream continue without a gap.
         *
         * @param sequence the first stream sequence, 0 or more
         * @return this builder
         */
        public Builder<E> initialSequence(final long sequence) {
            if (sequence < 0) {
                throw new IllegalArgumentException("initialSequence must be 0 or more, got " + sequence);
            }
            this.initialSequence = sequence;
            return this;
        }

        /**
         * The starting size of the buffer for messages longer than one frame; default 4096. It
         * grows on demand; size it to the longest message to allocate only here.
         *
         * @param length bytes, 1 or more
         * @return this builder
         */
        public Builder<E> initialOfferBufferLength(final int length) {
            if (length < 1) {
                throw new IllegalArgumentException("initialOfferBufferLength must be 1 or more, got " + length);
            }
            this.initialOfferBufferLength = length;
            return this;
        }

        /**
         * Builds the stage.
         *
         * @return the stage
         */
        public AeronOutbound<E> build() {
            return new AeronOutbound<>(this);
        }
    }
}

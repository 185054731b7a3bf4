package dev.slipstream.aeron;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.InsufficientCapacityException;
import dev.slipstream.sequence.SequencerClosedException;
import io.aeron.Aeron;
import io.aeron.ControlledFragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.logbuffer.ControlledFragmentHandler;
import io.aeron.logbuffer.Header;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * Continues an Aeron stream into a ring: polls a {@link Subscription} and decodes each message
 * (after its {@link WireFormat} header) straight into a claimed ring slot with a
 * {@link MessageDecoder}, then publishes the slot. It is the ring's producer for that stream.
 *
 * <h2>Back-pressure</h2>
 * When the ring has no free slot, the message is handed back to Aeron ({@code ABORT}) and
 * delivered again on a later poll: nothing is lost and nothing blocks inside the poll. While the
 * ring stays full the subscription stops consuming, its window closes, and the far
 * {@link AeronOutbound} sees {@code BACK_PRESSURED}, waits, and so holds back its own ring's
 * producers. {@link InboundMetrics#aborts()} counts the refusals.
 *
 * <h2>Gaps</h2>
 * Each message's stream sequence is checked against the one expected for its session (image):
 * the one after the session's last message, or, for a session not seen before, the one after
 * the last message of the stream (so a restarted publisher that resumes its numbering continues
 * without a gap), or {@link Builder#expectFirstSequence} before any message. A mismatch is a gap:
 * reported to {@link InboundListener#onGap} and counted, never papered over; the message is still
 * delivered. Image (session) arrivals and departures are reported too. The check assumes one
 * publisher per stream at a time, which is what an {@code ExclusivePublication} and its stream
 * sequence stand for.
 *
 * <h2>Running it</h2>
 * As a thread ({@link #run()}, stopped by {@link #close()}), or as an Agrona {@link Agent}
 * composed with others in an {@code AgentRunner} or {@code CompositeAgent}. Messages longer than
 * one frame are reassembled by a {@link ControlledFragmentAssembler} first. If the ring is closed
 * (its pipeline shut down), the receiver stops: {@link #doWork()} throws
 * {@link AgentTerminationException} and {@link #run()} returns. If the decoder throws, the claimed
 * slot is still published (a claim is never abandoned) and the exception leaves {@link #doWork()}.
 *
 * <pre>{@code
 * Slipstream<Trade> engine = Slipstream.builder(Trade::new).producers(ProducerType.SINGLE).build();
 * engine.handleEventsWith(matcher);
 * AeronInbound<Trade> fromGateway = AeronInbound.builder(aeron, "aeron:udp?endpoint=10.0.0.2:40123", 10,
 *                 engine.ringBuffer(), TRADE_DECODER)
 *         .listener(new InboundListener() {
 *             public void onGap(int session, long expected, long received) {
 *                 log.error("lost " + (received - expected) + " trades");
 *             }
 *         })
 *         .build();
 * engine.start();
 * Thread receiver = new Thread(fromGateway, "from-gateway");
 * receiver.start();
 * ...
 * fromGateway.close();     // the thread returns and closes the subscription
 * receiver.join();
 * engine.shutdown(Duration.ofSeconds(5));
 * }</pre>
 *
 * @param <E> the event type
 */
public final class AeronInbound<E> implements Agent, Runnable, AutoCloseable {
    private static final int NEW = 0;
    private static final int RUNNING = 1;
    private static final int CLOSED = 2;
    /** Sessions remembered at once; more than one or two live sessions on a stream is unusual. */
    private static final int SESSION_SLOTS = 8;

    private final RingBuffer<E> ring;
    private final MessageDecoder<? super E> decoder;
    private final InboundListener listener;
    private final IdleStrategy idleStrategy;
    private final int fragmentLimit;
    private final InboundMetrics metrics = new InboundMetrics();
    private final ControlledFragmentAssembler assembler;
    private final Subscription subscription;
    private final String roleName;
    private final AtomicInteger state = new AtomicInteger(NEW);
    /** Written by close() on any thread, read by the run() loop once per poll. */
    private volatile boolean closeRequested;

    // ---- the polling thread's alone (plain fields)
    private boolean polled;
    private boolean ringClosed;
    private String ringClosedReason;
    /** Session ids and the next sequence each expects; slot 0 is the most recently used. */
    private final int[] sessionIds = new int[SESSION_SLOTS];
    private final long[] sessionNext = new long[SESSION_SLOTS];
    private int sessions;
    /** The sequence after the last message of the stream, whichever session carried it. */
    private long streamNext;

    private AeronInbound(final Builder<E> builder) {
        this.ring = builder.ring;
        this.decoder = builder.decoder;
        this.listener = builder.listener;
        this.idleStrategy = builder.idleStrategy;
        this.fragmentLimit = builder.fragmentLimit;
        this.streamNext = builder.expectFirstSequence;
        this.assembler = new ControlledFragmentAssembler(new Handler());
        this.roleName = "slipstream-inbound:" + builder.channel + ":" + builder.streamId;
        // Every field above is assigned before the subscription exists, and the client hands the
        // image callbacks to its conductor under the client lock that addSubscription also takes,
        // so the conductor sees this object fully built.
        this.subscription = builder.aeron.addSubscription(builder.channel, builder.streamId,
                this::imageAvailable, this::imageUnavailable);
    }

    /**
     * Starts building a receiver; it subscribes when built.
     *
     * @param aeron the client to subscribe with
     * @param channel the channel, e.g. {@code aeron:ipc} or {@code aeron:udp?endpoint=host:port}
     * @param streamId the stream
     * @param ring the ring to publish into; the receiver is one of its producers
     * @param decoder reads a payload into a slot's event
     * @param <E> the event type
     * @return the builder
     * @throws NullPointerException if any reference is null
     */
    public static <E> Builder<E> builder(final Aeron aeron, final String channel, final int streamId,
                                         final RingBuffer<E> ring, final MessageDecoder<? super E> decoder) {
        return new Builder<>(aeron, channel, streamId, ring, decoder);
    }

    /**
     * Polls once: up to the fragment limit of messages into the ring. Call it from one thread.
     *
     * @return how many fragments were consumed (0 when idle or the ring is full)
     * @throws AgentTerminationException if the ring has been closed (found when a message could
     *     not be claimed, or on a poll that found nothing): the receiver is done
     */
    @Override
    public int doWork() {
        if (!polled) {
            // once: an agent that has started polling is stopped through its runner (onClose),
            // so close() from another thread must not close the subscription under it
            polled = true;
            state.compareAndSet(NEW, RUNNING);
        }
        if (ringClosed) {
            throw new AgentTerminationException("the ring of " + roleName + " is closed, so the receiver stops: "
                    + ringClosedReason);
        }
        final int fragments = subscription.controlledPoll(assembler, fragmentLimit);
        // volatile load of the ring's closed flag, on empty polls only: a receiver whose pipeline
        // has shut down stops even when no message arrives to find the ring closed
        if (fragments == 0 && ring.isClosed()) {
            throw new AgentTerminationException("the ring of " + roleName
                    + " is closed (its pipeline stopped), so the receiver stops");
        }
        return fragments;
    }

    /**
     * Polls until {@link #close()} is called or the ring is closed, idling with the idle strategy
     * when there is nothing to do, then closes the subscription.
     *
     * @throws IllegalStateException if it is already running, or was closed
     */
    @Override
    public void run() {
        if (!state.compareAndSet(NEW, RUNNING)) {
            throw new IllegalStateException(roleName + (state.get() == RUNNING
                    ? " is already running: run() may be called by one thread" : " is closed; build a new receiver"));
        }
        try {
            // volatile load once per poll: close() is seen within one idle period
            while (!closeRequested) {
                final int work;
                try {
                    work = doWork();
                } catch (AgentTerminationException ringIsClosed) {
                    return;
                }
                idleStrategy.idle(work);
            }
        } finally {
            onClose();
        }
    }

    /**
     * Closes the subscription (once); called by an {@code AgentRunner} when it stops, and by
     * {@link #run()} when it returns.
     */
    @Override
    public void onClose() {
        if (state.getAndSet(CLOSED) != CLOSED) {
            subscription.close();
        }
    }

    /**
     * Stops the receiver: {@link #run()} returns after its current poll and closes the
     * subscription; a receiver that was never polled closes its subscription now. An agent that
     * an {@code AgentRunner} has started polling is stopped by closing the runner instead (which
     * calls {@link #onClose()} on the agent's thread). Safe from any thread.
     */
    @Override
    public void close() {
        // volatile store: the run() loop reads it before each poll
        closeRequested = true;
        if (state.compareAndSet(NEW, CLOSED)) {
            subscription.close();
        }
    }

    /**
     * The agent's name: the channel and stream.
     *
     * @return the role name
     */
    @Override
    public String roleName() {
        return roleName;
    }

    /**
     * The counters of this receiver.
     *
     * @return the metrics (one instance, live)
     */
    public InboundMetrics metrics() {
        return metrics;
    }

    /**
     * The subscription this receiver polls.
     *
     * @return the subscription
     */
    public Subscription subscription() {
        return subscription;
    }

    @Override
    public String toString() {
        return "AeronInbound{" + roleName + ", " + metrics + '}';
    }

    private void imageAvailable(final Image image) {
        metrics.counters.increment(InboundMetrics.IMAGES_AVAILABLE);
        listener.onImageAvailable(image);
    }

    private void imageUnavailable(final Image image) {
        metrics.counters.increment(InboundMetrics.IMAGES_UNAVAILABLE);
        listener.onImageUnavailable(image);
    }

    /** Checks {@code sequence} against what {@code sessionId} should send next, and moves on. */
    private void checkSequence(final int sessionId, final long sequence) {
        int slot = 0;
        if (sessions == 0 || sessionIds[0] != sessionId) {
            slot = findSession(sessionId);
        }
        final long expected = sessionNext[slot];
        if (sequence != expected) {
            metrics.counters.increment(InboundMetrics.GAPS);
            if (sequence > expected) {
                metrics.counters.add(InboundMetrics.MISSING, sequence - expected);
            } else {
                metrics.counters.increment(InboundMetrics.REWOUND);
            }
            listener.onGap(sessionId, expected, sequence);
        }
        sessionNext[slot] = sequence + 1;
        streamNext = sequence + 1;
    }

    /** Moves the session to slot 0 (adding it, expecting the stream's next, if new) and returns 0. */
    private int findSession(final int sessionId) {
        int found = -1;
        for (int i = 1; i < sessions; i++) {
            if (sessionIds[i] == sessionId) {
                found = i;
                break;
            }
        }
        final long next;
        if (found >= 0) {
            next = sessionNext[found];
        } else {
            next = streamNext;
            // a new session: the least recently used one (the last slot) is forgotten if full
            found = sessions < SESSION_SLOTS ? sessions++ : SESSION_SLOTS - 1;
        }
        System.arraycopy(sessionIds, 0, sessionIds, 1, found);
        System.arraycopy(sessionNext, 0, sessionNext, 1, found);
        sessionIds[0] = sessionId;
        sessionNext[0] = next;
        return 0;
    }

    /** The per-message work, behind the assembler (so each call is one whole message). */
    private final class Handler implements ControlledFragmentHandler {
        @Override
        public Action onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header) {
            if (length < WireFormat.HEADER_LENGTH) {
                metrics.counters.increment(InboundMetrics.MALFORMED);
                listener.onMalformedMessage(header.sessionId(), length);
                return Action.CONTINUE;
            }
            final long slot;
            try {
                slot = ring.tryNext();
            } catch (InsufficientCapacityException full) {
                // the ring is full: Aeron keeps this message and delivers it again; nothing is
                // recorded, so the redelivery is checked as if it were the first delivery
                metrics.counters.increment(InboundMetrics.ABORTS);
                return Action.ABORT;
            } catch (SequencerClosedException closed) {
                ringClosed = true;
                ringClosedReason = closed.getMessage();
                return Action.ABORT;
            }
            try {
                checkSequence(header.sessionId(), WireFormat.sequence(buffer, offset));
                decoder.decode(buffer, offset + WireFormat.HEADER_LENGTH, length - WireFormat.HEADER_LENGTH,
                        ring.get(slot));
            } finally {
                // release (in the sequencer): the ring's consumers see the decoded fields
                ring.publish(slot);
            }
            metrics.counters.increment(InboundMetrics.RECEIVED);
            metrics.counters.add(InboundMetrics.BYTES, length);
            return Action.CONTINUE;
        }
    }

    /**
     * Options of an {@link AeronInbound}.
     *
     * <pre>{@code
     * AeronInbound<Trade> in = AeronInbound.builder(aeron, channel, 10, ring, decoder)
     *         .listener(gapAlerts)
     *         .expectFirstSequence(lastProcessedSequence + 1)    // resuming after a restart
     *         .fragmentLimit(64)
     *         .build();
     * }</pre>
     *
     * @param <E> the event type
     */
    public static final class Builder<E> {
        private static final InboundListener NO_LISTENER = new InboundListener() {
        };

        private final Aeron aeron;
        private final String channel;
        private final int streamId;
        private final RingBuffer<E> ring;
        private final MessageDecoder<? super E> decoder;
        private InboundListener listener = NO_LISTENER;
        private IdleStrategy idleStrategy = new BackoffIdleStrategy();
        private int fragmentLimit = 256;
        private long expectFirstSequence;

        private Builder(final Aeron aeron, final String channel, final int streamId, final RingBuffer<E> ring,
                        final MessageDecoder<? super E> decoder) {
            this.aeron = Objects.requireNonNull(aeron, "aeron must not be null: pass a connected Aeron client");
            this.channel = Objects.requireNonNull(channel,
                    "channel must not be null: pass e.g. aeron:ipc or aeron:udp?endpoint=host:port");
            this.streamId = streamId;
            this.ring = Objects.requireNonNull(ring, "ring must not be null: pass the ring to publish into");
            this.decoder = Objects.requireNonNull(decoder, "decoder must not be null");
            if (aeron.isClosed()) {
                throw new IllegalArgumentException("the Aeron client is closed; pass a connected one");
            }
        }

        /**
         * Who hears about gaps, sessions and malformed messages; default none (they are still
         * counted).
         *
         * @param inboundListener the listener
         * @return this builder
         */
        public Builder<E> listener(final InboundListener inboundListener) {
            this.listener = Objects.requireNonNull(inboundListener, "listener must not be null");
            return this;
        }

        /**
         * How {@link AeronInbound#run()} idles between empty polls; default
         * {@link BackoffIdleStrategy}. Not used when the receiver runs as an agent.
         *
         * @param strategy the idle strategy
         * @return this builder
         */
        public Builder<E> idleStrategy(final IdleStrategy strategy) {
            this.idleStrategy = Objects.requireNonNull(strategy, "idleStrategy must not be null");
            return this;
        }

        /**
         * The most fragments one poll consumes; default 256.
         *
         * @param limit 1 or more
         * @return this builder
         */
        public Builder<E> fragmentLimit(final int limit) {
            if (limit < 1) {
                throw new IllegalArgumentException("fragmentLimit must be 1 or more, got " + limit);
            }
            this.fragmentLimit = limit;
            return this;
        }

        /**
         * The stream sequence the first message is expected to carry; default 0. A receiver
         * restarted mid-stream gives the sequence after the last one it processed, so that the
         * gap it reports is exactly what it missed.
         *
         * @param sequence 0 or more
         * @return this builder
         */
        public Builder<E> expectFirstSequence(final long sequence) {
            if (sequence < 0) {
                throw new IllegalArgumentException("expectFirstSequence must be 0 or more, got " + sequence);
            }
            this.expectFirstSequence = sequence;
            return this;
        }

        /**
         * Subscribes and builds the receiver. It starts consuming when first polled.
         *
         * @return the receiver
         */
        public AeronInbound<E> build() {
            return new AeronInbound<>(this);
        }
    }
}

package dev.slipstream.cluster;

import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageFailure;
import dev.slipstream.wait.SleepingWaitStrategy;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;

/**
 * An Aeron Cluster service that runs a Slipstream pipeline: every committed command is published
 * into the ring in log order, stamped with the log's position and cluster time, so every member's
 * stages handle the same commands in the same order and reach the same state.
 *
 * <ul>
 *   <li><b>Threads.</b> Only the cluster's service thread publishes (a single-producer ring) and
 *       only it touches the {@code Cluster} and client sessions. It waits on the pipeline only
 *       when the ring is full (back-pressure), and while it waits it keeps sending replies.
 *       Stages run on their own threads as in any pipeline.</li>
 *   <li><b>Replies.</b> A stage queues them in the {@link ReplyOutbox}; the service thread offers
 *       them to the client sessions after each command. Aeron allows offers to client sessions
 *       only from log callbacks (not from {@code doBackgroundWork}), so after each command the
 *       service keeps a cluster timer ticking (1 ms after the command, then at growing
 *       intervals up to 100 ms, for 10 s) and offers the replies on its events. When it schedules
 *       that timer depends on the log alone, never on the pipeline's progress, so every member
 *       schedules the same timers as the leader (Aeron Cluster matches them by id). That timer never
 *       reaches the stages, so members whose pipelines run at different speeds still reach the
 *       same state.
 *       With {@link Builder#fastReplies} on (the default), the leader also keeps a publication
 *       of its own on each client session's reply channel and sends the ready replies from
 *       {@code doBackgroundWork}, framed as the cluster frames them, so a reply made after its
 *       command's callback returned leaves at once. A session's replies form one queue, drained
 *       by whichever path comes first, so they leave in order; a session whose own publication
 *       is not up yet keeps the log-callback path. The reply timer is scheduled as before,
 *       whether or not this path sent anything.</li>
 *   <li><b>Stage timers.</b> A {@link TimerPolicy} set with {@link Builder#timers} runs on the
 *       service thread for every event before it enters the ring and may schedule and cancel
 *       timers with ids from 0 up through the cluster's timer API: a function of the log, like
 *       the reply timer. A timer's event is published into the ring like a command, its payload
 *       filled by the {@link TimerPayload}, so the stages see it at its place in the log; it is
 *       not answered and dedup does not apply to it. Pending timers are in the cluster's own
 *       snapshot and fire after a restart.</li>
 *   <li><b>At most once.</b> A command is identified by its client id and correlation id
 *       ({@link CommandWireFormat}); one seen before is answered with
 *       {@link CommandWireFormat#STATUS_DUPLICATE} and not published. The table of applied
 *       commands is part of every snapshot.</li>
 *   <li><b>Snapshots.</b> {@code onTakeSnapshot} at log position P waits until every stage has
 *       handled every command published so far, which is exactly the command at P since only
 *       the service thread publishes; then the dedup table and each registered
 *       {@link StageState} or {@link StreamingStageState} are written, in chunks of bounded
 *       size (a streamed state straight into the snapshot publication). On start the snapshot is
 *       loaded before the pipeline starts, and the cluster replays the log after it.</li>
 *   <li><b>Sessions.</b> A session's first message is a hello naming its client id: the
 *       service binds the session to it (checking what its credentials allow), makes it the only
 *       session speaking for that id (an older one is told {@link CommandWireFormat#STATUS_SUPERSEDED}
 *       and closed), and answers with the highest correlation id applied for the client and the
 *       {@link Builder#commandLimit command limit}. A command under another client id, or longer
 *       than the limit, is refused before the ring.</li>
 *   <li><b>Failure.</b> An exception a stage, the ingress decoder or the timer policy throws for
 *       a command is a function of the log, thrown on every member alike: under the default
 *       {@link CommandFailurePolicy#REJECT} every member marks the command rejected
 *       ({@link ClusterCommand#isRejected()}), answers its client
 *       {@link CommandWireFormat#STATUS_REJECTED} once, and goes on. An {@link Error}, or any
 *       exception under {@link CommandFailurePolicy#HALT}, halts the pipeline and the member stops
 *       (the service agent terminates).</li>
 * </ul>
 *
 * <pre>{@code
 * PipelineClusteredService<Order> service = PipelineClusteredService.builder(Order::new)
 *         .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
 *         .pipeline((pipeline, outbox, states) -> {
 *             OrderBook book = new OrderBook(outbox);
 *             states.register("book", book);
 *             pipeline.handleEventsWith(book);
 *         })
 *         .build();
 * ClusterMember member = ClusterMember.start(config, service);
 *
 * // orders that expire: a timer per order, its event handled by the book like a command
 * PipelineClusteredService<Order> expiring = PipelineClusteredService.builder(Order::new)
 *         .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
 *         .timers((event, timers) -> {
 *             if (!event.isTimer()) {
 *                 timers.schedule(event.payload().id, event.timestamp() + event.payload().timeToLive);
 *             }
 *         }, (timerId, timestamp, order) -> order.expiry(timerId))
 *         .pipeline(wiring)
 *         .build();
 * }</pre>
 *
 * @param <T> the payload type of the ring's slots
 */
public final class PipelineClusteredService<T> implements ClusteredService {
    /*
     * This class wires the parts together in onStart and hands each log callback to them, in the
     * order the log requires; each part has one job:
     *   CommandIntake     what a message in the log becomes (refusal, hello, duplicate, command)
     *   RingPublisher     how a command or a stage timer's event enters the ring
     *   ReplyRouting      how queued replies leave, in a log callback or between them
     *   ReplyTimer        when the reply timer ticks, a function of the log alone
     *   ServiceSnapshots  the snapshot's sections, written and loaded
     */
    private static final System.Logger LOG = System.getLogger(PipelineClusteredService.class.getName());
    /** The default longest command payload, in bytes (see {@link Builder#commandLimit}). */
    public static final int DEFAULT_MAX_COMMAND_LENGTH = 64 * 1024;
    /**
     * The longest command payload a service may accept, in bytes: the longest message the
     * cluster's log carries ({@link ClusterMember}'s log term of 8 MiB carries 1 MiB), less the
     * cluster's session header and the command header, with room to spare.
     */
    public static final int MAX_COMMAND_LENGTH = 1024 * 1024 - 128;
    /** The correlation id of the timer that sends replies ready between commands. */
    static final long REPLY_TIMER_ID = ReplyTimer.ID;

    private final ServiceSettings<T> settings;
    /** Replaced by tests that seed a bug; the real one waits for the pipeline at the log position. */
    Runnable quiescer = this::awaitQuiescent;
    /** Replaced by tests that seed a bug; the real one binds each session to the client id it said hello with. */
    Function<DedupTable, ClientSessions> sessionsFactory = ClientSessions::new;
    /** Turned off by a test that seeds a bug: the service without a limit of its own. */
    boolean commandLimitEnforced = true;
    /** Replaced by tests that seed a bug; the real one sends only while this member leads. */
    LeaderEgress egress = new LeaderEgress();
    /** Replaced by tests that seed a bug; the real one applies each command once. */
    DedupTable dedup;

    /** The leader of the latest term this member's log holds, -1 before any; written by the service thread only. */
    private volatile int leaderMemberId = -1;
    /** True while a snapshot waits for the stages; written by the service thread only. */
    private volatile boolean quiescing;
    // figures for a status, written by the service thread only, read by any: the maps they count
    // are the service thread's, so it publishes their sizes rather than let another thread read them
    /** The latest leadership term this member's log holds, -1 before any. */
    private volatile long leadershipTermId = -1;
    /** Wall-clock nanoseconds the latest snapshot took (waiting for the stages, then writing), -1 before any. */
    private volatile long lastSnapshotNanos = -1;
    /** Clients the dedup table remembers. */
    private volatile int clientsRemembered;
    /** Sessions bound to a client id by their hello. */
    private volatile int sessionsBound;
    /** Replies the service thread holds: its own answers, the one being offered, those set aside. */
    private volatile int repliesHeld;
    // set in onStart, on the service thread: the parts are made there, from the seams above as tests left them
    private Cluster cluster;
    private IdleStrategy idle;
    private Slipstream<ClusterCommand<T>> pipeline;
    private RingBuffer<ClusterCommand<T>> ring;
    private ReplyOutbox outbox;
    private ReplyRouting replies;
    private ReplyTimer replyTimer;
    private RingPublisher<T> publisher;
    private CommandIntake<T> intake;
    private ClientSessions sessions;
    private ServiceSnapshots snapshots;

    private PipelineClusteredService(final ServiceSettings<T> settings) {
        this.settings = settings;
        this.dedup = new DedupTable(settings.maxClients());
    }

    /**
     * Starts building a service whose ring slots hold payloads made by {@code payloadFactory}.
     *
     * @param payloadFactory makes one payload per ring slot, once
     * @param <T> the payload type
     * @return a builder
     * @throws NullPointerException if {@code payloadFactory} is null
     */
    public static <T> Builder<T> builder(final Supplier<T> payloadFactory) {
        return new Builder<>(Objects.requireNonNull(payloadFactory, "payloadFactory must not be null"));
    }

    /** @return the running pipeline, or null before {@code onStart} and after termination */
    public Slipstream<ClusterCommand<T>> pipeline() {
        return pipeline;
    }

    /**
     * @return true while a snapshot waits for the stages to handle every command published so
     *         far (a stage that never finishes its command shows here)
     */
    public boolean isQuiescing() {
        return quiescing;
    }

    /**
     * @return the member that led the latest leadership term this member has seen in its log, or
     *         -1 before the first (any thread)
     */
    public int leaderMemberId() {
        return leaderMemberId;
    }

    /** @return the longest command payload this service accepts, in bytes */
    public int commandLimit() {
        return settings.maxCommandLength();
    }

    /** @return what a stage's exception does */
    public CommandFailurePolicy commandFailurePolicy() {
        return settings.failurePolicy();
    }

    /** @return the reply outbox of the running pipeline, or null before {@code onStart} */
    public ReplyOutbox outbox() {
        return outbox;
    }

    /**
     * @return true if the leader sends replies ready between log callbacks at once (see
     *         {@link Builder#fastReplies})
     */
    public boolean fastReplies() {
        return settings.fastReplies();
    }

    /** @return replies this member sent on its own reply publications, between log callbacks or in them */
    long fastRepliesSent() {
        return egress.sent();
    }

    /** @return replies sent from {@code doBackgroundWork}, between log callbacks */
    long repliesBetweenCallbacks() {
        final ReplyRouting routing = replies;
        return routing == null ? 0 : routing.betweenCallbacks();
    }

    /** @return the latest leadership term this member's log holds, or -1 before the first (any thread) */
    long leadershipTermId() {
        return leadershipTermId;
    }

    /**
     * @return wall-clock nanoseconds the latest snapshot took on this member, from the request
     *         reaching the service to the last chunk written (waiting for the stages included), or
     *         -1 before the first since start (any thread)
     */
    long lastSnapshotNanos() {
        return lastSnapshotNanos;
    }

    /** @return clients the dedup table remembers, as of the service thread's latest callback (any thread) */
    int clientsRemembered() {
        return clientsRemembered;
    }

    /** @return client sessions bound to a client id by their hello, as of the latest callback (any thread) */
    int sessionsBound() {
        return sessionsBound;
    }

    /**
     * @return replies not yet offered for good: those the stages queued and the service thread
     *         has not taken, plus those it holds (its own answers, the one a session pushed back,
     *         those set aside for a session without a connected reply channel) as of its latest
     *         duty cycle; 0 before {@code onStart} (any thread)
     */
    int outboxBacklog() {
        final ReplyOutbox queued = outbox;
        return queued == null ? 0 : queued.queuedByStages() + repliesHeld;
    }

    // ============================================================================ lifecycle

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        this.cluster = cluster;
        this.idle = cluster.idleStrategy();
        egress.bind(cluster);
        this.outbox = new ReplyOutbox(settings.replyCapacity(), settings.maxReplyLength());
        outbox.bindServiceThread(Thread.currentThread());
        final ServiceTimers timers = settings.hasTimers() ? new ServiceTimers(cluster, Thread.currentThread()) : null;
        final StageStates states = new StageStates();
        final Slipstream<ClusterCommand<T>> built = Slipstream.<ClusterCommand<T>>builder(
                () -> new ClusterCommand<>(settings.payloadFactory().get()))
                .name("clustered-pipeline")
                .ringSize(settings.ringSize())
                // an exception is a function of the log, thrown on every member alike: each
                // rejects the command alike and goes on; an Error halts, and the member stops
                .exceptionHandler(settings.failurePolicy() == CommandFailurePolicy.REJECT
                        ? new CommandRejector<T>(outbox) : ExceptionHandlers.halt())
                .producers(ProducerType.SINGLE)
                .waitStrategy(settings.waitStrategy().get())
                .build();
        settings.wiring().wire(built, outbox, states);
        this.snapshots = new ServiceSnapshots(dedup, states, idle, settings.snapshotChunkLength());
        if (snapshotImage != null) {
            snapshots.load(snapshotImage);
        }
        // the sessions are rebuilt from the dedup table, so only once the snapshot is loaded
        this.sessions = sessionsFactory.apply(dedup);
        this.replies = new ReplyRouting(cluster, egress, outbox);
        this.replyTimer = new ReplyTimer(cluster, settings.replyTimerFirstTickMs());
        this.publisher = new RingPublisher<>(settings, built.ringBuffer(), cluster, idle, outbox, timers, replies,
                this::checkPipeline);
        this.intake = new CommandIntake<>(sessions, dedup, outbox, publisher,
                commandLimitEnforced ? settings.maxCommandLength() : Integer.MAX_VALUE);
        this.pipeline = built;
        this.ring = built.ringBuffer();
        built.start();
        publishFigures();
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
        // a session is known by its id in each command; the leader adds its own reply publication
        if (settings.fastReplies()) {
            egress.onSessionOpen(session);
        }
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        intake.onSessionClose(session.id());
        // replies still queued for it are counted undeliverable when their turn comes
        if (settings.fastReplies()) {
            egress.onSessionClose(session.id());
        }
        publishFigures();
    }

    @Override
    public void onNewLeadershipTermEvent(final long leadershipTermId, final long logPosition, final long timestamp,
            final long termBaseLogPosition, final int leaderMemberId, final int logSessionId, final TimeUnit timeUnit,
            final int appVersion) {
        this.leaderMemberId = leaderMemberId;
        this.leadershipTermId = leadershipTermId;
        egress.onNewLeadershipTerm(leadershipTermId);
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        final long superseded = intake.onSessionMessage(session, timestamp, buffer, offset, length, header);
        replies.deliver();
        if (superseded != DedupTable.NO_SESSION) {
            // after its notice had its chance to leave: a closing session is offered nothing
            ClientSessions.close(cluster, superseded);
        }
        replyTimer.arm(timestamp);
        publishFigures();
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        if (correlationId == REPLY_TIMER_ID) {
            replyTimer.fired();
            replies.deliver();
            replyTimer.rearm(timestamp);
        } else if (correlationId >= 0 && settings.hasTimers()) {
            // a stage timer: into the ring at its place in the log, like a command
            publisher.publishTimer(correlationId, timestamp);
            replies.deliver();
        }
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        // a measurement for the status, not state: no member's log or stages see it
        final long start = System.nanoTime();
        quiescer.run();
        snapshots.write(snapshotPublication);
        lastSnapshotNanos = System.nanoTime() - start;
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        // every role runs the same pipeline; followers' replies are discarded by the cluster, and
        // only the leader keeps reply publications of its own
        if (settings.fastReplies()) {
            egress.onRoleChange(newRole);
        }
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        egress.closeAll();
        final Slipstream<ClusterCommand<T>> stopping = pipeline;
        if (stopping != null) {
            final ShutdownResult result = stopping.shutdown(Duration.ofSeconds(5));
            if (!result.isClean()) {
                LOG.log(System.Logger.Level.WARNING, "pipeline of member " + cluster.memberId()
                        + " did not stop clean: " + result);
            }
        }
    }

    @Override
    public int doBackgroundWork(final long nowNs) {
        if (pipeline == null) {
            return 0;
        }
        checkPipeline();
        final int sent = replies.deliverBetweenCallbacks();
        publishFigures();
        return sent;
    }

    /** Service thread: publishes the sizes a status reads, writing each only when it changed. */
    private void publishFigures() {
        final int clients = dedup.clientCount();
        if (clients != clientsRemembered) {
            clientsRemembered = clients;
        }
        final int bound = sessions.boundSessions();
        if (bound != sessionsBound) {
            sessionsBound = bound;
        }
        final int held = outbox.heldByServiceThread();
        if (held != repliesHeld) {
            repliesHeld = held;
        }
    }

    /** Waits until every stage has handled every published command, sending replies meanwhile. */
    private void awaitQuiescent() {
        idle.reset();
        final long cursor = ring.getCursor();
        if (ring.getMinimumGatingSequence() >= cursor) {
            return;
        }
        quiescing = true;
        try {
            while (ring.getMinimumGatingSequence() < cursor) {
                checkPipeline();
                if (replies.deliver() == 0) {
                    idle.idle();
                }
            }
        } finally {
            quiescing = false;
        }
    }

    /** Stops the member if a stage failed: a replica that skipped a command cannot go on. */
    private void checkPipeline() {
        final List<StageFailure> failures = pipeline.failures();
        if (!failures.isEmpty()) {
            throw new AgentTerminationException("pipeline of cluster member " + cluster.memberId()
                    + " failed; the member stops, since a replica that lost a command cannot go on: " + failures);
        }
    }

    /**
     * Builds a {@link PipelineClusteredService}.
     *
     * <pre>{@code
     * PipelineClusteredService<Order> service = PipelineClusteredService.builder(Order::new)
     *         .ingress(Order::decode).pipeline(wiring).ringSize(4096).build();
     * }</pre>
     *
     * @param <T> the payload type
     */
    public static final class Builder<T> {
        private final Supplier<T> payloadFactory;
        private IngressDecoder<T> decoder;
        private PipelineWiring<T> wiring;
        private int ringSize = 1024;
        private Supplier<WaitStrategy> waitStrategy = SleepingWaitStrategy::new;
        private int replyCapacity = 1024;
        private int maxReplyLength = 1024;
        private int snapshotChunkLength = 16 * 1024;
        private TimerPolicy<T> timerPolicy;
        private TimerPayload<T> timerPayload;
        private boolean fastReplies = true;
        private CommandFailurePolicy failurePolicy = CommandFailurePolicy.REJECT;
        private int maxCommandLength = DEFAULT_MAX_COMMAND_LENGTH;
        private int maxClients = DedupTable.DEFAULT_MAX_CLIENTS;
        private long replyTimerFirstTickMs = 1;

        private Builder(final Supplier<T> payloadFactory) {
            this.payloadFactory = payloadFactory;
        }

        /**
         * Sets how a command's payload bytes become the slot's payload. Required.
         *
         * @param ingressDecoder the decoder
         * @return this builder
         */
        public Builder<T> ingress(final IngressDecoder<T> ingressDecoder) {
            this.decoder = Objects.requireNonNull(ingressDecoder, "ingress decoder must not be null");
            return this;
        }

        /**
         * Sets how the stages are built. Required.
         *
         * @param pipelineWiring the wiring, run on every service start
         * @return this builder
         */
        public Builder<T> pipeline(final PipelineWiring<T> pipelineWiring) {
            this.wiring = Objects.requireNonNull(pipelineWiring, "pipeline wiring must not be null");
            return this;
        }

        /**
         * Sets the ring's size (default 1024).
         *
         * @param size a power of two
         * @return this builder
         * @throws IllegalArgumentException if {@code size} is not a power of two
         */
        public Builder<T> ringSize(final int size) {
            if (size < 1 || Integer.bitCount(size) != 1) {
                throw new IllegalArgumentException("ring size must be a power of two, was " + size);
            }
            this.ringSize = size;
            return this;
        }

        /**
         * Sets how the stages wait for commands (default: a new {@link SleepingWaitStrategy} per
         * start, which leaves the cores to the cluster's own agents).
         *
         * @param strategy makes the wait strategy on each start
         * @return this builder
         */
        public Builder<T> waitStrategy(final Supplier<WaitStrategy> strategy) {
            this.waitStrategy = Objects.requireNonNull(strategy, "wait strategy supplier must not be null");
            return this;
        }

        /**
         * Sets the reply outbox's size (default 1024 replies of up to 1024 payload bytes).
         *
         * @param capacity replies queued at once, a power of two of at least 2
         * @param maxPayloadLength the longest reply payload
         * @return this builder
         * @throws IllegalArgumentException if either is out of range
         */
        public Builder<T> replies(final int capacity, final int maxPayloadLength) {
            if (capacity < 2 || Integer.bitCount(capacity) != 1) {
                throw new IllegalArgumentException("reply capacity must be a power of two of at least 2, was "
                        + capacity);
            }
            if (maxPayloadLength <= 0) {
                throw new IllegalArgumentException("maxPayloadLength must be positive, was " + maxPayloadLength);
            }
            this.replyCapacity = capacity;
            this.maxReplyLength = maxPayloadLength;
            return this;
        }

        /**
         * Sets the largest snapshot message payload (default 16 KiB; never more than the
         * snapshot publication's maximum message length).
         *
         * @param length bytes per chunk, positive
         * @return this builder
         * @throws IllegalArgumentException if {@code length} is not positive
         */
        public Builder<T> snapshotChunkLength(final int length) {
            if (length <= 0) {
                throw new IllegalArgumentException("snapshot chunk length must be positive, was " + length);
            }
            this.snapshotChunkLength = length;
            return this;
        }

        /**
         * Gives the stages timers (default: none). {@code policy} runs on the service thread for
         * every event before the stages see it (each applied command after it is decoded, each
         * timer event after {@code payload} has filled it) and schedules or cancels timers with
         * ids from 0 up; each timer's event enters the ring in log order, with
         * {@link ClusterCommand#isTimer()} true. See {@link TimerPolicy} for what it may read.
         *
         * <pre>{@code
         * builder.timers((event, timers) -> {
         *     if (!event.isTimer()) {
         *         timers.schedule(event.payload().id, event.timestamp() + 50);
         *     }
         * }, (timerId, timestamp, order) -> order.expiry(timerId));
         * }</pre>
         *
         * @param policy schedules and cancels timers, a function of each event
         * @param payload fills a timer event's payload
         * @return this builder
         * @throws NullPointerException if either is null
         */
        public Builder<T> timers(final TimerPolicy<T> policy, final TimerPayload<T> payload) {
            this.timerPolicy = Objects.requireNonNull(policy, "timer policy must not be null");
            this.timerPayload = Objects.requireNonNull(payload,
                    "timer payload must not be null: a timer event's slot must be filled from the timer alone");
            return this;
        }

        /**
         * Sets whether the leader sends replies that become ready between log callbacks at once
         * (default: true). Aeron Cluster lets a service offer to a client session only inside a
         * log callback; with this on, the leader keeps a publication of its own on each open
         * session's reply channel and sends ready replies from {@code doBackgroundWork} too,
         * framed as the cluster frames them. Off, such a reply waits for the next log callback:
         * the next command, or the reply timer's event about a millisecond later. Followers
         * never send either way.
         *
         * <pre>{@code
         * builder.fastReplies(false);        // replies leave on log callbacks only
         * }</pre>
         *
         * @param on true to send ready replies from {@code doBackgroundWork} on the leader
         * @return this builder
         */
        public Builder<T> fastReplies(final boolean on) {
            this.fastReplies = on;
            return this;
        }

        /**
         * Sets what happens when a stage or the ingress decoder throws an exception for a command
         * (default {@link CommandFailurePolicy#REJECT}: the command is rejected on every member
         * alike, its client is answered {@link CommandWireFormat#STATUS_REJECTED}, and the
         * pipeline goes on). An {@link Error} stops the member under either policy.
         *
         * <pre>{@code
         * builder.onCommandException(CommandFailurePolicy.HALT);   // every member stops instead
         * }</pre>
         *
         * @param policy what an exception does
         * @return this builder
         * @throws NullPointerException if {@code policy} is null
         */
        public Builder<T> onCommandException(final CommandFailurePolicy policy) {
            this.failurePolicy = Objects.requireNonNull(policy, "command failure policy must not be null");
            return this;
        }

        /**
         * Sets the longest command payload the service accepts (default
         * {@value PipelineClusteredService#DEFAULT_MAX_COMMAND_LENGTH} bytes). A longer command is
         * answered {@link CommandWireFormat#STATUS_REFUSED} with the limit, before it reaches the
         * ring; a client whose own limit is larger is refused when it connects, so no command goes
         * unanswered for its size.
         *
         * <pre>{@code
         * builder.commandLimit(64 * 1024);
         * }</pre>
         *
         * @param maxPayloadLength bytes, from 0 to {@value PipelineClusteredService#MAX_COMMAND_LENGTH}
         *        (what the cluster's log carries in one message, less the headers)
         * @return this builder
         * @throws IllegalArgumentException if out of range
         */
        public Builder<T> commandLimit(final int maxPayloadLength) {
            if (maxPayloadLength < 0 || maxPayloadLength > MAX_COMMAND_LENGTH) {
                throw new IllegalArgumentException("command limit of " + maxPayloadLength + " bytes; expected 0 to "
                        + MAX_COMMAND_LENGTH + " (the longest message the cluster's log carries, less the headers)");
            }
            this.maxCommandLength = maxPayloadLength;
            return this;
        }

        /**
         * Sets how many clients the service remembers for at-most-once (default
         * {@value DedupTable#DEFAULT_MAX_CLIENTS}; each takes about 600 bytes, in memory and in
         * every snapshot). When a new client says hello and the table is full, the client heard
         * from longest ago (by cluster time) that has no live session is forgotten, the same one
         * on every member; if every client has a live session, the newcomer is refused. With
         * {@link ClientIdAuthenticator} the clients are the configured ones: set it to at least
         * their number.
         *
         * <pre>{@code
         * builder.maxClients(500);
         * }</pre>
         *
         * @param clients at least 1
         * @return this builder
         * @throws IllegalArgumentException if {@code clients} is less than 1
         */
        public Builder<T> maxClients(final int clients) {
            if (clients < 1) {
                throw new IllegalArgumentException("maxClients must be at least 1, was " + clients);
            }
            this.maxClients = clients;
            return this;
        }

        /**
         * Sets how long after a command the reply timer first fires (default 1 ms). Tests set it
         * beyond their own bounds to show that a reply left without the timer.
         */
        Builder<T> replyTimerFirstTick(final Duration delay) {
            if (delay.toMillis() < 1) {
                throw new IllegalArgumentException("reply timer first tick must be at least 1 ms, was " + delay);
            }
            this.replyTimerFirstTickMs = delay.toMillis();
            return this;
        }

        /**
         * Builds the service.
         *
         * @return a service, to give to one member's service container
         * @throws IllegalStateException if the ingress decoder or the pipeline wiring is missing
         */
        public PipelineClusteredService<T> build() {
            if (decoder == null) {
                throw new IllegalStateException("no ingress decoder: call ingress(...) before build()");
            }
            if (wiring == null) {
                throw new IllegalStateException("no pipeline wiring: call pipeline(...) before build()");
            }
            return new PipelineClusteredService<>(new ServiceSettings<>(payloadFactory, decoder, wiring, ringSize,
                    waitStrategy, replyCapacity, maxReplyLength, snapshotChunkLength, timerPolicy, timerPayload,
                    fastReplies, failurePolicy, maxCommandLength, maxClients, replyTimerFirstTickMs));
        }
    }
}

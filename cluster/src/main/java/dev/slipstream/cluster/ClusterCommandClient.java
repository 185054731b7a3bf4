package dev.slipstream.cluster;

import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.Header;
import io.aeron.security.AuthenticationException;
import io.aeron.security.CredentialsSupplier;
import io.aeron.security.NullCredentialsSupplier;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends commands to a cluster running a {@link PipelineClusteredService} and delivers each
 * command's answer once: the reply, or {@link CommandWireFormat#STATUS_OUTCOME_UNKNOWN} when none
 * came in time.
 *
 * <p><b>Connect and hello.</b> {@link #connect} opens a cluster session and says hello with the
 * client id (see {@link CommandWireFormat}); it returns once the service welcomed the session.
 * The welcome carries the highest correlation id the cluster applied for this client id, and the
 * client numbers its commands from the one after it ({@link #highestAppliedAtConnect()}): a
 * client process restarted with its old id goes on where the cluster's record of it ends, so none
 * of its new commands is taken for a re-send. {@code connect} throws if the service refuses the
 * hello (the credentials may not use that client id), or if the service accepts shorter commands
 * than the context's {@code maxCommandLength}, so that no command is sent the cluster cannot carry.
 *
 * <p><b>Failover.</b> When the new leader tells the client's session that it leads (Aeron's
 * new-leader event, taken in by {@link #poll()}), the client re-sends to it, in order and at
 * once, every command not yet answered; if its session is lost it connects again on a later
 * {@link #poll()} (a new session and a new hello, the same client id and numbering; while no
 * leader answers, each poll tries once more) and re-sends them. Besides, if no answer arrives
 * for {@code resendAfterNs} while commands are unanswered, it re-sends them to the leader it
 * knows: a safety net, set longer than a failover takes
 * ({@link Context#resendAfterFailoverOf(MemberConfig)}), so that it does not send bursts of
 * re-sends to a leader that is dead while the members elect the next; the wait starts again at
 * each new-leader event. The service applies a command at most once, so a command the old
 * leader committed is answered {@link CommandWireFormat#STATUS_DUPLICATE} instead of being
 * applied twice. A client with nothing to re-send or send when the event arrives sends the new
 * leader a keep-alive, so that its session stays open (Aeron closes a session when nothing has
 * reached the new leader within {@code messageTimeoutNs}).
 *
 * <p><b>Deadline.</b> A command with no answer {@code commandTimeout} (30 s by default) after
 * {@link #trySend} accepted it is reported to the {@link ReplyListener} as
 * {@link CommandWireFormat#STATUS_OUTCOME_UNKNOWN} (it may or may not have been applied) and no
 * longer counts in {@link #inFlight()}; an answer arriving for it later is dropped. So a loop
 * that polls until nothing is in flight always ends, whatever the cluster does.
 *
 * <p><b>Superseded, refused, closed.</b> A newer session that says hello with the same client id
 * takes the client id over: this client's session is closed by the service, the client reports
 * every unanswered command as {@code STATUS_OUTCOME_UNKNOWN}, does not reconnect, and
 * {@link #state()} is {@link State#SUPERSEDED}. The same happens, with {@link State#REFUSED},
 * when the cluster refuses the hello of a reconnect. After that, and after {@link #close()},
 * {@link #trySend} and {@link #poll()} throw {@link IllegalStateException} saying why.
 *
 * <p>Up to {@code maxInFlight} commands may be unanswered at once; {@link #trySend} returns
 * {@code -1} beyond that. Commands are held in preallocated slots: sending and polling allocate
 * nothing. Not thread-safe: one thread sends and polls.
 *
 * <pre>{@code
 * try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
 *         .aeronDirectoryName(driverDir).ingressEndpoints(members.ingressEndpoints())
 *         .clientId(7).commandTimeout(Duration.ofSeconds(30)).replyListener(listener))) {
 *     long correlationId;
 *     while ((correlationId = client.trySend(order, 0, orderLength)) < 0) {
 *         client.poll();                       // full: take replies in
 *     }
 *     while (client.inFlight() > 0) {          // ends: every command is answered or times out
 *         client.poll();
 *     }
 * }
 * }</pre>
 */
public final class ClusterCommandClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterCommandClient.class.getName());
    /** No answer to the hello yet (outside a status byte's range). */
    private static final int NO_ANSWER = Integer.MIN_VALUE;
    /** The hello was answered with a welcome that cannot be read (outside a status byte's range). */
    private static final int BAD_WELCOME = Integer.MIN_VALUE + 1;

    /**
     * Where a client is in its life.
     *
     * <pre>{@code
     * if (client.state() == ClusterCommandClient.State.SUPERSEDED) {
     *     log("another process took client id " + id + " over");
     * }
     * }</pre>
     */
    public enum State {
        /** Sending and polling (its session may be reconnecting). */
        OPEN,
        /** {@link ClusterCommandClient#close()} was called. */
        CLOSED,
        /** A newer session took its client id over; it stopped and does not reconnect. */
        SUPERSEDED,
        /** The cluster refused the hello of a reconnect (or its command limit shrank); it stopped. */
        REFUSED
    }

    private final Context context;
    private final int mask;
    private final UnsafeBuffer[] slots;
    private final int[] lengths;
    private final boolean[] answered;
    /** When trySend accepted the command in each slot (System.nanoTime), for its deadline. */
    private final long[] acceptedNs;
    private final UnsafeBuffer hello = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH]);
    private final UnsafeBuffer empty = new UnsafeBuffer(new byte[0]);
    /** Shared by Aeron's connect and the wait for the welcome; they never run at once. */
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private final EgressListener egress = new EgressListener() {
        @Override
        public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer,
                final int offset, final int length, final Header header) {
            onEgress(buffer, offset, length);
        }

        @Override
        public void onNewLeader(final long clusterSessionId, final long leadershipTermId, final int leaderMemberId,
                final String ingressEndpoints) {
            // the old leader may have lost what it had not committed: re-send everything unanswered
            // to the new one now (the poll that took this event in offers them), not when the
            // timer, which counted from the old leader's last answer, would have
            if (resendsOnNewLeader) {
                resendUnanswered();
                lastProgressNs = System.nanoTime();
            }
            newLeaderUnconfirmed = confirmsNewLeader;
        }
    };
    /**
     * False only in the test that seeds the bug of a client that leaves its re-sends to the
     * timer, to show that the failover test catches it.
     */
    boolean resendsOnNewLeader = true;
    /**
     * False only in the test that seeds the bug of a client that sends nothing to a new leader
     * while it has nothing to send, to show that the test catches it.
     */
    boolean confirmsNewLeader = true;
    /**
     * Set by a new-leader event, cleared once something reached the new leader: Aeron's session
     * waits for a first message to the new leader and closes itself if none comes within
     * messageTimeoutNs.
     */
    private boolean newLeaderUnconfirmed;
    private AeronCluster cluster;
    private State state = State.OPEN;
    /** Why the client stopped (SUPERSEDED, REFUSED), for the exception trySend and poll throw. */
    private String stopReason;
    /** The service's reason from a superseded answer, seen inside pollEgress and acted on after it. */
    private String supersededReason;
    /** The status of the hello's answer while waiting for it, else NO_ANSWER. */
    private int helloStatus = NO_ANSWER;
    private String helloRefusal;
    private long welcomeHighestApplied;
    private int welcomeMaxCommandLength;
    private boolean awaitingHello;
    private final long highestAppliedAtConnect;
    /** The next correlation id to give. */
    private long nextId;
    /** The oldest unanswered correlation id (nextId when none). */
    private long oldest;
    /** The highest correlation id offered to the current leader. */
    private long offeredUpTo;
    private long resends;
    private long reconnects;
    private long outcomesUnknown;
    /** When a reply last arrived, or the oldest unanswered command was sent (System.nanoTime). */
    private long lastProgressNs = System.nanoTime();

    private ClusterCommandClient(final Context context) {
        this.context = context;
        final int n = context.maxInFlight;
        this.mask = n - 1;
        this.slots = new UnsafeBuffer[n];
        this.lengths = new int[n];
        this.answered = new boolean[n];
        this.acceptedNs = new long[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH + context.maxCommandLength]);
        }
        hello.putLong(CommandWireFormat.CLIENT_ID_OFFSET, context.clientId);
        hello.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, CommandWireFormat.HELLO_CORRELATION_ID);
        final AeronCluster connected = connectCluster();
        try {
            if (!sayHello(connected)) {
                throw new IllegalStateException("cluster client " + context.clientId + " connected to the cluster at "
                        + context.ingressEndpoints + " but had no answer to its hello within "
                        + TimeUnit.NANOSECONDS.toMillis(context.messageTimeoutNs) + " ms (messageTimeoutNs): expected"
                        + " a welcome from a service that speaks CommandWireFormat's hello, such as a"
                        + " PipelineClusteredService");
            }
        } catch (final RuntimeException e) {
            CloseHelper.quietClose(connected);
            throw e;
        }
        this.cluster = connected;
        this.highestAppliedAtConnect = welcomeHighestApplied;
        this.nextId = welcomeHighestApplied + 1;
        this.oldest = nextId;
        this.offeredUpTo = welcomeHighestApplied;
    }

    /**
     * Connects to the cluster and says hello.
     *
     * @param context the settings
     * @return a connected client, welcomed by the service
     * @throws ClientRefusedException if the cluster rejected the credentials, the service refused
     *         the hello, or the service's command limit is below the context's
     *         {@code maxCommandLength}: retrying will not help
     * @throws IllegalStateException if the JVM lacks the flag Aeron needs, or no leader answered
     *         (the members have not elected one yet: worth retrying)
     */
    public static ClusterCommandClient connect(final Context context) {
        Objects.requireNonNull(context, "context must not be null");
        context.check();
        // before Aeron is touched: without the flag the first Aeron call fails without naming it
        JvmAccess.requireAgronaAccess("cluster client " + context.clientId);
        return new ClusterCommandClient(context);
    }

    private AeronCluster connectCluster() {
        try {
            return AeronCluster.connect(new AeronCluster.Context()
                    .aeronDirectoryName(context.aeronDirectoryName)
                    .ingressChannel("aeron:udp")
                    .ingressEndpoints(context.ingressEndpoints)
                    .egressChannel("aeron:udp?endpoint=" + context.egressHost + ":0")
                    .credentialsSupplier(context.credentials)
                    .messageTimeoutNs(context.messageTimeoutNs)
                    .idleStrategy(idle)
                    // Aeron's default handler exits the JVM when the driver times out
                    .errorHandler(error -> LOG.log(System.Logger.Level.WARNING, "cluster client "
                            + context.clientId + ": " + error, error))
                    .egressListener(egress));
        } catch (final AuthenticationException e) {
            throw new ClientRefusedException("the cluster rejected client " + context.clientId + " ("
                    + e.getMessage() + "): its credentials do not match the cluster's authenticator", e);
        } catch (final AeronException e) {
            throw new IllegalStateException("client " + context.clientId + " could not connect to the cluster at "
                    + context.ingressEndpoints + ": " + e.getMessage(), e);
        }
    }

    /**
     * Says hello on a new session and waits, up to {@code messageTimeoutNs}, for the answer.
     *
     * @return true once welcomed; false if the session was lost or no answer came in time
     * @throws IllegalStateException if the service refused the hello, answered it with something
     *         other than a welcome, or accepts shorter commands than this client may send
     */
    private boolean sayHello(final AeronCluster session) {
        helloStatus = NO_ANSWER;
        awaitingHello = true;
        try {
            final long deadline = System.nanoTime() + context.messageTimeoutNs;
            idle.reset();
            boolean offered = false;
            while (helloStatus == NO_ANSWER) {
                if (System.nanoTime() - deadline > 0 || session.isClosed()) {
                    return false;
                }
                int work = 0;
                if (!offered) {
                    final long result = session.offer(hello, 0, CommandWireFormat.COMMAND_HEADER_LENGTH);
                    if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED) {
                        return false;
                    }
                    offered = result > 0;
                    work += offered ? 1 : 0;
                }
                work += session.pollEgress();
                idle.idle(work);
            }
        } catch (final AeronException e) {
            return false;
        } finally {
            awaitingHello = false;
        }
        if (helloStatus == CommandWireFormat.STATUS_REFUSED) {
            throw new ClientRefusedException("the cluster refused cluster client " + context.clientId + ": "
                    + helloRefusal + " (expected a client id the client's credentials may use)", null);
        }
        if (helloStatus != CommandWireFormat.STATUS_WELCOME) {
            throw new IllegalStateException("cluster client " + context.clientId + " said hello and was answered "
                    + helloRefusal + "; expected a welcome (status " + CommandWireFormat.STATUS_WELCOME
                    + ") or a refusal: is the service one that speaks CommandWireFormat's hello?");
        }
        if (welcomeMaxCommandLength < context.maxCommandLength) {
            throw new ClientRefusedException("cluster client " + context.clientId + " may send command payloads of "
                    + context.maxCommandLength + " bytes (Context.limits) but the service accepts at most "
                    + welcomeMaxCommandLength + ": lower Context.limits' payloadLength to " + welcomeMaxCommandLength
                    + " or less, or raise the service's command limit", null);
        }
        return true;
    }

    /**
     * Sends a command, or keeps it to send on the next {@link #poll()} if the cluster pushes back.
     * Its deadline ({@code commandTimeout}) starts now.
     *
     * @param payload the command's payload
     * @param offset where it starts
     * @param length its length, at most the context's {@code maxCommandLength}
     * @return the command's correlation id, or -1 if {@code maxInFlight} commands are unanswered
     * @throws IllegalArgumentException if {@code length} is out of range
     * @throws IllegalStateException if the client was closed, superseded or refused
     */
    public long trySend(final DirectBuffer payload, final int offset, final int length) {
        requireOpen();
        if (length < 0 || length > context.maxCommandLength) {
            throw new IllegalArgumentException("command payload of " + length + " bytes; expected 0 to "
                    + context.maxCommandLength + " (the context's maxCommandLength)");
        }
        if (nextId - oldest >= slots.length) {
            return -1;
        }
        final long now = System.nanoTime();
        if (oldest == nextId) {
            lastProgressNs = now;  // the wait for an answer starts now
        }
        final long id = nextId++;
        final int slot = (int) (id & mask);
        final UnsafeBuffer buffer = slots[slot];
        buffer.putLong(CommandWireFormat.CLIENT_ID_OFFSET, context.clientId);
        buffer.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, id);
        buffer.putBytes(CommandWireFormat.COMMAND_HEADER_LENGTH, payload, offset, length);
        lengths[slot] = CommandWireFormat.COMMAND_HEADER_LENGTH + length;
        answered[slot] = false;
        acceptedNs[slot] = now;
        offerPending();
        return id;
    }

    /**
     * Takes replies in, reports commands past their deadline, re-sends after a leader change,
     * reconnects if the session was lost, and offers commands the cluster pushed back. The poll
     * that learns the client was superseded (or refused on a reconnect) reports the unanswered
     * commands and returns; the next one throws.
     *
     * @return the work done (replies, outcomes reported and offers), 0 if none
     * @throws IllegalStateException if the client was closed, superseded or refused
     */
    public int poll() {
        requireOpen();
        int work;
        if (cluster == null || cluster.isClosed()) {
            work = reconnect() ? 1 : 0;
        } else {
            try {
                work = cluster.pollEgress();
            } catch (final AeronException e) {
                work = reconnect() ? 1 : 0;
            }
        }
        if (supersededReason != null && state == State.OPEN) {
            // acted on here, not in the egress callback: the session must not be closed inside its own poll
            stop(State.SUPERSEDED, "cluster client " + context.clientId + " was taken over by a newer session: "
                    + supersededReason + " (it does not reconnect; give each running client an id of its own)");
        }
        if (state != State.OPEN) {
            return work + 1;
        }
        final long now = System.nanoTime();
        work += expireOverdue(now);
        if (oldest < nextId && now - lastProgressNs > context.resendAfterNs) {
            // no answer for a while: a command or its reply may have been lost in a leader change
            resendUnanswered();
            lastProgressNs = now;
        }
        final int offered = offerPending();
        if (newLeaderUnconfirmed && (offered > 0 || (offeredUpTo + 1 >= nextId && keepAlive()))) {
            // a command, or with none to send a keep-alive, reached the new leader: the session
            // stays open (an idle client would otherwise lose it, and connect again, after the timeout)
            newLeaderUnconfirmed = false;
        }
        return work + offered;
    }

    /** @return true if a keep-alive went out to the leader the session knows */
    private boolean keepAlive() {
        try {
            return cluster != null && cluster.sendKeepAlive();
        } catch (final AeronException e) {
            return false;  // the session is going; poll() reconnects
        }
    }

    /**
     * Connects again (a new session and hello, the same client id) and re-sends.
     *
     * @return false if no leader answered or welcomed yet; true once connected, or stopped refused
     */
    private boolean reconnect() {
        CloseHelper.quietClose(cluster);
        cluster = null;
        final AeronCluster connected;
        try {
            connected = connectCluster();
        } catch (final IllegalStateException e) {
            if (e.getCause() instanceof AuthenticationException) {
                throw e;
            }
            return false;  // no leader yet (an election under way): try again on the next poll
        }
        final boolean welcomed;
        try {
            welcomed = sayHello(connected);
        } catch (final IllegalStateException refused) {
            CloseHelper.quietClose(connected);
            stop(State.REFUSED, "cluster client " + context.clientId + " stopped on reconnecting: "
                    + refused.getMessage());
            return true;
        }
        if (!welcomed) {
            CloseHelper.quietClose(connected);
            return false;
        }
        cluster = connected;
        reconnects++;
        newLeaderUnconfirmed = false;  // a new session, connected to the leader that welcomed it
        if (oldest == nextId && welcomeHighestApplied >= nextId) {
            // nothing in flight: catch up with what the cluster applied for this id (another process's commands)
            nextId = welcomeHighestApplied + 1;
            oldest = nextId;
            offeredUpTo = welcomeHighestApplied;
        }
        resendUnanswered();
        offerPending();
        return true;
    }

    /** Reports, oldest first, each unanswered command whose deadline passed; returns how many. */
    private int expireOverdue(final long now) {
        int expired = 0;
        // commands are accepted in id order, so the first one within its deadline ends the search
        while (oldest < nextId && now - acceptedNs[(int) (oldest & mask)] >= context.commandTimeoutNs) {
            final long id = oldest;
            answered[(int) (id & mask)] = true;
            advanceOldest();
            outcomesUnknown++;
            expired++;
            context.listener.onReply(id, CommandWireFormat.STATUS_OUTCOME_UNKNOWN, empty, 0, 0);
        }
        return expired;
    }

    /** Stops for good: every unanswered command is reported outcome-unknown and the session closed. */
    private void stop(final State stopped, final String reason) {
        state = stopped;
        stopReason = reason;
        CloseHelper.quietClose(cluster);
        cluster = null;
        LOG.log(System.Logger.Level.WARNING, reason);
        while (oldest < nextId) {
            final long id = oldest++;
            final int slot = (int) (id & mask);
            if (!answered[slot]) {
                answered[slot] = true;
                outcomesUnknown++;
                context.listener.onReply(id, CommandWireFormat.STATUS_OUTCOME_UNKNOWN, empty, 0, 0);
            }
        }
    }

    private void requireOpen() {
        if (state == State.OPEN) {
            return;
        }
        throw new IllegalStateException(state == State.CLOSED ? "cluster client " + context.clientId + " is closed"
                : stopReason);
    }

    private void resendUnanswered() {
        if (offeredUpTo >= oldest) {
            resends += offeredUpTo - oldest + 1;
        }
        offeredUpTo = oldest - 1;
    }

    private int offerPending() {
        if (cluster == null) {
            return 0;
        }
        int offered = 0;
        while (offeredUpTo + 1 < nextId) {
            final long id = offeredUpTo + 1;
            final int slot = (int) (id & mask);
            if (!answered[slot]) {
                final long result;
                try {
                    result = cluster.offer(slots[slot], 0, lengths[slot]);
                } catch (final AeronException e) {
                    return offered;  // the session is going; poll() reconnects
                }
                if (result < 0) {
                    return offered;
                }
                offered++;
            }
            offeredUpTo = id;
        }
        return offered;
    }

    private void onEgress(final DirectBuffer buffer, final int offset, final int length) {
        if (length < CommandWireFormat.REPLY_HEADER_LENGTH) {
            return;
        }
        final long id = buffer.getLong(offset + CommandWireFormat.REPLY_CORRELATION_ID_OFFSET);
        final byte status = buffer.getByte(offset + CommandWireFormat.REPLY_STATUS_OFFSET);
        final int payloadOffset = offset + CommandWireFormat.REPLY_HEADER_LENGTH;
        final int payloadLength = length - CommandWireFormat.REPLY_HEADER_LENGTH;
        if (id == CommandWireFormat.HELLO_CORRELATION_ID) {
            onSessionAnswer(status, buffer, payloadOffset, payloadLength);
            return;
        }
        if (id < oldest || id >= nextId) {
            return;  // answered already (a reply and a duplicate answer to its resend), timed out, or not ours
        }
        final int slot = (int) (id & mask);
        if (answered[slot]) {
            return;
        }
        answered[slot] = true;
        lastProgressNs = System.nanoTime();
        advanceOldest();
        context.listener.onReply(id, status, buffer, payloadOffset, payloadLength);
    }

    /** A session-level answer (correlation id 0): the hello's, or a takeover. Never reaches the listener. */
    private void onSessionAnswer(final byte status, final DirectBuffer buffer, final int offset, final int length) {
        if (status == CommandWireFormat.STATUS_SUPERSEDED) {
            supersededReason = buffer.getStringWithoutLengthAscii(offset, length);
            return;
        }
        if (!awaitingHello || helloStatus != NO_ANSWER) {
            return;  // a second answer to a hello already answered: nothing to do with it
        }
        if (status == CommandWireFormat.STATUS_WELCOME) {
            if (length < CommandWireFormat.WELCOME_LENGTH) {
                helloStatus = BAD_WELCOME;
                helloRefusal = "a welcome of " + length + " bytes (expected " + CommandWireFormat.WELCOME_LENGTH + ")";
                return;
            }
            welcomeHighestApplied = buffer.getLong(offset + CommandWireFormat.WELCOME_HIGHEST_APPLIED_OFFSET);
            welcomeMaxCommandLength = buffer.getInt(offset + CommandWireFormat.WELCOME_MAX_COMMAND_LENGTH_OFFSET);
            if (welcomeHighestApplied < 0) {
                helloStatus = BAD_WELCOME;
                helloRefusal = "a welcome whose highest applied correlation id is " + welcomeHighestApplied
                        + " (expected 0 or more)";
                return;
            }
        } else if (status == CommandWireFormat.STATUS_REFUSED) {
            helloRefusal = buffer.getStringWithoutLengthAscii(offset, length);
        } else {
            helloRefusal = "status " + status;
        }
        helloStatus = status;
    }

    /** Moves {@code oldest} past the answered commands at the front. */
    private void advanceOldest() {
        while (oldest < nextId && answered[(int) (oldest & mask)]) {
            oldest++;
        }
    }

    /** @return how many commands are unanswered (neither answered nor reported outcome-unknown) */
    public int inFlight() {
        int n = 0;
        for (long id = oldest; id < nextId; id++) {
            n += answered[(int) (id & mask)] ? 0 : 1;
        }
        return n;
    }

    /** @return the number of commands offered again after a leader change or reconnect */
    public long resends() {
        return resends;
    }

    /** @return how many times the client connected again after losing its session */
    public long reconnects() {
        return reconnects;
    }

    /**
     * @return how many commands were reported {@link CommandWireFormat#STATUS_OUTCOME_UNKNOWN}: past
     *         their deadline, or unanswered when the client was superseded or refused
     */
    public long outcomesUnknown() {
        return outcomesUnknown;
    }

    /**
     * @return the highest correlation id the cluster had applied for this client id when
     *         {@link #connect} was welcomed (0 if none); the first command got the one after it
     */
    public long highestAppliedAtConnect() {
        return highestAppliedAtConnect;
    }

    /** @return where the client is in its life */
    public State state() {
        return state;
    }

    /** @return true if a newer session took this client's id over (then it has stopped) */
    public boolean isSuperseded() {
        return state == State.SUPERSEDED;
    }

    /** @return the cluster member that leads, as the client last heard; -1 while it has no session */
    public int leaderMemberId() {
        return cluster == null ? -1 : cluster.leaderMemberId();
    }

    /**
     * Closes the cluster session; idempotent. Unanswered commands are forgotten (not reported):
     * {@link #inFlight()} still counts them. {@link #trySend} and {@link #poll()} then throw and
     * nothing reconnects. A client that was superseded or refused keeps that state and its reason.
     */
    @Override
    public void close() {
        if (state == State.OPEN) {
            state = State.CLOSED;
        }
        CloseHelper.quietClose(cluster);
        cluster = null;
    }

    /**
     * A client's settings.
     *
     * <pre>{@code
     * new ClusterCommandClient.Context().aeronDirectoryName(dir).ingressEndpoints("0=localhost:20100")
     *         .clientId(7).replyListener(listener);
     * }</pre>
     */
    public static final class Context {
        /** What {@link #resendAfterFailoverOf(MemberConfig)} adds for the part of a failover the settings do not set. */
        public static final long FAILOVER_MARGIN_MS = 500;
        private String aeronDirectoryName;
        private String ingressEndpoints;
        private String egressHost = "localhost";
        private long clientId = -1;
        private ReplyListener listener;
        private CredentialsSupplier credentials = new NullCredentialsSupplier();
        private int maxInFlight = 1024;
        private int maxCommandLength = 1024;
        private long messageTimeoutNs = 10_000_000_000L;
        private long resendAfterNs = resendAfterFailover(MemberConfig.DEFAULT_LEADER_HEARTBEAT_TIMEOUT,
                MemberConfig.DEFAULT_ELECTION_TIMEOUT);
        private long commandTimeoutNs = 30_000_000_000L;

        /**
         * @param dir the directory of the media driver the client uses (its own, not a member's)
         * @return this
         */
        public Context aeronDirectoryName(final String dir) {
            this.aeronDirectoryName = dir;
            return this;
        }

        /**
         * @param endpoints {@code id=host:port,...}, as {@link ClusterMembers#ingressEndpoints()} gives
         * @return this
         */
        public Context ingressEndpoints(final String endpoints) {
            this.ingressEndpoints = endpoints;
            return this;
        }

        /**
         * @param host the host the client receives replies on (default localhost)
         * @return this
         */
        public Context egressHost(final String host) {
            this.egressHost = host;
            return this;
        }

        /**
         * @param id the client's id, non-negative, unique among running clients and kept across
         *        reconnects and restarts (a second client saying hello with it takes it over)
         * @return this
         */
        public Context clientId(final long id) {
            this.clientId = id;
            return this;
        }

        /**
         * @param replyListener receives each command's answer
         * @return this
         */
        public Context replyListener(final ReplyListener replyListener) {
            this.listener = replyListener;
            return this;
        }

        /**
         * @param supplier the credentials sent on connect (default: none)
         * @return this
         */
        public Context credentials(final CredentialsSupplier supplier) {
            this.credentials = supplier;
            return this;
        }

        /**
         * @param commands unanswered commands at most, a power of two up to {@value DedupTable#WINDOW} (default 1024)
         * @param payloadLength the longest command payload (default 1024), at most the service's
         *        command limit: {@link ClusterCommandClient#connect} checks it against the welcome
         * @return this
         */
        public Context limits(final int commands, final int payloadLength) {
            this.maxInFlight = commands;
            this.maxCommandLength = payloadLength;
            return this;
        }

        /**
         * @param nanos how long a connect, its hello or an offer may wait for the cluster (default 10 s)
         * @return this
         */
        public Context messageTimeoutNs(final long nanos) {
            this.messageTimeoutNs = nanos;
            return this;
        }

        /**
         * @param nanos how long the client waits without any answer before it re-sends every
         *        unanswered command to the leader it knows (default 12.5 s, what
         *        {@link #resendAfterFailoverOf(Duration, Duration)} gives for Aeron's default member
         *        settings); the service answers a command it applied already with
         *        {@link CommandWireFormat#STATUS_DUPLICATE}. Shorter than a failover, it re-sends to
         *        a dead leader; shorter than the pipeline's slowest answer, it re-sends a command
         *        still in the pipeline, which is then answered {@code STATUS_DUPLICATE} without its
         *        reply's payload
         * @return this
         */
        public Context resendAfterNs(final long nanos) {
            this.resendAfterNs = nanos;
            return this;
        }

        /**
         * Sets {@code resendAfterNs} to the longest a failover of these members should take from
         * the leader's last answer to the new leader's event: the leader heartbeat timeout (the
         * followers' wait), plus two election timeouts (a nomination waits under half of one, a
         * ballot one), plus {@value #FAILOVER_MARGIN_MS} ms for the rest, which does not shrink with
         * the settings: the new leader's log reaching the followers (the media driver repeats a
         * connection's setup every 100 ms), the consensus module's 10 ms tick, a scheduler that
         * runs a member late. Every failover that goes as planned then reaches the client as a
         * new-leader event, and the client re-sends on that; the timer re-sends only when something
         * else went wrong. With {@link MemberConfig#withFastFailover()}: 500 ms + 2 x 50 ms + 500 ms
         * = 1.1 s; with Aeron's defaults: 10 s + 2 x 1 s + 500 ms = 12.5 s.
         *
         * <pre>{@code
         * MemberConfig members = MemberConfig.fastFailover(0, memberList, dir);   // as the members run
         * new ClusterCommandClient.Context().resendAfterFailoverOf(members);    // re-send after 1.1 s
         * }</pre>
         *
         * @param members the members' settings (any member's: they are the same on every member)
         * @return this
         */
        public Context resendAfterFailoverOf(final MemberConfig members) {
            Objects.requireNonNull(members, "members must not be null");
            return resendAfterFailoverOf(members.leaderHeartbeatTimeout(), members.electionTimeout());
        }

        /**
         * As {@link #resendAfterFailoverOf(MemberConfig)}, from the two settings, for a client
         * that has no {@link MemberConfig} (its members' configuration files name them
         * {@code leader.heartbeat.timeout} and {@code election.timeout}).
         *
         * @param leaderHeartbeatTimeout the members' leader heartbeat timeout, positive
         * @param electionTimeout the members' election timeout, positive
         * @return this
         * @throws IllegalArgumentException if a timeout is not positive
         */
        public Context resendAfterFailoverOf(final Duration leaderHeartbeatTimeout, final Duration electionTimeout) {
            this.resendAfterNs = resendAfterFailover(leaderHeartbeatTimeout, electionTimeout);
            return this;
        }

        private static long resendAfterFailover(final Duration leaderHeartbeatTimeout,
                final Duration electionTimeout) {
            Objects.requireNonNull(leaderHeartbeatTimeout, "leaderHeartbeatTimeout must not be null");
            Objects.requireNonNull(electionTimeout, "electionTimeout must not be null");
            if (leaderHeartbeatTimeout.isNegative() || leaderHeartbeatTimeout.isZero()) {
                throw new IllegalArgumentException("leaderHeartbeatTimeout must be positive (the members'), was "
                        + leaderHeartbeatTimeout);
            }
            if (electionTimeout.isNegative() || electionTimeout.isZero()) {
                throw new IllegalArgumentException("electionTimeout must be positive (the members'), was "
                        + electionTimeout);
            }
            return leaderHeartbeatTimeout.plus(electionTimeout.multipliedBy(2))
                    .plusMillis(FAILOVER_MARGIN_MS).toNanos();
        }

        /** @return how long the client waits without any answer before it re-sends (nanoseconds) */
        public long resendAfterNs() {
            return resendAfterNs;
        }

        /**
         * @param timeout how long after {@link ClusterCommandClient#trySend} a command may go
         *        unanswered before it is reported {@link CommandWireFormat#STATUS_OUTCOME_UNKNOWN}
         *        (default 30 s: well above a failover, so only a cluster that is down for good
         *        makes a client give up); positive
         * @return this
         * @throws IllegalArgumentException if {@code timeout} is not positive
         */
        public Context commandTimeout(final Duration timeout) {
            Objects.requireNonNull(timeout, "commandTimeout must not be null");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("commandTimeout must be positive, was " + timeout);
            }
            // a timeout past Long.MAX_VALUE nanoseconds (292 years) is as good as none
            this.commandTimeoutNs = timeout.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE
                    : timeout.toNanos();
            return this;
        }

        void check() {
            if (resendAfterNs <= 0) {
                throw new IllegalArgumentException("resendAfterNs must be positive, was " + resendAfterNs);
            }
            if (messageTimeoutNs <= 0) {
                throw new IllegalArgumentException("messageTimeoutNs must be positive, was " + messageTimeoutNs);
            }
            if (aeronDirectoryName == null) {
                throw new IllegalStateException("no aeron directory: set aeronDirectoryName to the client's media driver");
            }
            if (ingressEndpoints == null || ingressEndpoints.isBlank()) {
                throw new IllegalStateException("no ingress endpoints: set ingressEndpoints (id=host:port,...)");
            }
            if (clientId < 0) {
                throw new IllegalStateException("no client id: set clientId to a non-negative id unique among clients");
            }
            if (listener == null) {
                throw new IllegalStateException("no reply listener: set replyListener");
            }
            Objects.requireNonNull(credentials, "credentials must not be null");
            if (maxInFlight < 1 || maxInFlight > DedupTable.WINDOW || Integer.bitCount(maxInFlight) != 1) {
                throw new IllegalArgumentException("maxInFlight must be a power of two from 1 to " + DedupTable.WINDOW
                        + " (the service's dedup window), was " + maxInFlight);
            }
            if (maxCommandLength < 0) {
                throw new IllegalArgumentException("maxCommandLength must not be negative, was " + maxCommandLength);
            }
        }
    }
}

package dev.slipstream.cluster;

import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.exceptions.AeronException;
import io.aeron.logbuffer.Header;
import io.aeron.security.AuthenticationException;
import io.aeron.security.CredentialsSupplier;
import io.aeron.security.NullCredentialsSupplier;
import java.util.Objects;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Sends commands to a cluster running a {@link PipelineClusteredService} and delivers each
 * command's reply once. Every command gets the next correlation id (1, 2, 3, ...) and stays
 * in the client until its reply arrives. After a leader change the client re-sends, in order,
 * every command not yet answered; if its session is lost it connects again on a later
 * {@link #poll()} (a new session, the same client id; while no leader answers, each poll tries
 * once more) and re-sends them. If no answer arrives for {@code resendAfterNs} (2 s by default)
 * while commands are unanswered, it re-sends them too. The service applies a command at most once, so a command
 * the old leader committed is answered {@link CommandWireFormat#STATUS_DUPLICATE} instead of
 * being applied twice.
 *
 * <p>Up to {@code maxInFlight} commands may be unanswered at once; {@link #trySend} returns
 * {@code -1} beyond that. Commands are held in preallocated slots: sending allocates nothing.
 * Not thread-safe: one thread sends and polls.
 *
 * <pre>{@code
 * try (ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
 *         .aeronDirectoryName(driverDir).ingressEndpoints(members.ingressEndpoints())
 *         .clientId(7).replyListener(listener))) {
 *     long correlationId;
 *     while ((correlationId = client.trySend(order, 0, orderLength)) < 0) {
 *         client.poll();                       // full: take replies in
 *     }
 *     while (client.inFlight() > 0) {
 *         client.poll();
 *     }
 * }
 * }</pre>
 */
public final class ClusterCommandClient implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterCommandClient.class.getName());
    private final Context context;
    private final int mask;
    private final UnsafeBuffer[] slots;
    private final int[] lengths;
    private final boolean[] answered;
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
            resendUnanswered();
        }
    };
    private AeronCluster cluster;
    /** The next correlation id to give. */
    private long nextId = 1;
    /** The oldest unanswered correlation id (nextId when none). */
    private long oldest = 1;
    /** The highest correlation id offered to the current leader. */
    private long offeredUpTo;
    private long resends;
    private long reconnects;
    /** When a reply last arrived, or the oldest unanswered command was sent (System.nanoTime). */
    private long lastProgressNs = System.nanoTime();

    private ClusterCommandClient(final Context context) {
        this.context = context;
        final int n = context.maxInFlight;
        this.mask = n - 1;
        this.slots = new UnsafeBuffer[n];
        this.lengths = new int[n];
        this.answered = new boolean[n];
        for (int i = 0; i < n; i++) {
            slots[i] = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH + context.maxCommandLength]);
        }
        this.cluster = connectCluster();
    }

    /**
     * Connects to the cluster.
     *
     * @param context the settings
     * @return a connected client
     * @throws IllegalStateException if the cluster rejected the credentials, or no leader answered
     */
    public static ClusterCommandClient connect(final Context context) {
        Objects.requireNonNull(context, "context must not be null");
        context.check();
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
                    .idleStrategy(new BackoffIdleStrategy())
                    // Aeron's default handler exits the JVM when the driver times out
                    .errorHandler(error -> LOG.log(System.Logger.Level.WARNING, "cluster client "
                            + context.clientId + ": " + error, error))
                    .egressListener(egress));
        } catch (final AuthenticationException e) {
            throw new IllegalStateException("the cluster rejected client " + context.clientId + " ("
                    + e.getMessage() + "): its credentials do not match the cluster's authenticator", e);
        } catch (final AeronException e) {
            throw new IllegalStateException("client " + context.clientId + " could not connect to the cluster at "
                    + context.ingressEndpoints + ": " + e.getMessage(), e);
        }
    }

    /**
     * Sends a command, or keeps it to send on the next {@link #poll()} if the cluster pushes back.
     *
     * @param payload the command's payload
     * @param offset where it starts
     * @param length its length, at most the context's {@code maxCommandLength}
     * @return the command's correlation id, or -1 if {@code maxInFlight} commands are unanswered
     * @throws IllegalArgumentException if {@code length} is out of range
     */
    public long trySend(final DirectBuffer payload, final int offset, final int length) {
        if (length < 0 || length > context.maxCommandLength) {
            throw new IllegalArgumentException("command payload of " + length + " bytes; expected 0 to "
                    + context.maxCommandLength + " (the context's maxCommandLength)");
        }
        if (nextId - oldest >= slots.length) {
            return -1;
        }
        if (oldest == nextId) {
            lastProgressNs = System.nanoTime();  // the wait for an answer starts now
        }
        final long id = nextId++;
        final int slot = (int) (id & mask);
        final UnsafeBuffer buffer = slots[slot];
        buffer.putLong(CommandWireFormat.CLIENT_ID_OFFSET, context.clientId);
        buffer.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, id);
        buffer.putBytes(CommandWireFormat.COMMAND_HEADER_LENGTH, payload, offset, length);
        lengths[slot] = CommandWireFormat.COMMAND_HEADER_LENGTH + length;
        answered[slot] = false;
        offerPending();
        return id;
    }

    /**
     * Takes replies in, re-sends after a leader change, reconnects if the session was lost, and
     * offers commands the cluster pushed back.
     *
     * @return the work done (replies and offers), 0 if none
     */
    public int poll() {
        if (cluster == null || cluster.isClosed()) {
            return reconnect() ? 1 : 0;
        }
        int work;
        try {
            work = cluster.pollEgress();
        } catch (final AeronException e) {
            return reconnect() ? 1 : 0;
        }
        if (oldest < nextId && System.nanoTime() - lastProgressNs > context.resendAfterNs) {
            // no answer for a while: a command or its reply may have been lost in a leader change
            resendUnanswered();
            lastProgressNs = System.nanoTime();
        }
        return work + offerPending();
    }

    /** Connects again (a new session, the same client id) and re-sends; false if no leader answered yet. */
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
        cluster = connected;
        reconnects++;
        resendUnanswered();
        offerPending();
        return true;
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
        if (id < oldest || id >= nextId) {
            return;  // answered already (a reply and a duplicate answer to its resend), or not ours
        }
        final int slot = (int) (id & mask);
        if (answered[slot]) {
            return;
        }
        answered[slot] = true;
        lastProgressNs = System.nanoTime();
        while (oldest < nextId && answered[(int) (oldest & mask)]) {
            oldest++;
        }
        final byte status = buffer.getByte(offset + CommandWireFormat.REPLY_STATUS_OFFSET);
        context.listener.onReply(id, status, buffer, offset + CommandWireFormat.REPLY_HEADER_LENGTH,
                length - CommandWireFormat.REPLY_HEADER_LENGTH);
    }

    /** @return how many commands are unanswered */
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

    /** @return the cluster member that leads, as the client last heard */
    public int leaderMemberId() {
        return cluster == null ? -1 : cluster.leaderMemberId();
    }

    /** Closes the cluster session. Unanswered commands are forgotten. */
    @Override
    public void close() {
        CloseHelper.quietClose(cluster);
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
        private String aeronDirectoryName;
        private String ingressEndpoints;
        private String egressHost = "localhost";
        private long clientId = -1;
        private ReplyListener listener;
        private CredentialsSupplier credentials = new NullCredentialsSupplier();
        private int maxInFlight = 1024;
        private int maxCommandLength = 1024;
        private long messageTimeoutNs = 10_000_000_000L;
        private long resendAfterNs = 2_000_000_000L;

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
         * @param id the client's id, non-negative, unique among clients and kept across reconnects
         * @return this
         */
        public Context clientId(final long id) {
            this.clientId = id;
            return this;
        }

        /**
         * @param replyListener receives each reply
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
         * @param payloadLength the longest command payload (default 1024)
         * @return this
         */
        public Context limits(final int commands, final int payloadLength) {
            this.maxInFlight = commands;
            this.maxCommandLength = payloadLength;
            return this;
        }

        /**
         * @param nanos how long a connect or an offer may wait for the cluster (default 10 s)
         * @return this
         */
        public Context messageTimeoutNs(final long nanos) {
            this.messageTimeoutNs = nanos;
            return this;
        }

        /**
         * @param nanos how long the client waits without any answer before it re-sends every
         *        unanswered command (default 2 s); the service answers a command it applied
         *        already with {@link CommandWireFormat#STATUS_DUPLICATE}
         * @return this
         */
        public Context resendAfterNs(final long nanos) {
            this.resendAfterNs = nanos;
            return this;
        }

        void check() {
            if (resendAfterNs <= 0) {
                throw new IllegalArgumentException("resendAfterNs must be positive, was " + resendAfterNs);
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

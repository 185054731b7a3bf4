package dev.slipstream.cluster;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.codecs.MessageHeaderEncoder;
import io.aeron.cluster.codecs.SessionMessageHeaderEncoder;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.exceptions.RegistrationException;
import java.util.ArrayList;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The leader's own handles on its clients' reply publications, so that a reply a stage makes
 * after a command's log callback returned can leave from {@code doBackgroundWork} instead of
 * waiting for the next log callback. Service thread only.
 *
 * <p>What this relies on, read in Aeron 1.51.0's source:
 * <ul>
 *   <li>{@code ClientSession.offer} goes to {@code ClusteredServiceAgent.offer}, whose
 *       {@code checkForValidInvocation} throws "sending messages or scheduling timers is not
 *       allowed from doBackgroundWork" while the agent runs {@code doBackgroundWork}; on a member
 *       that is not the leader it returns {@code MOCKED_OFFER} and sends nothing.</li>
 *   <li>The agent frames egress as {@code MessageHeader} + {@code SessionMessageHeader}
 *       (leadershipTermId from the last new-leadership-term event, clusterSessionId, timestamp =
 *       the cluster time of the last log message) followed by the payload, offered on the
 *       session's response publication: {@code Aeron.addPublication(responseChannel,
 *       responseStreamId)}, a concurrent publication, added on the leader only. The consensus
 *       module adds the same channel and stream for its session events.</li>
 *   <li>{@code AeronCluster}'s egress handler checks the schema id, the template id and that
 *       the clusterSessionId is its own; it checks neither the leadership term nor the time.</li>
 * </ul>
 *
 * <p>The handles are concurrent publications on the session's response channel and stream,
 * added with {@code Aeron.asyncAddPublication} (no blocking call to the media driver's
 * conductor on the service thread). The driver shares a non-exclusive publication among all who
 * add the same channel and stream, so this handle writes into the same log as the cluster's own
 * session publication: one image at the client, and a session's replies arrive in the order
 * they were offered, whichever path offered them. An exclusive publication would be a second
 * image, and the client's subscription gives no order between images: a reply sent here could
 * overtake an older one sent from a log callback.
 *
 * <pre>{@code
 * LeaderEgress egress = new LeaderEgress();
 * egress.bind(cluster);
 * egress.onRoleChange(Cluster.Role.LEADER);          // adds a handle per open session
 * egress.poll();                                    // in doBackgroundWork: handles come up
 * int outcome = egress.offer(sessionId, buffer, 0, length);
 * }</pre>
 */
class LeaderEgress {
    private static final System.Logger LOG = System.getLogger(LeaderEgress.class.getName());
    /** {@link #offer} sent nothing: this session has no connected handle here (yet). */
    static final int NO_ROUTE = -1;
    private static final long PENDING = Aeron.NULL_VALUE;

    private final Long2ObjectHashMap<SessionEgress> bySession = new Long2ObjectHashMap<>();
    /** The same entries as {@link #bySession}, for polling without an iterator. */
    private final ArrayList<SessionEgress> entries = new ArrayList<>();
    private final UnsafeBuffer header = new UnsafeBuffer(new byte[AeronCluster.SESSION_HEADER_LENGTH]);
    private final SessionMessageHeaderEncoder encoder = new SessionMessageHeaderEncoder();
    private Cluster cluster;
    private boolean leading;
    private long leadershipTermId = Aeron.NULL_VALUE;
    private int pending;
    /** Written by the service thread only; read by anyone (monitoring, tests). */
    private volatile long sent;
    /** Written by the service thread only; read by tests. */
    private volatile int handlesUp;
    /** Written by the service thread only; read by tests. */
    private volatile int handlesShared;

    LeaderEgress() {
        encoder.wrapAndApplyHeader(header, 0, new MessageHeaderEncoder());
    }

    void bind(final Cluster boundCluster) {
        this.cluster = boundCluster;
    }

    /**
     * @return true while this member keeps handles and sends on them: only while it leads, since
     *         a follower's replies are the cluster's to discard. Overridden only by a test that
     *         seeds a bug.
     */
    boolean sends() {
        return leading;
    }

    /** @return how many sessions have a handle here that the media driver has added */
    int handlesUp() {
        return handlesUp;
    }

    /**
     * @return how many of those share the driver's publication that another client (the
     *         cluster's own session publication) added first: one log, one image at the client
     */
    int handlesShared() {
        return handlesShared;
    }

    /** @return replies offered through these handles and accepted */
    long sent() {
        return sent;
    }

    /** The term the next replies are framed with, as the cluster's own session offers track it. */
    void onNewLeadershipTerm(final long termId) {
        this.leadershipTermId = termId;
    }

    void onRoleChange(final Cluster.Role role) {
        final boolean wasSending = sends();
        leading = role == Cluster.Role.LEADER;
        if (sends() && !wasSending) {
            for (final ClientSession session : cluster.clientSessions()) {
                open(session);
            }
        } else if (!sends() && wasSending) {
            closeAll();
        }
    }

    void onSessionOpen(final ClientSession session) {
        if (sends()) {
            open(session);
        }
    }

    void onSessionClose(final long clusterSessionId) {
        final SessionEgress entry = bySession.remove(clusterSessionId);
        if (entry != null) {
            entries.remove(entry);
            close(entry);
        }
    }

    /**
     * Takes up the handles the media driver has added since the last call.
     *
     * @return how many came up or failed
     */
    int poll() {
        if (!sends()) {
            return 0;
        }
        if (pending == 0) {
            return 0;
        }
        int work = 0;
        final Aeron aeron = cluster.aeron();
        for (int i = 0; i < entries.size(); i++) {
            final SessionEgress entry = entries.get(i);
            if (entry.publication != null || entry.registrationId == PENDING) {
                continue;
            }
            try {
                entry.publication = aeron.getPublication(entry.registrationId);
                if (entry.publication != null) {
                    handlesUp = handlesUp + 1;  // single writer: the service thread
                    entry.shared = entry.publication.originalRegistrationId() != entry.registrationId;
                    handlesShared = handlesShared + (entry.shared ? 1 : 0);
                    pending--;
                    work++;
                }
            } catch (final RegistrationException e) {
                // the session keeps the log-callback path
                LOG.log(System.Logger.Level.WARNING, "reply publication for cluster session "
                        + entry.clusterSessionId + " failed; its replies leave on log callbacks: " + e.getMessage());
                entry.registrationId = PENDING;
                pending--;
                work++;
            }
        }
        return work;
    }

    /**
     * Offers one reply on the session's own handle.
     *
     * @return {@link ReplyOutbox.ReplyTarget#SENT}, {@link ReplyOutbox.ReplyTarget#RETRY} (pushed
     *         back), or {@link #NO_ROUTE} when this member does not lead, the term is not known
     *         yet, or the session has no connected handle here: the caller decides
     */
    int offer(final long clusterSessionId, final DirectBuffer buffer, final int offset, final int length) {
        if (!sends() || leadershipTermId == Aeron.NULL_VALUE) {
            return NO_ROUTE;
        }
        final SessionEgress entry = bySession.get(clusterSessionId);
        if (entry == null || entry.publication == null) {
            return NO_ROUTE;
        }
        encoder.leadershipTermId(leadershipTermId).clusterSessionId(clusterSessionId).timestamp(cluster.time());
        final long result = entry.publication.offer(header, 0, AeronCluster.SESSION_HEADER_LENGTH, buffer, offset,
                length);
        if (result > 0) {
            sent = sent + 1;  // single writer: the service thread
            return ReplyOutbox.ReplyTarget.SENT;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
            return ReplyOutbox.ReplyTarget.RETRY;
        }
        // not connected (the client's subscription is gone or not yet there), closed: the
        // cluster's own session offer says what became of the session
        return NO_ROUTE;
    }

    /** Closes every handle: leadership lost, or the service stops. */
    void closeAll() {
        for (int i = 0; i < entries.size(); i++) {
            close(entries.get(i));
        }
        entries.clear();
        bySession.clear();
        pending = 0;
    }

    private void open(final ClientSession session) {
        if (bySession.containsKey(session.id())) {
            return;
        }
        final SessionEgress entry = new SessionEgress(session.id());
        entry.registrationId = cluster.aeron().asyncAddPublication(session.responseChannel(),
                session.responseStreamId());
        pending++;
        bySession.put(session.id(), entry);
        entries.add(entry);
    }

    private void close(final SessionEgress entry) {
        if (entry.publication != null) {
            entry.publication.close();  // asynchronous: the driver is told, not waited for
            entry.publication = null;
            handlesUp = handlesUp - 1;  // single writer: the service thread
            handlesShared = handlesShared - (entry.shared ? 1 : 0);
        } else if (entry.registrationId != PENDING) {
            cluster.aeron().asyncRemovePublication(entry.registrationId);
            pending--;
        }
        entry.registrationId = PENDING;
    }

    /** One session's handle: being added, up, or failed (kept, without a publication). */
    private static final class SessionEgress {
        final long clusterSessionId;
        long registrationId = PENDING;
        Publication publication;
        /** True if the driver's publication was added first by another client. */
        boolean shared;

        SessionEgress(final long clusterSessionId) {
            this.clusterSessionId = clusterSessionId;
        }
    }
}

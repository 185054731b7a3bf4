package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import org.agrona.collections.Long2LongHashMap;

/**
 * Which client id each session speaks for. A session's first message is a hello naming its
 * client id; the service checks it against what the session's credentials allow
 * ({@link ClientPrincipal}), makes the session the only one speaking for that id (an older
 * session of the same id is told {@link CommandWireFormat#STATUS_SUPERSEDED} and closed), and
 * answers {@link CommandWireFormat#STATUS_WELCOME} with the highest correlation id applied for
 * the client, so that a client restarted with its id goes on after it. Every command is then
 * checked against the session's client id.
 *
 * <p>Every decision is a function of the log (the hello's place in it, the principal the log
 * carries with the session, the dedup table), so every member decides alike. The binding itself
 * lives in the {@link DedupTable} (its owner session per client), which is in every snapshot;
 * this class keeps the reverse map, rebuilt from it after a snapshot is loaded. Service thread
 * only.
 *
 * <pre>{@code
 * String refusal = sessions.checkSender(session.id(), clientId);   // null: the session may send
 * }</pre>
 */
class ClientSessions {
    private static final long NO_CLIENT = -1;
    private final Long2LongHashMap clientBySession = new Long2LongHashMap(NO_CLIENT);
    private final DedupTable dedup;
    private long takeovers;

    ClientSessions(final DedupTable dedup) {
        this.dedup = dedup;
        dedup.forEachOwner((clientId, sessionId) -> clientBySession.put(sessionId, clientId));
    }

    /**
     * A hello: binds the session to {@code clientId}, or refuses it; queues the answer.
     *
     * @return the session that spoke for the client before and must now be closed, or
     *         {@link DedupTable#NO_SESSION}
     */
    long onHello(final ClientSession session, final long clientId, final long timestamp, final ReplyOutbox outbox,
            final int maxCommandLength) {
        final long sessionId = session.id();
        final String refusal = helloRefusal(session, clientId);
        if (refusal != null) {
            outbox.replyFromService(sessionId, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_REFUSED,
                    refusal);
            return DedupTable.NO_SESSION;
        }
        final long previous = dedup.bind(clientId, sessionId, timestamp);
        if (previous == DedupTable.FULL) {
            outbox.replyFromService(sessionId, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_REFUSED,
                    "the cluster remembers at most " + dedup.maxClients() + " clients and each has a live session; "
                            + "client " + clientId + " cannot be taken on until one closes (or raise maxClients)");
            return DedupTable.NO_SESSION;
        }
        clientBySession.put(sessionId, clientId);
        outbox.welcomeFromService(sessionId, dedup.highestApplied(clientId), maxCommandLength);
        if (previous != DedupTable.NO_SESSION && previous != sessionId) {
            clientBySession.remove(previous);
            takeovers++;
            outbox.replyFromService(previous, CommandWireFormat.HELLO_CORRELATION_ID,
                    CommandWireFormat.STATUS_SUPERSEDED, "client " + clientId + " was taken over by session "
                            + sessionId + ", which said hello with the same client id; this session is closed");
            return previous;
        }
        return DedupTable.NO_SESSION;
    }

    private String helloRefusal(final ClientSession session, final long clientId) {
        if (clientId < 0) {
            return "client id " + clientId + " is negative; expected a client id of 0 or more";
        }
        final byte[] principal = session.encodedPrincipal();
        if (!ClientPrincipal.allows(principal, clientId)) {
            return "session " + session.id() + " may not speak for client " + clientId
                    + ": its credentials are for client ids " + ClientPrincipal.describe(principal);
        }
        final long current = clientBySession.get(session.id());
        if (current != NO_CLIENT && current != clientId) {
            return "session " + session.id() + " already speaks for client " + current
                    + "; a session speaks for one client id: connect again for client " + clientId;
        }
        return null;
    }

    /** @return null if the session may send commands as {@code clientId}, else why not */
    String checkSender(final long sessionId, final long clientId) {
        final long bound = clientBySession.get(sessionId);
        if (bound == clientId) {
            return null;
        }
        if (bound == NO_CLIENT) {
            return "session " + sessionId + " speaks for no client: its first message must be a hello (correlation id "
                    + CommandWireFormat.HELLO_CORRELATION_ID + "), or a newer session of its client took it over";
        }
        return "client id " + clientId + " is not this session's: session " + sessionId
                + " said hello as client " + bound;
    }

    /** The session closed: it speaks for no client any more. */
    void onSessionClose(final long sessionId) {
        final long clientId = clientBySession.remove(sessionId);
        if (clientId != NO_CLIENT) {
            dedup.release(clientId, sessionId);
        }
    }

    /** @return how many sessions speak for a client now */
    int boundSessions() {
        return clientBySession.size();
    }

    /** @return how many times a newer session took a client over from an older one */
    long takeovers() {
        return takeovers;
    }

    /** Closes a session a newer one took over, once its notice had a chance to leave. */
    static void close(final Cluster cluster, final long sessionId) {
        final ClientSession old = cluster.getClientSession(sessionId);
        if (old != null && !old.isClosing()) {
            cluster.closeClientSession(sessionId);
        }
    }
}

package dev.slipstream.cluster;

import io.aeron.Publication;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import org.agrona.DirectBuffer;

/**
 * Where the outbox's replies leave by: the two {@link ReplyOutbox.ReplyTarget}s the service
 * drains the outbox into. In a log callback ({@link #deliver}) a reply goes on the leader's own
 * publication for its session if one is up ({@link LeaderEgress}), else through the session's
 * offer; between log callbacks ({@link #deliverBetweenCallbacks}, from {@code doBackgroundWork})
 * it goes on the leader's own publication or waits, since Aeron refuses offers to client
 * sessions there. Both drain the one outbox, so a session's replies leave in order whichever
 * path comes first. Service thread only, except {@link #betweenCallbacks}.
 *
 * <pre>{@code
 * ReplyRouting replies = new ReplyRouting(cluster, egress, outbox);
 * replies.deliver();                       // at the end of every log callback
 * replies.deliverBetweenCallbacks();       // in doBackgroundWork
 * }</pre>
 */
final class ReplyRouting {
    private final Cluster cluster;
    private final LeaderEgress egress;
    private final ReplyOutbox outbox;
    // made once: the outbox is drained on every command and every duty cycle
    private final ReplyOutbox.ReplyTarget inCallback = this::offerInCallback;
    private final ReplyOutbox.ReplyTarget betweenCallbacks = this::offerBetweenCallbacks;
    /** Written by the service thread only; read by tests. */
    private volatile long sentBetweenCallbacks;

    ReplyRouting(final Cluster cluster, final LeaderEgress egress, final ReplyOutbox outbox) {
        this.cluster = cluster;
        this.egress = egress;
        this.outbox = outbox;
    }

    /**
     * In a log callback: offers the ready replies, in order, until the outbox is empty or a
     * session pushes back.
     *
     * @return how many replies left the outbox (sent or undeliverable)
     */
    int deliver() {
        return outbox.deliver(inCallback);
    }

    /**
     * In {@code doBackgroundWork}: on the leader, brings its own publications up and sends the
     * ready replies on them; elsewhere nothing.
     *
     * @return the work done, 0 for none
     */
    int deliverBetweenCallbacks() {
        // Aeron refuses offers to client sessions from here (ClientSession.offer throws): the
        // leader sends on its own publications; whatever cannot leave here stays queued, in
        // order, for the next log callback or the reply timer's event
        if (!egress.sends()) {
            return 0;
        }
        return egress.poll() + outbox.deliver(betweenCallbacks);
    }

    /** @return replies sent from {@code doBackgroundWork}, between log callbacks (any thread) */
    long betweenCallbacks() {
        return sentBetweenCallbacks;
    }

    /** In a log callback: the session's own publication if this member has one up, else the session's offer. */
    private int offerInCallback(final long clusterSessionId, final DirectBuffer buffer, final int offset,
            final int length) {
        final ClientSession session = cluster.getClientSession(clusterSessionId);
        if (session == null || session.isClosing()) {
            return ReplyOutbox.ReplyTarget.GONE;
        }
        final int direct = egress.offer(clusterSessionId, buffer, offset, length);
        if (direct != LeaderEgress.NO_ROUTE) {
            return direct;
        }
        final long result = session.offer(buffer, offset, length);
        if (result > 0) {
            return ReplyOutbox.ReplyTarget.SENT;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
            return ReplyOutbox.ReplyTarget.RETRY;
        }
        // a new leader's reply channel to a live session still coming up, or a session restored
        // from the log whose client is gone and which lives until it times out
        if (result == Publication.NOT_CONNECTED) {
            return ReplyOutbox.ReplyTarget.NOT_CONNECTED;
        }
        return ReplyOutbox.ReplyTarget.GONE;
    }

    /**
     * In {@code doBackgroundWork}: the session's own publication, or nothing. A reply that cannot
     * leave here is {@code RETRY}: it stays at the head of the outbox, before every later reply,
     * until a log callback offers it through the session.
     */
    private int offerBetweenCallbacks(final long clusterSessionId, final DirectBuffer buffer, final int offset,
            final int length) {
        final ClientSession session = cluster.getClientSession(clusterSessionId);
        if (session == null || session.isClosing()) {
            return ReplyOutbox.ReplyTarget.GONE;
        }
        final int direct = egress.offer(clusterSessionId, buffer, offset, length);
        if (direct == ReplyOutbox.ReplyTarget.SENT) {
            sentBetweenCallbacks = sentBetweenCallbacks + 1;  // single writer: the service thread
        }
        return direct == LeaderEgress.NO_ROUTE ? ReplyOutbox.ReplyTarget.RETRY : direct;
    }
}

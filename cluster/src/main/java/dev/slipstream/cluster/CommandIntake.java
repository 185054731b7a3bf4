package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;

/**
 * Decides what each message in the log becomes: a hello that binds its session to a client id
 * ({@link ClientSessions}), a refusal (too short for its header, from a session that does not
 * speak for its client, a negative correlation id, longer than the command limit, too far ahead of the client's oldest
 * unapplied command, or from a new client while the dedup table is full), a duplicate answered
 * {@link CommandWireFormat#STATUS_DUPLICATE}, or a command applied once and published into the
 * ring ({@link RingPublisher}). Answers are queued in the outbox; sending them is the caller's,
 * after this returns.
 *
 * <p>Every decision here reads only the message, its place in the log and state that is itself
 * a function of the log (the session bindings and the dedup table, both in every snapshot), so
 * every member decides alike and applies the same commands in the same order. The checks run in
 * a fixed order (header, hello, sender, limit, dedup), and a message fails on the first it
 * fails. Service thread only.
 *
 * <pre>{@code
 * CommandIntake<Order> intake = new CommandIntake<>(new ClientSessions(dedup), dedup, outbox, publisher, 64 * 1024);
 * long superseded = intake.onSessionMessage(session, timestamp, buffer, offset, length, header);
 * replies.deliver();
 * if (superseded != DedupTable.NO_SESSION) {
 *     ClientSessions.close(cluster, superseded);
 * }
 * }</pre>
 *
 * @param <T> the payload type
 */
final class CommandIntake<T> {
    private final ClientSessions sessions;
    private final DedupTable dedup;
    private final ReplyOutbox outbox;
    private final RingPublisher<T> publisher;
    private final int maxCommandLength;

    CommandIntake(final ClientSessions sessions, final DedupTable dedup, final ReplyOutbox outbox,
            final RingPublisher<T> publisher, final int maxCommandLength) {
        this.sessions = sessions;
        this.dedup = dedup;
        this.outbox = outbox;
        this.publisher = publisher;
        this.maxCommandLength = maxCommandLength;
    }

    /**
     * Takes one message from the log: refuses it, binds its session, answers it as a duplicate,
     * or publishes it into the ring.
     *
     * @return the session a hello took its client over from, which the caller closes once the
     *         session's notice has had its chance to leave; else {@link DedupTable#NO_SESSION}
     */
    long onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        if (length < CommandWireFormat.COMMAND_HEADER_LENGTH) {
            outbox.replyFromService(session.id(), -1, CommandWireFormat.STATUS_REFUSED, "command of " + length
                    + " bytes is shorter than its header (" + CommandWireFormat.COMMAND_HEADER_LENGTH + " bytes)");
            return DedupTable.NO_SESSION;
        }
        final long clientId = buffer.getLong(offset + CommandWireFormat.CLIENT_ID_OFFSET);
        final long correlationId = buffer.getLong(offset + CommandWireFormat.CORRELATION_ID_OFFSET);
        if (correlationId == CommandWireFormat.HELLO_CORRELATION_ID) {
            return sessions.onHello(session, clientId, timestamp, outbox, maxCommandLength);
        }
        final String refusal = sessions.checkSender(session.id(), clientId);
        final int payloadLength = length - CommandWireFormat.COMMAND_HEADER_LENGTH;
        if (refusal != null) {
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_REFUSED, refusal);
        } else if (correlationId < 0) {
            // below every watermark: dedup would answer it as a duplicate of a command never applied
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_REFUSED, "correlation id "
                    + correlationId + " is negative; expected 1, 2, 3, ... per client (0 is the hello)");
        } else if (payloadLength > maxCommandLength) {
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_REFUSED, "command payload of "
                    + payloadLength + " bytes is longer than the service's limit of " + maxCommandLength + " bytes");
        } else {
            applyOnce(session, timestamp, buffer, offset, length, header, clientId, correlationId);
        }
        return DedupTable.NO_SESSION;
    }

    /** The session closed: it speaks for no client any more. */
    void onSessionClose(final long sessionId) {
        sessions.onSessionClose(sessionId);
    }

    private void applyOnce(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header, final long clientId, final long correlationId) {
        final int verdict = dedup.tryApply(clientId, correlationId, timestamp);
        if (verdict == DedupTable.APPLY) {
            publisher.publishCommand(buffer, offset + CommandWireFormat.COMMAND_HEADER_LENGTH,
                    length - CommandWireFormat.COMMAND_HEADER_LENGTH, header.position(), timestamp, session.id(),
                    clientId, correlationId);
        } else if (verdict == DedupTable.DUPLICATE) {
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_DUPLICATE, null);
        } else if (verdict == DedupTable.TOO_FAR_AHEAD) {
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_REFUSED,
                    "correlation id " + correlationId + " is more than " + DedupTable.WINDOW
                            + " ahead of the client's oldest unapplied command");
        } else {
            outbox.replyFromService(session.id(), correlationId, CommandWireFormat.STATUS_REFUSED,
                    "client " + clientId + " is not remembered and the table of " + dedup.maxClients()
                            + " clients is full");
        }
    }
}

package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The service side of the client's session protocol, written by hand so the client's tests do
 * not depend on {@link PipelineClusteredService}: it answers a hello with a welcome (or a
 * refusal), takes a client id over from an older session with {@link CommandWireFormat#STATUS_SUPERSEDED},
 * and answers each command {@link CommandWireFormat#STATUS_APPLIED} with its correlation id as the
 * payload. Knobs the test thread sets make it refuse, leave commands unanswered, or drop a session.
 *
 * <pre>{@code
 * HelloService service = new HelloService();
 * service.highestApplied.put(7L, 41L);     // client 7 is welcomed with 41: its first command is 42
 * ClusterMember member = ClusterMember.start(config, service);
 * }</pre>
 */
final class HelloService implements ClusteredService {
    /** Per client id, the highest correlation id answered; the welcome reports it (0 if none). */
    final Map<Long, Long> highestApplied = new ConcurrentHashMap<>();
    /** The command limit the welcome reports. */
    volatile int maxCommandLength = 1024;
    /** Non-null: every hello is refused with this reason. */
    volatile String refusal;
    /** False: commands are held unanswered, and answered (late) before the next command once it is true again. */
    volatile boolean answering = true;
    /** The next command with this correlation id is not answered: its session is closed instead (0: none). */
    volatile long closeSessionOn;
    /** Per client id, the hellos received. */
    final Map<Long, AtomicInteger> hellos = new ConcurrentHashMap<>();
    /** Per client id, the commands received (hellos not counted). */
    final Map<Long, Queue<Long>> commands = new ConcurrentHashMap<>();
    /** Commands that arrived on a session that had not said hello with their client id. */
    final AtomicInteger withoutHello = new AtomicInteger();
    /** Answers sent for commands after they had been held. */
    final AtomicInteger lateAnswers = new AtomicInteger();

    // the rest is the service thread's alone
    private final Map<Long, Long> clientOfSession = new HashMap<>();
    private final Map<Long, Long> sessionOfClient = new HashMap<>();
    /** Held commands: {session id, correlation id}. */
    private final Queue<long[]> held = new ConcurrentLinkedQueue<>();
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[512]);
    private Cluster cluster;
    private IdleStrategy idle;

    int hellosOf(final long clientId) {
        final AtomicInteger n = hellos.get(clientId);
        return n == null ? 0 : n.get();
    }

    int commandsOf(final long clientId) {
        final Queue<Long> ids = commands.get(clientId);
        return ids == null ? 0 : ids.size();
    }

    @Override
    public void onStart(final Cluster startedCluster, final Image snapshotImage) {
        this.cluster = startedCluster;
        this.idle = startedCluster.idleStrategy();
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        final Long clientId = clientOfSession.remove(session.id());
        if (clientId != null && Long.valueOf(session.id()).equals(sessionOfClient.get(clientId))) {
            sessionOfClient.remove(clientId);
        }
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        if (length < CommandWireFormat.COMMAND_HEADER_LENGTH) {
            return;
        }
        final long clientId = buffer.getLong(offset + CommandWireFormat.CLIENT_ID_OFFSET);
        final long correlationId = buffer.getLong(offset + CommandWireFormat.CORRELATION_ID_OFFSET);
        if (correlationId == CommandWireFormat.HELLO_CORRELATION_ID) {
            onHello(session, clientId);
            return;
        }
        if (!Long.valueOf(clientId).equals(clientOfSession.get(session.id()))) {
            withoutHello.incrementAndGet();
            answer(session, correlationId, CommandWireFormat.STATUS_REFUSED, "say hello first");
            return;
        }
        commands.computeIfAbsent(clientId, id -> new ConcurrentLinkedQueue<>()).add(correlationId);
        if (correlationId == closeSessionOn) {
            closeSessionOn = 0;  // once: the re-send on the next session is answered
            cluster.closeClientSession(session.id());
            return;
        }
        if (!answering) {
            held.add(new long[] {session.id(), correlationId});
            return;
        }
        // offers to a client session are allowed only inside a log callback: the held ones go now
        for (long[] late; (late = held.poll()) != null; ) {
            final ClientSession lateSession = cluster.getClientSession(late[0]);
            if (lateSession != null && answer(lateSession, late[1], CommandWireFormat.STATUS_APPLIED, late[1])) {
                lateAnswers.incrementAndGet();
            }
        }
        highestApplied.merge(clientId, correlationId, Math::max);
        answer(session, correlationId, CommandWireFormat.STATUS_APPLIED, correlationId);
    }

    private void onHello(final ClientSession session, final long clientId) {
        hellos.computeIfAbsent(clientId, id -> new AtomicInteger()).incrementAndGet();
        final String refused = refusal;
        if (refused != null) {
            answer(session, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_REFUSED, refused);
            return;
        }
        final Long older = sessionOfClient.put(clientId, session.id());
        clientOfSession.put(session.id(), clientId);
        if (older != null && older != session.id()) {
            clientOfSession.remove(older);
            final ClientSession olderSession = cluster.getClientSession(older);
            if (olderSession != null) {
                answer(olderSession, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_SUPERSEDED,
                        "session " + session.id() + " said hello as client " + clientId);
                cluster.closeClientSession(older);
            }
        }
        reply.putLong(CommandWireFormat.REPLY_HEADER_LENGTH + CommandWireFormat.WELCOME_HIGHEST_APPLIED_OFFSET,
                highestApplied.getOrDefault(clientId, 0L));
        reply.putInt(CommandWireFormat.REPLY_HEADER_LENGTH + CommandWireFormat.WELCOME_MAX_COMMAND_LENGTH_OFFSET,
                maxCommandLength);
        send(session, CommandWireFormat.HELLO_CORRELATION_ID, CommandWireFormat.STATUS_WELCOME,
                CommandWireFormat.WELCOME_LENGTH);
    }

    private boolean answer(final ClientSession session, final long correlationId, final byte status,
            final String reason) {
        final int length = reply.putStringWithoutLengthAscii(CommandWireFormat.REPLY_HEADER_LENGTH, reason);
        return send(session, correlationId, status, length);
    }

    private boolean answer(final ClientSession session, final long correlationId, final byte status,
            final long payload) {
        reply.putLong(CommandWireFormat.REPLY_HEADER_LENGTH, payload);
        return send(session, correlationId, status, Long.BYTES);
    }

    /** Offers the reply in {@code reply}; a closing session, or one that stays back-pressured, goes without. */
    private boolean send(final ClientSession session, final long correlationId, final byte status,
            final int payloadLength) {
        reply.putLong(CommandWireFormat.REPLY_CORRELATION_ID_OFFSET, correlationId);
        reply.putByte(CommandWireFormat.REPLY_STATUS_OFFSET, status);
        idle.reset();
        for (int attempt = 0; attempt < 1_000 && !session.isClosing(); attempt++) {
            if (session.offer(reply, 0, CommandWireFormat.REPLY_HEADER_LENGTH + payloadLength) > 0) {
                return true;
            }
            idle.idle();
        }
        return false;
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
    }

    @Override
    public void onTerminate(final Cluster terminatedCluster) {
    }
}

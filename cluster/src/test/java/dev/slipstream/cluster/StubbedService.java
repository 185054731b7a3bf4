package dev.slipstream.cluster;

import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A started {@link PipelineClusteredService} behind a stub {@link Cluster}: the test plays the
 * log (hellos, commands, session closes) on the calling thread, as the service thread would,
 * and reads every reply the service offered to each session.
 */
final class StubbedService implements AutoCloseable {
    /** One reply as a session received it. */
    record Reply(long sessionId, long correlationId, byte status, String text, long[] longs) {
        @Override
        public String toString() {
            return sessionId + "/" + correlationId + ":" + status + (text.isEmpty() ? "" : " " + text);
        }
    }

    final PipelineClusteredService<Amount> service;
    final List<Reply> replies = new ArrayList<>();
    final List<Long> closed = new ArrayList<>();
    private final Map<Long, ClientSession> sessions = new ConcurrentHashMap<>();
    private final Map<Long, Boolean> closing = new ConcurrentHashMap<>();
    private final Cluster cluster;
    private final io.aeron.logbuffer.Header header = Stubs.header();
    private long time = 1000;

    StubbedService(final PipelineClusteredService.Builder<Amount> builder) {
        this(builder, service -> { });
    }

    /** As above, with {@code seed} applied to the service before it starts (a test's seeded bug). */
    StubbedService(final PipelineClusteredService.Builder<Amount> builder,
            final java.util.function.Consumer<PipelineClusteredService<Amount>> seed) {
        this.service = builder.fastReplies(false).build();
        seed.accept(service);
        this.cluster = Stubs.proxy(Cluster.class, (method, args) -> switch (method) {
            case "idleStrategy" -> new SleepingMillisIdleStrategy(1);
            case "timeUnit" -> TimeUnit.MILLISECONDS;
            case "memberId" -> 0;
            case "getClientSession" -> sessions.get((Long) args[0]);
            case "time" -> time;
            case "logPosition" -> 64L;
            case "scheduleTimer", "cancelTimer" -> true;
            case "closeClientSession" -> {
                closed.add((Long) args[0]);
                closing.put((Long) args[0], true);
                yield true;
            }
            default -> throw new UnsupportedOperationException("the stub cluster has no " + method);
        });
        service.onStart(cluster, null);
    }

    /** Opens session {@code sessionId}, whose credentials gave it {@code principal} (null: none). */
    ClientSession open(final long sessionId, final byte[] principal) {
        final ClientSession session = Stubs.proxy(ClientSession.class, (method, args) -> switch (method) {
            case "id" -> sessionId;
            case "isClosing" -> closing.getOrDefault(sessionId, false);
            case "encodedPrincipal" -> principal;
            case "offer" -> {
                record(sessionId, (DirectBuffer) args[0], (int) args[1], (int) args[2]);
                yield 1L;
            }
            default -> null;
        });
        sessions.put(sessionId, session);
        service.onSessionOpen(session, time);
        return session;
    }

    void close(final long sessionId) {
        final ClientSession session = sessions.remove(sessionId);
        service.onSessionClose(session, time, io.aeron.cluster.codecs.CloseReason.CLIENT_ACTION);
    }

    void hello(final long sessionId, final long clientId) {
        send(sessionId, clientId, CommandWireFormat.HELLO_CORRELATION_ID, -1, 0);
    }

    void command(final long sessionId, final long clientId, final long correlationId, final long amount) {
        send(sessionId, clientId, correlationId, amount, Long.BYTES);
    }

    /** A message of a command header and {@code payloadLength} bytes, the first eight {@code amount}. */
    void send(final long sessionId, final long clientId, final long correlationId, final long amount,
            final int payloadLength) {
        final UnsafeBuffer message = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH
                + Math.max(payloadLength, Long.BYTES)]);
        message.putLong(CommandWireFormat.CLIENT_ID_OFFSET, clientId);
        message.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, correlationId);
        message.putLong(CommandWireFormat.COMMAND_HEADER_LENGTH, amount);
        time++;
        service.onSessionMessage(sessions.get(sessionId), time, message, 0,
                CommandWireFormat.COMMAND_HEADER_LENGTH + payloadLength, header);
    }

    /** Waits until the stages handled everything published, then lets the reply timer deliver. */
    void drain() {
        Await.until("the stages to catch up", Duration.ofSeconds(30), () -> { },
                () -> service.pipeline().ringBuffer().getMinimumGatingSequence()
                        == service.pipeline().ringBuffer().getCursor());
        time++;
        service.onTimerEvent(PipelineClusteredService.REPLY_TIMER_ID, time);
    }

    /** @return the replies to one session, as "correlation:status text" */
    List<String> repliesTo(final long sessionId) {
        final List<String> seen = new ArrayList<>();
        for (final Reply reply : replies) {
            if (reply.sessionId == sessionId) {
                seen.add(reply.correlationId + ":" + reply.status + (reply.text.isEmpty() ? "" : " " + reply.text));
            }
        }
        return seen;
    }

    private void record(final long sessionId, final DirectBuffer buffer, final int offset, final int length) {
        final long correlationId = buffer.getLong(offset + CommandWireFormat.REPLY_CORRELATION_ID_OFFSET);
        final byte status = buffer.getByte(offset + CommandWireFormat.REPLY_STATUS_OFFSET);
        final int payload = length - CommandWireFormat.REPLY_HEADER_LENGTH;
        String text = "";
        long[] longs = new long[0];
        if (status == CommandWireFormat.STATUS_WELCOME) {
            longs = new long[] {
                buffer.getLong(offset + CommandWireFormat.REPLY_HEADER_LENGTH
                        + CommandWireFormat.WELCOME_HIGHEST_APPLIED_OFFSET),
                buffer.getInt(offset + CommandWireFormat.REPLY_HEADER_LENGTH
                        + CommandWireFormat.WELCOME_MAX_COMMAND_LENGTH_OFFSET)};
            text = "highest=" + longs[0] + " limit=" + longs[1];
        } else if (status == CommandWireFormat.STATUS_APPLIED && payload == Long.BYTES) {
            text = "=" + buffer.getLong(offset + CommandWireFormat.REPLY_HEADER_LENGTH);
        } else if (payload > 0) {
            final byte[] bytes = new byte[payload];
            buffer.getBytes(offset + CommandWireFormat.REPLY_HEADER_LENGTH, bytes);
            text = new String(bytes, StandardCharsets.UTF_8);
        }
        replies.add(new Reply(sessionId, correlationId, status, text, longs));
    }

    @Override
    public void close() {
        service.onTerminate(cluster);
    }
}

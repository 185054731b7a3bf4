package dev.slipstream.bench.cluster;

import dev.slipstream.cluster.CommandWireFormat;
import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The baseline of the round-trip benchmark: a plain Aeron Cluster service that answers every
 * command at once, in {@code onSessionMessage}, on the command's client session. It reads the
 * same {@link CommandWireFormat} header and 8-byte amount as the clustered pipeline and writes
 * the same reply (correlation id, status applied, the amount), so both do the same decoding;
 * it keeps no dedup table and no ring. What it costs is what Aeron Cluster itself costs.
 *
 * <pre>{@code
 * ClusterMember member = ClusterMember.start(config, new EchoService());
 * }</pre>
 */
public final class EchoService implements ClusteredService {
    private static final int AMOUNT_OFFSET = CommandWireFormat.COMMAND_HEADER_LENGTH;
    private final UnsafeBuffer reply = new UnsafeBuffer(new byte[CommandWireFormat.REPLY_HEADER_LENGTH + Long.BYTES]);
    private IdleStrategy idle;

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        this.idle = cluster.idleStrategy();
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
        // nothing kept per session
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        // nothing kept per session
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        if (length != AMOUNT_OFFSET + Long.BYTES) {
            throw new IllegalArgumentException("command of " + length + " bytes; expected "
                    + (AMOUNT_OFFSET + Long.BYTES) + " (a command header and an 8-byte amount)");
        }
        buffer.getLong(offset + CommandWireFormat.CLIENT_ID_OFFSET);  // read, as the pipeline's dedup does
        final long correlationId = buffer.getLong(offset + CommandWireFormat.CORRELATION_ID_OFFSET);
        final long amount = buffer.getLong(offset + AMOUNT_OFFSET);
        reply.putLong(CommandWireFormat.REPLY_CORRELATION_ID_OFFSET, correlationId);
        reply.putByte(CommandWireFormat.REPLY_STATUS_OFFSET, CommandWireFormat.STATUS_APPLIED);
        reply.putLong(CommandWireFormat.REPLY_HEADER_LENGTH, amount);
        idle.reset();
        long result;
        while ((result = session.offer(reply, 0, reply.capacity())) < 0) {
            if (result != Publication.BACK_PRESSURED && result != Publication.ADMIN_ACTION) {
                return;  // the client is gone: its answer with it
            }
            idle.idle();
        }
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        // schedules none
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        // no state
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        // every role answers the same; the cluster discards followers' answers
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        // nothing to stop
    }
}

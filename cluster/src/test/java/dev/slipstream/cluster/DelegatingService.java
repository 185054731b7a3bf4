package dev.slipstream.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;

/**
 * A {@code ClusteredService} that hands every callback to the test's pipeline service: the base
 * of the tests' wrappers, each of which overrides the callbacks it watches or breaks.
 *
 * <pre>{@code
 * ClusteredService watched = new DelegatingService(service) {
 *     public int doBackgroundWork(long nowNs) { cycles++; return super.doBackgroundWork(nowNs); }
 * };
 * }</pre>
 */
class DelegatingService implements ClusteredService {
    final PipelineClusteredService<Amount> service;

    DelegatingService(final PipelineClusteredService<Amount> service) {
        this.service = service;
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        service.onStart(cluster, snapshotImage);
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp) {
        service.onSessionOpen(session, timestamp);
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason) {
        service.onSessionClose(session, timestamp, closeReason);
    }

    @Override
    public void onSessionMessage(final ClientSession session, final long timestamp, final DirectBuffer buffer,
            final int offset, final int length, final Header header) {
        service.onSessionMessage(session, timestamp, buffer, offset, length, header);
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        service.onTimerEvent(correlationId, timestamp);
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        service.onTakeSnapshot(snapshotPublication);
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole) {
        service.onRoleChange(newRole);
    }

    @Override
    public void onTerminate(final Cluster cluster) {
        service.onTerminate(cluster);
    }

    @Override
    public void onNewLeadershipTermEvent(final long leadershipTermId, final long logPosition, final long timestamp,
            final long termBaseLogPosition, final int leaderMemberId, final int logSessionId, final TimeUnit timeUnit,
            final int appVersion) {
        service.onNewLeadershipTermEvent(leadershipTermId, logPosition, timestamp, termBaseLogPosition,
                leaderMemberId, logSessionId, timeUnit, appVersion);
    }

    @Override
    public int doBackgroundWork(final long nowNs) {
        return service.doBackgroundWork(nowNs);
    }
}

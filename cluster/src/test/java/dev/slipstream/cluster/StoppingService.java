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
import org.agrona.concurrent.AgentTerminationException;

/**
 * A clustered service that hands every callback to a {@link PipelineClusteredService} until
 * {@link #fail} is called; the service thread's next duty cycle then throws what it was given
 * there: an {@code Error} (the agent's thread dies with it; the rest of the member runs on), or an
 * {@link AgentTerminationException}, as the pipeline service throws when a stage failed (the
 * agent closes, and its consensus module, seeing the service gone, shuts down and frees its
 * counters). No client is needed to stop the member.
 *
 * <pre>{@code
 * StoppingService service = new StoppingService(TestPipelines.service(Ledger::new, new AtomicReference<>()));
 * ClusterMember member = ClusterMember.start(config, service);
 * service.fail(new AssertionError(StoppingService.MESSAGE));   // the member stops within a duty cycle
 * }</pre>
 */
final class StoppingService implements ClusteredService {
    /** The message of what the service thread throws. */
    static final String MESSAGE = "boom";
    private final PipelineClusteredService<Amount> service;
    private volatile RuntimeException termination;
    private volatile Error error;

    StoppingService(final PipelineClusteredService<Amount> service) {
        this.service = service;
    }

    /**
     * Makes the service thread throw {@code failure} at its next duty cycle.
     *
     * @param failure an {@link Error} or an {@link AgentTerminationException}
     */
    void fail(final Throwable failure) {
        if (failure instanceof Error thrown) {
            error = thrown;
        } else {
            termination = (AgentTerminationException) failure;
        }
    }

    @Override
    public int doBackgroundWork(final long nowNs) {
        if (error != null) {
            throw error;
        }
        if (termination != null) {
            throw termination;
        }
        return service.doBackgroundWork(nowNs);
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
}

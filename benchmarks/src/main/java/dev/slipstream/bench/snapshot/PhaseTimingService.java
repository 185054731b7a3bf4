package dev.slipstream.bench.snapshot;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.Header;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;

/**
 * A service that times another's snapshot in phases, to say where a stall goes: how long
 * {@code onStart} took (with a snapshot: reading and loading it), how long {@code onTakeSnapshot}
 * took (waiting for the stages, then writing) and how much of that the service thread ran on a
 * core, and how long after it returned the next command
 * arrived (Aeron's part: the archive finishing the recording, the acknowledgement, the consensus
 * module's own snapshot and its taking commands in again). Every call is passed on unchanged.
 *
 * <pre>{@code
 * PhaseTimingService timed = new PhaseTimingService(service);
 * ClusterMember.start(config, timed);
 * }</pre>
 */
final class PhaseTimingService implements ClusteredService {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private final ClusteredService service;
    private volatile long startNanos = -1;
    private volatile long startCpuNanos = -1;
    private volatile long snapshotNanos = -1;
    private volatile long snapshotCpuNanos = -1;
    private volatile long afterSnapshotNanos = -1;
    /** When the latest snapshot returned; 0 once the next command has been timed. Service thread only. */
    private long snapshotReturned;

    PhaseTimingService(final ClusteredService service) {
        this.service = service;
    }

    /** @return milliseconds {@code onStart} took, or -1 */
    double startMs() {
        return startNanos / 1e6;
    }

    /** @return milliseconds of CPU the service thread spent in {@code onStart}, or -1 */
    double startCpuMs() {
        return startCpuNanos / 1e6;
    }

    /** @return milliseconds the latest {@code onTakeSnapshot} took, or -1 */
    double snapshotMs() {
        return snapshotNanos / 1e6;
    }

    /** @return milliseconds of CPU the service thread spent in the latest {@code onTakeSnapshot}, or -1 */
    double snapshotCpuMs() {
        return snapshotCpuNanos / 1e6;
    }

    /** @return milliseconds from the latest snapshot's return to the next command, or -1 */
    double afterSnapshotMs() {
        return afterSnapshotNanos / 1e6;
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage) {
        final long cpu = THREADS.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        service.onStart(cluster, snapshotImage);
        startNanos = System.nanoTime() - start;
        startCpuNanos = THREADS.getCurrentThreadCpuTime() - cpu;
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
        if (snapshotReturned != 0) {
            afterSnapshotNanos = System.nanoTime() - snapshotReturned;
            snapshotReturned = 0;
        }
        service.onSessionMessage(session, timestamp, buffer, offset, length, header);
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp) {
        service.onTimerEvent(correlationId, timestamp);
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication) {
        final long cpu = THREADS.getCurrentThreadCpuTime();
        final long start = System.nanoTime();
        service.onTakeSnapshot(snapshotPublication);
        snapshotReturned = System.nanoTime();
        snapshotNanos = snapshotReturned - start;
        // the wall time less this is time the service thread waited: on the archive, or for a core
        snapshotCpuNanos = THREADS.getCurrentThreadCpuTime() - cpu;
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

package dev.slipstream.cluster;

import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.Cluster;

/**
 * The seeded bug for {@link ClusterMemberSafetyTest}: a member's counters read the way members
 * read them before, through the consensus module's own {@code Counter}s, with no lock and no check.
 * Those point into the consensus module's Aeron client's mapping of the CnC file, which goes away
 * when the client closes, so a read after that reads unmapped memory.
 *
 * <pre>{@code
 * ClusterMember.countersForTests = ContextCounters::new;   // in a child JVM that is expected to crash
 * }</pre>
 */
final class ContextCounters implements MemberCounters {
    private final ConsensusModule.Context context;

    ContextCounters(final ConsensusModule.Context context) {
        this.context = context;
    }

    @Override
    public Cluster.Role role(final String call) {
        return Cluster.Role.get(context.clusterNodeRoleCounter());
    }

    @Override
    public long snapshotCount() {
        return context.snapshotCounter().get();
    }

    @Override
    public boolean toggleSnapshot() {
        return ClusterControl.ToggleState.SNAPSHOT.toggle(context.controlToggleCounter());
    }

    @Override
    public boolean isRunning() {
        return !context.snapshotCounter().isClosed();
    }

    @Override
    public void close() {
        // the old member had nothing of its own to release
    }
}

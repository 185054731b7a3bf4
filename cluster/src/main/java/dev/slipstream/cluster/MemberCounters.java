package dev.slipstream.cluster;

import io.aeron.cluster.service.Cluster;

/**
 * The consensus module's counters a {@link ClusterMember} reads and writes: its role, its
 * snapshot count, its commit position, its election count, its control toggle and its node control
 * toggle. {@link CncCounters} is the one members use; the
 * interface exists so that a test can put the old way of reading in its place and show that the
 * crash test catches it.
 *
 * <pre>{@code
 * MemberCounters counters = CncCounters.map(0, cncFile, consensusContext, failure::get);
 * Cluster.Role role = counters.role("role()");   // or IllegalStateException once the member stopped or closed
 * counters.close();                      // every later call throws "cluster member 0 is closed"
 * }</pre>
 */
interface MemberCounters extends AutoCloseable {
    /**
     * @param call the member's method that asks, for the message if it is refused
     * @return the member's role now
     * @throws IllegalStateException if the member has stopped or is closed
     */
    Cluster.Role role(String call);

    /**
     * @return how many snapshots the member has taken since it started
     * @throws IllegalStateException if the member has stopped or is closed
     */
    long snapshotCount();

    /**
     * Reads every counter at once, for {@link ClusterMember#status()}: a member that has stopped
     * still answers, with -1 (role null) for each counter its consensus module has freed.
     *
     * @return the counters now
     * @throws IllegalStateException if the member is closed
     */
    default Readings readings() {
        // the seeded old way of reading has nothing better than its plain reads
        return new Readings(role("status()"), snapshotCount(), -1, -1, isRunning());
    }

    /**
     * The consensus module's counters as one read found them.
     *
     * @param role the member's role, or null if the counter is no longer the consensus module's
     * @param snapshotCount snapshots taken since the member started, or -1 if no longer readable
     * @param commitPosition the log position the cluster has committed, or -1 if no longer readable
     * @param electionCount elections this member has taken part in since it started, or -1 if no
     *        longer readable
     * @param allAllocated true if every counter was still the consensus module's
     */
    record Readings(Cluster.Role role, long snapshotCount, long commitPosition, long electionCount,
            boolean allAllocated) {
    }

    /**
     * Sets the control toggle to {@code SNAPSHOT} if no other control action is under way.
     *
     * @return true if the toggle was set, false if another action holds it
     * @throws IllegalStateException if the member has stopped or is closed
     */
    boolean toggleSnapshot();

    /**
     * Sets the node control toggle to {@code VALIDATE_RECORDING_LOG} if no other node action is
     * under way: the consensus module then marks invalid, in its own recording log and on its own
     * thread, every snapshot whose recording the archive no longer holds.
     *
     * @return true if the toggle was set, false if another action holds it (or this way of reading
     *         has no such toggle)
     * @throws IllegalStateException if the member has stopped or is closed
     */
    default boolean toggleRecordingLogValidation() {
        return false;
    }

    /** @return true while the member is not closed, no error has stopped it and its consensus module runs */
    boolean isRunning();

    /** Makes every later call but {@link #isRunning()} throw; idempotent, safe from any thread. */
    @Override
    void close();
}

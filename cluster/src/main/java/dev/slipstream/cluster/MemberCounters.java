package dev.slipstream.cluster;

import io.aeron.cluster.service.Cluster;

/**
 * The consensus module's counters a {@link ClusterMember} reads and writes: its role, its
 * snapshot count and its control toggle. {@link CncCounters} is the one members use; the
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
     * Sets the control toggle to {@code SNAPSHOT} if no other control action is under way.
     *
     * @return true if the toggle was set, false if another action holds it
     * @throws IllegalStateException if the member has stopped or is closed
     */
    boolean toggleSnapshot();

    /** @return true while the member is not closed, no error has stopped it and its consensus module runs */
    boolean isRunning();

    /** Makes every later call but {@link #isRunning()} throw; idempotent, safe from any thread. */
    @Override
    void close();
}

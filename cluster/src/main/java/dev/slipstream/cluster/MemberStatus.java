package dev.slipstream.cluster;

import io.aeron.cluster.service.Cluster;
import java.util.Locale;
import java.util.Optional;

/**
 * What an operator reads of one cluster member, from {@link ClusterMember#status()}: one read of
 * the consensus module's counters (role, commit position, snapshots) and of the figures the
 * {@link PipelineClusteredService} publishes (leader, term, last snapshot's duration, clients,
 * sessions, replies). A figure that cannot be known reads -1: a counter the consensus module of a
 * stopped member has freed, or a service figure when the member runs another
 * {@link io.aeron.cluster.service.ClusteredService}.
 *
 * <pre>{@code
 * MemberStatus status = member.status();
 * System.out.println(status);
 * // member 0: LEADER, running; leader 0, term 0, commit position 3296; 1 snapshot (last 4.2 ms);
 * // 1 election; 1 client, 1 session; outbox backlog 0; 1 command rejected, 0 replies undeliverable;
 * // archive 196608 bytes, log from 0
 * }</pre>
 *
 * @param memberId the member's id
 * @param running true while the member runs: not closed, no error has stopped it, its consensus module up
 * @param failure the first error that stopped the member, as {@link ClusterMember#failure()}
 * @param role the member's role, or null once its consensus module has freed the counter
 * @param leaderMemberId the member that led the latest leadership term in this member's log, or -1
 * @param leadershipTermId that term's id, or -1
 * @param commitPosition the log position the cluster has committed (the consensus module's
 *        commit-position counter, type id {@code ConsensusModule.Configuration.COMMIT_POSITION_TYPE_ID}), or -1
 * @param snapshotCount snapshots taken since the member started, as {@link ClusterMember#snapshotCount()}, or -1
 * @param lastSnapshotNanos wall-clock nanoseconds the service's latest snapshot took (waiting for
 *        the stages, then writing its sections), or -1 before the first since start
 * @param clientsRemembered clients the at-most-once table remembers (at most
 *        {@link PipelineClusteredService.Builder#maxClients}), or -1
 * @param sessionsBound client sessions bound to a client id by their hello, or -1
 * @param outboxBacklog replies queued and not yet offered to their sessions, or -1
 * @param rejectedCommands commands answered {@link CommandWireFormat#STATUS_REJECTED} on this
 *        member, as {@link ReplyOutbox#rejectedCommands()}, or -1
 * @param undeliverableReplies replies whose session was gone, as {@link ReplyOutbox#undeliverable()}, or -1
 * @param electionCount elections this member has taken part in since it started (the consensus
 *        module's election counter, type id {@code AeronCounters.CLUSTER_ELECTION_COUNT_TYPE_ID}):
 *        1 after the first, one more for each leader change; or -1. On a cluster whose leader
 *        is not stopped or killed, a rise means the members took a live leader for dead (see
 *        {@link MemberConfig#withFastFailover()})
 * @param archiveBytes the bytes of the member's recordings on disk (the log and the snapshots: the
 *        archive's segment files), as last measured (about once a second, and after each purge), or -1
 * @param logStartPosition the lowest log position the member's archive still holds: 0 until a
 *        purge deleted the log's first segments, -1 while not known (before the first purge, or
 *        with a {@link RetentionPolicy} that purges nothing)
 */
public record MemberStatus(int memberId, boolean running, Optional<Throwable> failure, Cluster.Role role,
        int leaderMemberId, long leadershipTermId, long commitPosition, long snapshotCount, long lastSnapshotNanos,
        int clientsRemembered, int sessionsBound, int outboxBacklog, long rejectedCommands,
        long undeliverableReplies, long electionCount, long archiveBytes, long logStartPosition) {
    /** The number {@link #roleCode()} gives when the role is not known. */
    public static final int ROLE_UNKNOWN = -1;

    /**
     * A status without the election count and the archive's figures (each -1), as before they were part of it.
     *
     * @param memberId the member's id
     * @param running true while the member runs
     * @param failure the first error that stopped the member
     * @param role the member's role, or null
     * @param leaderMemberId the latest term's leader, or -1
     * @param leadershipTermId that term's id, or -1
     * @param commitPosition the committed log position, or -1
     * @param snapshotCount snapshots taken since start, or -1
     * @param lastSnapshotNanos the latest snapshot's duration, or -1
     * @param clientsRemembered clients the at-most-once table remembers, or -1
     * @param sessionsBound sessions bound to a client id, or -1
     * @param outboxBacklog replies not yet offered, or -1
     * @param rejectedCommands commands answered rejected, or -1
     * @param undeliverableReplies replies whose session was gone, or -1
     */
    public MemberStatus(final int memberId, final boolean running, final Optional<Throwable> failure,
            final Cluster.Role role, final int leaderMemberId, final long leadershipTermId, final long commitPosition,
            final long snapshotCount, final long lastSnapshotNanos, final int clientsRemembered,
            final int sessionsBound, final int outboxBacklog, final long rejectedCommands,
            final long undeliverableReplies) {
        this(memberId, running, failure, role, leaderMemberId, leadershipTermId, commitPosition, snapshotCount,
                lastSnapshotNanos, clientsRemembered, sessionsBound, outboxBacklog, rejectedCommands,
                undeliverableReplies, -1, -1, -1);
    }

    /**
     * @return the role as a number: Aeron's codes, {@code 0} follower, {@code 1} candidate,
     *         {@code 2} leader; {@value #ROLE_UNKNOWN} when the role is not known
     */
    public int roleCode() {
        return role == null ? ROLE_UNKNOWN : role.code();
    }

    /** @return one line for a log: the role and state, the log, snapshots, elections, clients, replies and the archive */
    @Override
    public String toString() {
        final StringBuilder line = new StringBuilder(200).append("member ").append(memberId).append(": ")
                .append(role == null ? "role unknown" : role.name()).append(", ");
        if (running) {
            line.append("running");
        } else {
            line.append("stopped").append(failure.map(cause -> " (" + cause + ")").orElse(""));
        }
        line.append("; leader ").append(leaderMemberId).append(", term ").append(leadershipTermId)
                .append(", commit position ").append(commitPosition).append("; ")
                .append(count(snapshotCount, "snapshot", "snapshots"));
        if (lastSnapshotNanos >= 0) {
            line.append(" (last ").append(String.format(Locale.ROOT, "%.1f", lastSnapshotNanos / 1e6))
                    .append(" ms)");
        }
        line.append("; ").append(count(electionCount, "election", "elections"));
        return line.append("; ").append(count(clientsRemembered, "client", "clients")).append(", ")
                .append(count(sessionsBound, "session", "sessions")).append("; outbox backlog ")
                .append(outboxBacklog).append("; ").append(count(rejectedCommands, "command", "commands"))
                .append(" rejected, ").append(count(undeliverableReplies, "reply", "replies"))
                .append(" undeliverable; archive ").append(archiveBytes).append(" bytes, log from ")
                .append(logStartPosition).toString();
    }

    private static String count(final long n, final String one, final String many) {
        return n + " " + (n == 1 ? one : many);
    }
}

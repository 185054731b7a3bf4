package dev.slipstream.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one cluster member needs to start: its id, the member list and its base directory, plus
 * the two timeouts worth changing.
 *
 * <p>Under {@code baseDir} the member keeps {@code aeron/} (the media driver's directory),
 * {@code archive/} (the recorded log and the snapshots), {@code cluster/} (the consensus
 * module's and service container's files) and {@code member.lock} (held while the member runs).
 * Keep {@code archive/} and {@code cluster/} across restarts: they are the member's state.
 *
 * <pre>{@code
 * MemberConfig config = MemberConfig.of(0,
 *         List.of("localhost:20100", "localhost:20110", "localhost:20120"), Path.of("/var/lib/engine/member-0"));
 * }</pre>
 *
 * @param memberId this member's index in {@code members}
 * @param members {@code host:basePort} per member (see {@link ClusterMembers} for the ports)
 * @param baseDir this member's directory
 * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
 *        (Aeron's default: 10 s)
 * @param sessionTimeout how long a silent client session lives (Aeron's default: 10 s)
 */
public record MemberConfig(int memberId, List<String> members, Path baseDir, Duration leaderHeartbeatTimeout,
        Duration sessionTimeout) {
    /** Aeron Cluster's default leader heartbeat timeout. */
    public static final Duration DEFAULT_LEADER_HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
    /** Aeron Cluster's default session timeout. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Checks the config.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
     * @param sessionTimeout how long a silent client session lives
     * @throws IllegalArgumentException if the member list is bad (see {@link ClusterMembers#parse}),
     *         the member id is not in it, or a timeout is not positive
     * @throws NullPointerException if an argument is null
     */
    public MemberConfig {
        Objects.requireNonNull(members, "members must not be null");
        Objects.requireNonNull(baseDir, "baseDir must not be null");
        Objects.requireNonNull(leaderHeartbeatTimeout, "leaderHeartbeatTimeout must not be null");
        Objects.requireNonNull(sessionTimeout, "sessionTimeout must not be null");
        members = List.copyOf(members);
        final ClusterMembers parsed = ClusterMembers.parse(members);
        if (memberId < 0 || memberId >= parsed.size()) {
            throw new IllegalArgumentException("member id " + memberId + " is not in the member list of "
                    + parsed.size() + " members; expected 0 to " + (parsed.size() - 1));
        }
        if (leaderHeartbeatTimeout.isNegative() || leaderHeartbeatTimeout.isZero()) {
            throw new IllegalArgumentException("leaderHeartbeatTimeout must be positive, was " + leaderHeartbeatTimeout);
        }
        if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
            throw new IllegalArgumentException("sessionTimeout must be positive, was " + sessionTimeout);
        }
    }

    /**
     * A config with Aeron's default timeouts.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @return the config
     */
    public static MemberConfig of(final int memberId, final List<String> members, final Path baseDir) {
        return new MemberConfig(memberId, members, baseDir, DEFAULT_LEADER_HEARTBEAT_TIMEOUT, DEFAULT_SESSION_TIMEOUT);
    }

    /**
     * @param heartbeat the leader heartbeat timeout
     * @param session the session timeout
     * @return a copy with these timeouts
     */
    public MemberConfig withTimeouts(final Duration heartbeat, final Duration session) {
        return new MemberConfig(memberId, members, baseDir, heartbeat, session);
    }

    /** @return the parsed member list */
    public ClusterMembers clusterMembers() {
        return ClusterMembers.parse(members);
    }
}

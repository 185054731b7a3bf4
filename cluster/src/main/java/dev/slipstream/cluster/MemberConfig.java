package dev.slipstream.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What one cluster member needs to start: its id, the member list and its base directory, plus
 * the two timeouts and the timer service worth changing.
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
 * @param timerService how the consensus module keeps cluster timers (Aeron's default: a wheel)
 * @param timerWheelTick the wheel's tick, when {@code timerService} is {@link TimerService#WHEEL}
 *        (Aeron's default: 8 ms); a timer fires on the first tick at or after its deadline
 */
public record MemberConfig(int memberId, List<String> members, Path baseDir, Duration leaderHeartbeatTimeout,
        Duration sessionTimeout, TimerService timerService, Duration timerWheelTick) {
    /** Aeron Cluster's default leader heartbeat timeout. */
    public static final Duration DEFAULT_LEADER_HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
    /** Aeron Cluster's default session timeout. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** Aeron Cluster's default timer wheel tick. */
    public static final Duration DEFAULT_TIMER_WHEEL_TICK = Duration.ofMillis(8);

    /**
     * How the consensus module keeps the cluster's timers ({@code Cluster.scheduleTimer}), among
     * them the reply timer of a {@link PipelineClusteredService}: a reply not ready when its
     * command's log callback returns goes out on that timer's event, unless another command
     * comes first.
     *
     * <pre>{@code
     * MemberConfig config = MemberConfig.of(0, List.of("localhost:20100"), dir).withPriorityHeapTimers();
     * }</pre>
     */
    public enum TimerService {
        /**
         * Aeron's default: a timer wheel whose tick ({@link MemberConfig#timerWheelTick()}) rounds
         * every deadline up; cheap with very many timers.
         */
        WHEEL,
        /**
         * A priority heap: a timer fires on the consensus module's first duty cycle at or after
         * its deadline, to the cluster clock's unit (1 ms by default).
         */
        PRIORITY_HEAP
    }

    /**
     * Checks the config.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
     * @param sessionTimeout how long a silent client session lives
     * @param timerService how the consensus module keeps cluster timers
     * @param timerWheelTick the wheel's tick (used by {@link TimerService#WHEEL})
     * @throws IllegalArgumentException if the member list is bad (see {@link ClusterMembers#parse}),
     *         the member id is not in it, a timeout is not positive, or the tick is under 1 ms
     * @throws NullPointerException if an argument is null
     */
    public MemberConfig {
        Objects.requireNonNull(members, "members must not be null");
        Objects.requireNonNull(baseDir, "baseDir must not be null");
        Objects.requireNonNull(leaderHeartbeatTimeout, "leaderHeartbeatTimeout must not be null");
        Objects.requireNonNull(sessionTimeout, "sessionTimeout must not be null");
        Objects.requireNonNull(timerService, "timerService must not be null");
        Objects.requireNonNull(timerWheelTick, "timerWheelTick must not be null");
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
        if (timerWheelTick.compareTo(Duration.ofMillis(1)) < 0) {
            // the wheel counts in the cluster clock's unit (milliseconds): a shorter tick would be 1 ms
            throw new IllegalArgumentException("timerWheelTick must be at least 1 ms (the cluster clock's unit), was "
                    + timerWheelTick);
        }
    }

    /**
     * A config with Aeron's default timer wheel.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
     * @param sessionTimeout how long a silent client session lives
     * @throws IllegalArgumentException as the canonical constructor
     * @throws NullPointerException if an argument is null
     */
    public MemberConfig(final int memberId, final List<String> members, final Path baseDir,
            final Duration leaderHeartbeatTimeout, final Duration sessionTimeout) {
        this(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, TimerService.WHEEL,
                DEFAULT_TIMER_WHEEL_TICK);
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
        return new MemberConfig(memberId, members, baseDir, heartbeat, session, timerService, timerWheelTick);
    }

    /**
     * A copy whose consensus module keeps timers on a wheel with this tick. Aeron rounds the tick
     * up to a power of two of the cluster clock's unit (milliseconds): 3 ms becomes 4 ms.
     *
     * @param tick the wheel's tick, at least 1 ms
     * @return a copy with a timer wheel of this tick
     * @throws IllegalArgumentException if {@code tick} is under 1 ms
     */
    public MemberConfig withTimerWheelTick(final Duration tick) {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout,
                TimerService.WHEEL, tick);
    }

    /** @return a copy whose consensus module keeps timers in a priority heap (no tick) */
    public MemberConfig withPriorityHeapTimers() {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout,
                TimerService.PRIORITY_HEAP, timerWheelTick);
    }

    /** @return the parsed member list */
    public ClusterMembers clusterMembers() {
        return ClusterMembers.parse(members);
    }
}

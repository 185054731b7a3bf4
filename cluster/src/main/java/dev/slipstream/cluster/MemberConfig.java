package dev.slipstream.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * What one cluster member needs to start: its id, the member list and its base directory, plus
 * the timeouts of failure detection and election and the timer service worth changing.
 *
 * <p>Under {@code baseDir} the member keeps {@code aeron/} (the media driver's directory, unless
 * {@link #withAeronDir} puts it elsewhere), {@code archive/} (the recorded log and the snapshots),
 * {@code cluster/} (the consensus module's and service container's files) and {@code member.lock}
 * (held while the member runs). Keep {@code archive/} and {@code cluster/} across restarts: they
 * are the member's state. The media driver's directory is not: the driver empties it on start
 * and deletes it on close.
 *
 * <p><b>The media driver's directory on tmpfs.</b> The driver's log buffers are memory-mapped
 * files in {@code aeronDir}. On a disk file system the kernel writes their dirty pages back to the
 * disk, where they compete with the archive's own writes and can stall the driver; on tmpfs
 * ({@code /dev/shm}, Aeron's own default on Linux) they stay in memory. Aeron advises tmpfs for
 * its drivers. Give each member a directory of its own:
 *
 * <pre>{@code
 * MemberConfig config = MemberConfig.of(0, members, Path.of("/var/lib/engine/member-0"))
 *         .withAeronDir(Path.of("/dev/shm/engine-member-0"));
 * }</pre>
 *
 * <pre>{@code
 * MemberConfig config = MemberConfig.of(0,
 *         List.of("localhost:20100", "localhost:20110", "localhost:20120"), Path.of("/var/lib/engine/member-0"));
 * }</pre>
 *
 * <p><b>Failover.</b> When the leader dies, the followers notice after
 * {@code leaderHeartbeatTimeout} without a word from it, then hold an election: each waits a
 * random delay under half the {@code electionTimeout} before it stands, and a candidate that does
 * not hear from every member (the dead one never answers) waits the whole {@code electionTimeout}
 * for its votes. With Aeron's defaults that is 10 s, then about 1.5 s. {@link #withFastFailover()}
 * (or {@link #fastFailover}) shortens all of them; the price is an election whenever a member is
 * stalled longer than the heartbeat timeout (a long GC pause, an overloaded machine), so measure
 * on the machines the members run on (docs/guide/cluster-operations.md, "Failover"):
 *
 * <pre>{@code
 * MemberConfig config = MemberConfig.fastFailover(0,
 *         List.of("host-a:20100", "host-b:20100", "host-c:20100"), Path.of("/var/lib/engine"));
 * }</pre>
 *
 * <p>Every setting is set on the member's own consensus module context: Aeron's system
 * properties for them ({@code aeron.cluster.election.timeout} and the like) are not read.
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
 * @param leaderHeartbeatInterval how often the leader tells the followers it lives when it has
 *        nothing else to send (Aeron's default: 200 ms); at most half the heartbeat timeout and
 *        half the election timeout
 * @param electionTimeout how long a candidate waits for votes, and a follower that voted for the
 *        new leader's first word (Aeron's default: 1 s); a nomination waits a random delay under
 *        half of it
 * @param electionStatusInterval how often a member in an election repeats its log position to the
 *        others (Aeron's default: 100 ms); at most half the election timeout
 * @param startupCanvassTimeout how long a member that has just started waits to hear from every
 *        member before an election that a majority may decide (Aeron's default: 60 s)
 * @param aeronDir the media driver's directory (its log buffers and counters); {@code null} gives
 *        {@code baseDir/aeron}. The driver empties it on start: it must be neither {@code baseDir}
 *        nor above it, nor inside the member's {@code archive/} or {@code cluster/}
 * @param agentIdle how the member's agents wait when idle; {@code null} gives {@link AgentIdle#BACKOFF}
 */
public record MemberConfig(int memberId, List<String> members, Path baseDir, Duration leaderHeartbeatTimeout,
        Duration sessionTimeout, TimerService timerService, Duration timerWheelTick, Duration leaderHeartbeatInterval,
        Duration electionTimeout, Duration electionStatusInterval, Duration startupCanvassTimeout, Path aeronDir,
        AgentIdle agentIdle) {
    /** Aeron Cluster's default leader heartbeat timeout. */
    public static final Duration DEFAULT_LEADER_HEARTBEAT_TIMEOUT = Duration.ofSeconds(10);
    /** Aeron Cluster's default session timeout. */
    public static final Duration DEFAULT_SESSION_TIMEOUT = Duration.ofSeconds(10);
    /** Aeron Cluster's default timer wheel tick. */
    public static final Duration DEFAULT_TIMER_WHEEL_TICK = Duration.ofMillis(8);
    /** Aeron Cluster's default leader heartbeat interval. */
    public static final Duration DEFAULT_LEADER_HEARTBEAT_INTERVAL = Duration.ofMillis(200);
    /** Aeron Cluster's default election timeout. */
    public static final Duration DEFAULT_ELECTION_TIMEOUT = Duration.ofSeconds(1);
    /** Aeron Cluster's default election status interval. */
    public static final Duration DEFAULT_ELECTION_STATUS_INTERVAL = Duration.ofMillis(100);
    /** Aeron Cluster's default startup canvass timeout. */
    public static final Duration DEFAULT_STARTUP_CANVASS_TIMEOUT = Duration.ofSeconds(60);
    /** {@link #withFastFailover()}'s leader heartbeat timeout. */
    public static final Duration FAST_LEADER_HEARTBEAT_TIMEOUT = Duration.ofMillis(500);
    /**
     * {@link #withFastFailover()}'s leader heartbeat interval: 25 heartbeats per timeout, and at
     * most half the election timeout.
     */
    public static final Duration FAST_LEADER_HEARTBEAT_INTERVAL = Duration.ofMillis(20);
    /**
     * {@link #withFastFailover()}'s election timeout: a ballot with one member dead always waits
     * all of it (the dead member never votes), so it is most of the election.
     */
    public static final Duration FAST_ELECTION_TIMEOUT = Duration.ofMillis(50);
    /** {@link #withFastFailover()}'s election status interval. */
    public static final Duration FAST_ELECTION_STATUS_INTERVAL = Duration.ofMillis(20);

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
     * How the member's agents (the media driver, the archive, the consensus module and the
     * service container) wait when a duty cycle found nothing to do. The pipeline's stages wait
     * with their own strategy ({@code PipelineClusteredService.Builder.waitStrategy}).
     *
     * <pre>{@code
     * MemberConfig config = MemberConfig.of(0, members, dir).withAgentIdle(MemberConfig.AgentIdle.BUSY_SPIN);
     * }</pre>
     */
    public enum AgentIdle {
        /**
         * The default: spin a little, yield a little, then park from 1 us up to 1 ms. An idle
         * member costs almost no CPU; a command that arrives while an agent parks waits up to
         * 1 ms for each agent on its way.
         */
        BACKOFF {
            @Override
            public IdleStrategy newStrategy() {
                return new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1),
                        TimeUnit.MILLISECONDS.toNanos(1));
            }
        },
        /** Yield the core after every empty duty cycle: shorter waits, a busy core per agent while idle. */
        YIELDING {
            @Override
            public IdleStrategy newStrategy() {
                return new YieldingIdleStrategy();
            }
        },
        /**
         * Never leave the core: the shortest waits, and each agent (four per member) needs a core
         * of its own, or the agents take turns on a core and wait for each other far longer than
         * any park.
         */
        BUSY_SPIN {
            @Override
            public IdleStrategy newStrategy() {
                return new BusySpinIdleStrategy();
            }
        };

        /** @return a new idle strategy of this kind (one per agent: they keep state) */
        public abstract IdleStrategy newStrategy();
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
     * @param leaderHeartbeatInterval how often the leader speaks when it has nothing else to send
     * @param electionTimeout how long a candidate waits for votes
     * @param electionStatusInterval how often a member in an election repeats its log position
     * @param startupCanvassTimeout how long a starting member waits to hear from every member
     * @param aeronDir the media driver's directory, {@code null} for {@code baseDir/aeron}
     * @param agentIdle how the agents wait when idle, {@code null} for {@link AgentIdle#BACKOFF}
     * @throws IllegalArgumentException if the member list is bad (see {@link ClusterMembers#parse}),
     *         the member id is not in it, a duration is not positive, the tick is under 1 ms, the
     *         heartbeat interval is more than half the heartbeat timeout or the election timeout,
     *         the election status interval more than half the election timeout, the startup
     *         canvass timeout shorter than the heartbeat timeout, or {@code aeronDir} would hold
     *         or be inside the member's state
     * @throws NullPointerException if an argument but {@code aeronDir} or {@code agentIdle} is null
     */
    public MemberConfig {
        Objects.requireNonNull(members, "members must not be null");
        Objects.requireNonNull(baseDir, "baseDir must not be null");
        Objects.requireNonNull(timerService, "timerService must not be null");
        members = List.copyOf(members);
        final ClusterMembers parsed = ClusterMembers.parse(members);
        if (memberId < 0 || memberId >= parsed.size()) {
            throw new IllegalArgumentException("member id " + memberId + " is not in the member list of "
                    + parsed.size() + " members; expected 0 to " + (parsed.size() - 1));
        }
        requirePositive(leaderHeartbeatTimeout, "leaderHeartbeatTimeout");
        requirePositive(sessionTimeout, "sessionTimeout");
        Objects.requireNonNull(timerWheelTick, "timerWheelTick must not be null");
        if (timerWheelTick.compareTo(Duration.ofMillis(1)) < 0) {
            // the wheel counts in the cluster clock's unit (milliseconds): a shorter tick would be 1 ms
            throw new IllegalArgumentException("timerWheelTick must be at least 1 ms (the cluster clock's unit), was "
                    + timerWheelTick);
        }
        requirePositive(leaderHeartbeatInterval, "leaderHeartbeatInterval");
        requirePositive(electionTimeout, "electionTimeout");
        requirePositive(electionStatusInterval, "electionStatusInterval");
        requirePositive(startupCanvassTimeout, "startupCanvassTimeout");
        // one heartbeat lost or late must not look like a dead leader: two at least per timeout
        requireAtMostHalf(leaderHeartbeatInterval, "leaderHeartbeatInterval", leaderHeartbeatTimeout,
                "leaderHeartbeatTimeout", "so that one late heartbeat does not start an election");
        // a follower that voted waits the election timeout for the new leader's first word, which
        // the leader repeats every heartbeat interval
        requireAtMostHalf(leaderHeartbeatInterval, "leaderHeartbeatInterval", electionTimeout, "electionTimeout",
                "so that a follower that voted hears the new leader at least twice before it gives up");
        requireAtMostHalf(electionStatusInterval, "electionStatusInterval", electionTimeout, "electionTimeout",
                "so that the members exchange their positions at least twice in an election");
        aeronDir = aeronDir == null ? baseDir.resolve("aeron") : aeronDir;
        requireApartFromState(aeronDir, baseDir);
        agentIdle = agentIdle == null ? AgentIdle.BACKOFF : agentIdle;
    }

    /**
     * A config with the media driver's directory in {@code baseDir/aeron} and agents that back off.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
     * @param sessionTimeout how long a silent client session lives
     * @param timerService how the consensus module keeps cluster timers
     * @param timerWheelTick the wheel's tick (used by {@link TimerService#WHEEL})
     * @param leaderHeartbeatInterval how often the leader speaks when it has nothing else to send
     * @param electionTimeout how long a candidate waits for votes
     * @param electionStatusInterval how often a member in an election repeats its log position
     * @param startupCanvassTimeout how long a starting member waits to hear from every member
     * @throws IllegalArgumentException as the canonical constructor
     * @throws NullPointerException if an argument is null
     */
    public MemberConfig(final int memberId, final List<String> members, final Path baseDir,
            final Duration leaderHeartbeatTimeout, final Duration sessionTimeout, final TimerService timerService,
            final Duration timerWheelTick, final Duration leaderHeartbeatInterval, final Duration electionTimeout,
            final Duration electionStatusInterval, final Duration startupCanvassTimeout) {
        this(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService, timerWheelTick,
                leaderHeartbeatInterval, electionTimeout, electionStatusInterval, startupCanvassTimeout, null, null);
    }

    // the driver deletes its directory's contents on start: it must never be where the state is
    private static void requireApartFromState(final Path aeronDir, final Path baseDir) {
        final Path driver = aeronDir.toAbsolutePath().normalize();
        final Path base = baseDir.toAbsolutePath().normalize();
        if (base.startsWith(driver)) {
            throw new IllegalArgumentException("aeronDir " + aeronDir + " is the member's directory " + baseDir
                    + " or above it, and the media driver empties its directory on start; expected a directory of"
                    + " its own, such as " + base.resolve("aeron") + " or /dev/shm/<name>-member-<id>");
        }
        for (final String state : new String[] {"archive", "cluster"}) {
            if (driver.startsWith(base.resolve(state))) {
                throw new IllegalArgumentException("aeronDir " + aeronDir + " is inside the member's " + state
                        + "/ directory, which holds its state; expected a directory of its own, such as "
                        + base.resolve("aeron"));
            }
        }
    }

    private static void requirePositive(final Duration value, final String name) {
        Objects.requireNonNull(value, name + " must not be null");
        if (value.isNegative() || value.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, was " + value);
        }
    }

    private static void requireAtMostHalf(final Duration part, final String partName, final Duration whole,
            final String wholeName, final String why) {
        if (part.multipliedBy(2).compareTo(whole) > 0) {
            throw new IllegalArgumentException(partName + " (" + text(part) + ") must be at most half of " + wholeName
                    + " (" + text(whole) + ") " + why + "; expected " + partName + " of " + text(whole.dividedBy(2))
                    + " or less, or a longer " + wholeName);
        }
    }

    /** @return {@code 200ms}, {@code 3s}: as a configuration file writes it, where it can */
    private static String text(final Duration duration) {
        if (duration.toNanosPart() % 1_000_000 != 0) {
            return duration.toString();
        }
        final long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /**
     * A config with Aeron's default failure detection and election settings besides the two timeouts.
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @param leaderHeartbeatTimeout how long followers wait for the leader before an election
     * @param sessionTimeout how long a silent client session lives
     * @param timerService how the consensus module keeps cluster timers
     * @param timerWheelTick the wheel's tick (used by {@link TimerService#WHEEL})
     * @throws IllegalArgumentException as the canonical constructor (a heartbeat timeout under
     *         400 ms needs a shorter heartbeat interval than Aeron's 200 ms: {@link #withElectionTimings})
     * @throws NullPointerException if an argument is null
     */
    public MemberConfig(final int memberId, final List<String> members, final Path baseDir,
            final Duration leaderHeartbeatTimeout, final Duration sessionTimeout, final TimerService timerService,
            final Duration timerWheelTick) {
        this(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService, timerWheelTick,
                DEFAULT_LEADER_HEARTBEAT_INTERVAL, DEFAULT_ELECTION_TIMEOUT, DEFAULT_ELECTION_STATUS_INTERVAL,
                DEFAULT_STARTUP_CANVASS_TIMEOUT);
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
     * A config for failover in under a second: the followers take the leader for dead after
     * 500 ms without a word from it and elect the next in a few hundred milliseconds more (the
     * leader heartbeat timeout 500 ms, the heartbeat interval 20 ms, the election timeout 50 ms
     * and the election status interval 20 ms: {@link #withFastFailover()}); the session timeout
     * and the timers are Aeron's defaults.
     *
     * <pre>{@code
     * MemberConfig config = MemberConfig.fastFailover(0,
     *         List.of("host-a:20100", "host-b:20100", "host-c:20100"), Path.of("/var/lib/engine"));
     * }</pre>
     *
     * @param memberId this member's index in {@code members}
     * @param members {@code host:basePort} per member
     * @param baseDir this member's directory
     * @return the config
     * @throws IllegalArgumentException as the canonical constructor
     */
    public static MemberConfig fastFailover(final int memberId, final List<String> members, final Path baseDir) {
        return of(memberId, members, baseDir).withFastFailover();
    }

    /**
     * A copy with the fast failover settings ({@code FAST_*}): the followers call an election
     * after 500 ms without the leader, a nomination waits under 50 ms, a ballot 100 ms. The
     * price: a member stalled for more than 500 ms (a GC pause, a machine overloaded, a slow disk)
     * is taken for dead, and an election follows. The session timeout, the timers and the startup
     * canvass timeout are kept.
     *
     * @return a copy with the fast failover settings
     */
    public MemberConfig withFastFailover() {
        return new MemberConfig(memberId, members, baseDir, FAST_LEADER_HEARTBEAT_TIMEOUT, sessionTimeout,
                timerService, timerWheelTick, FAST_LEADER_HEARTBEAT_INTERVAL, FAST_ELECTION_TIMEOUT,
                FAST_ELECTION_STATUS_INTERVAL, startupCanvassTimeout, aeronDir, agentIdle);
    }

    /**
     * A copy with these election settings (see the class comment for what each does).
     *
     * <pre>{@code
     * MemberConfig config = MemberConfig.of(0, members, dir).withTimeouts(Duration.ofSeconds(1), Duration.ofSeconds(10))
     *         .withElectionTimings(Duration.ofMillis(100), Duration.ofMillis(300), Duration.ofMillis(30));
     * }</pre>
     *
     * @param heartbeatInterval how often the leader speaks when it has nothing else to send
     * @param election how long a candidate waits for votes
     * @param statusInterval how often a member in an election repeats its log position
     * @return a copy with these settings
     * @throws IllegalArgumentException as the canonical constructor: a duration not positive, the
     *         heartbeat interval more than half the heartbeat timeout or the election timeout, the
     *         status interval more than half the election timeout
     */
    public MemberConfig withElectionTimings(final Duration heartbeatInterval, final Duration election,
            final Duration statusInterval) {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService,
                timerWheelTick, heartbeatInterval, election, statusInterval, startupCanvassTimeout, aeronDir, agentIdle);
    }

    /**
     * @param timeout how long a member that has just started waits to hear from every member
     *        before an election a majority may decide (Aeron's default 60 s): with a member
     *        missing when the whole cluster starts, the others elect a leader only after it
     * @return a copy with this startup canvass timeout
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public MemberConfig withStartupCanvassTimeout(final Duration timeout) {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService,
                timerWheelTick, leaderHeartbeatInterval, electionTimeout, electionStatusInterval, timeout, aeronDir, agentIdle);
    }

    /**
     * @param heartbeat the leader heartbeat timeout
     * @param session the session timeout
     * @return a copy with these timeouts, the other settings kept
     * @throws IllegalArgumentException if a timeout is not positive, or the heartbeat timeout is
     *         under twice the heartbeat interval
     */
    public MemberConfig withTimeouts(final Duration heartbeat, final Duration session) {
        return new MemberConfig(memberId, members, baseDir, heartbeat, session, timerService, timerWheelTick,
                leaderHeartbeatInterval, electionTimeout, electionStatusInterval, startupCanvassTimeout, aeronDir, agentIdle);
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
                TimerService.WHEEL, tick, leaderHeartbeatInterval, electionTimeout, electionStatusInterval,
                startupCanvassTimeout, aeronDir, agentIdle);
    }

    /** @return a copy whose consensus module keeps timers in a priority heap (no tick) */
    public MemberConfig withPriorityHeapTimers() {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout,
                TimerService.PRIORITY_HEAP, timerWheelTick, leaderHeartbeatInterval, electionTimeout,
                electionStatusInterval, startupCanvassTimeout, aeronDir, agentIdle);
    }

    /**
     * A copy whose media driver keeps its directory (log buffers, counters) in {@code dir}, for
     * instance on tmpfs (see the class comment). Each member needs a directory of its own; a member
     * does not start while another media driver is active in it.
     *
     * <pre>{@code
     * MemberConfig config = MemberConfig.fastFailover(0, members, Path.of("/var/lib/engine/member-0"))
     *         .withAeronDir(Path.of("/dev/shm/engine-member-0"));
     * }</pre>
     *
     * @param dir the media driver's directory
     * @return a copy with this directory
     * @throws IllegalArgumentException if {@code dir} is the member's directory or above it, or
     *         inside its {@code archive/} or {@code cluster/}
     * @throws NullPointerException if {@code dir} is null
     */
    public MemberConfig withAeronDir(final Path dir) {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService,
                timerWheelTick, leaderHeartbeatInterval, electionTimeout, electionStatusInterval,
                startupCanvassTimeout, Objects.requireNonNull(dir, "dir must not be null"), agentIdle);
    }

    /**
     * A copy whose agents wait this way when idle ({@link AgentIdle}).
     *
     * @param idle how the member's agents wait
     * @return a copy with this idle strategy
     * @throws NullPointerException if {@code idle} is null
     */
    public MemberConfig withAgentIdle(final AgentIdle idle) {
        return new MemberConfig(memberId, members, baseDir, leaderHeartbeatTimeout, sessionTimeout, timerService,
                timerWheelTick, leaderHeartbeatInterval, electionTimeout, electionStatusInterval,
                startupCanvassTimeout, aeronDir, Objects.requireNonNull(idle, "idle must not be null"));
    }

    /** @return the parsed member list */
    public ClusterMembers clusterMembers() {
        return ClusterMembers.parse(members);
    }
}

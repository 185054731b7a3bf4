package dev.slipstream.cluster;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One cluster member in a process of its own, for the failover tests: runs the test pipeline and
 * answers lines on stdin ({@code digest}, {@code snapshot}, {@code running}, {@code partition}, {@code heal},
 * {@code stop}) on stdout. Its media driver can be cut off the network ({@link Partition}).
 * Arguments: member id, members (comma-separated host:basePort), base directory, the failure
 * detection and election settings ({@link #timing}), and a mode: {@code plain}; {@code withhold}, where the reply
 * stage withholds some first answers ({@link TestPipelines#withheld}) so that every leader kill
 * leaves committed commands unanswered; {@code no-dedup}, the same with a seeded bug;
 * {@code timers}, the timer tests' service ({@link TimerPipelines}), whose {@link SeenEvents}
 * record it prints for {@code seen}; or, the same with a seeded bug, {@code timers-leader-only}
 * (a timer policy that schedules only while its member leads) or {@code timers-wall-clock} (the
 * stage records when a timer fired from the wall clock); {@code validating}, a stage before the
 * ledger that throws for {@link TestPipelines#POISON} on every member and an {@code Error} for
 * {@code ERROR_BASE + id} on this member only ({@code validating-healed}: the same without the
 * {@code Error}, for the member restarted after it); or, with the seeded bug of halting on exceptions,
 * {@code validating-halt}, or {@code validating-errors-rejected} (an {@code Error} rejected like an
 * exception, so the member it happened on goes on); or {@code retention}, the test pipeline with
 * {@link #RETENTION} (periodic snapshots and purging, on a log of 1 MiB terms), whose
 * {@code log-start} answers where its log now starts. It answers {@code elections} with its
 * election count ({@link MemberStatus#electionCount()}). With the system property {@value #TRACE}
 * true, a thread samples the consensus module's election state every millisecond and prints each
 * change as {@code TRACE <System.nanoTime()> <state>} (on Linux every process reads one monotonic
 * clock, so the parent can set these times against its own).
 */
public final class MemberProcess {
    /** The system property that turns the election trace on. */
    static final String TRACE = "slipstream.cluster.trace";
    /** The {@code retention} mode's policy: a snapshot every 1 MiB of log (1 MiB terms and segments), 2 kept. */
    static final RetentionPolicy RETENTION = RetentionPolicy.NONE.withSnapshotEvery(1024 * 1024, Duration.ZERO)
            .keeping(2).withSegmentLength(1024 * 1024);

    private MemberProcess() {
    }

    /**
     * @param base a config with Aeron's defaults
     * @param timing {@code fast} ({@link MemberConfig#withFastFailover()}), {@code default} (Aeron's
     *        defaults), a leader heartbeat timeout in milliseconds (Aeron's other defaults), or
     *        milliseconds by name over Aeron's defaults: {@code hb=500,interval=50,election=100,status=20}
     * @return the config with those settings and a 60 s session timeout
     */
    static MemberConfig timing(final MemberConfig base, final String timing) {
        final MemberConfig withSession = base.withTimeouts(base.leaderHeartbeatTimeout(), Duration.ofSeconds(60));
        if (timing.contains("=")) {
            final java.util.Map<String, Duration> named = new java.util.HashMap<>();
            for (final String pair : timing.split(",")) {
                final String[] kv = pair.split("=");
                named.put(kv[0], Duration.ofMillis(Long.parseLong(kv[1])));
            }
            // the intervals first: a short heartbeat timeout is refused beside Aeron's 200 ms interval
            return withSession.withElectionTimings(
                    named.getOrDefault("interval", MemberConfig.FAST_LEADER_HEARTBEAT_INTERVAL),
                    named.getOrDefault("election", MemberConfig.DEFAULT_ELECTION_TIMEOUT),
                    named.getOrDefault("status", MemberConfig.FAST_ELECTION_STATUS_INTERVAL))
                    .withTimeouts(named.getOrDefault("hb", MemberConfig.DEFAULT_LEADER_HEARTBEAT_TIMEOUT),
                            Duration.ofSeconds(60));
        }
        return switch (timing) {
            case "fast" -> withSession.withFastFailover();
            case "default" -> withSession;
            default -> withSession.withTimeouts(Duration.ofMillis(Long.parseLong(timing)), Duration.ofSeconds(60));
        };
    }

    public static void main(final String[] args) throws Exception {
        Partition.install();
        final int id = Integer.parseInt(args[0]);
        final MemberConfig config = timing(MemberConfig.of(id, Arrays.asList(args[1].split(",")), Path.of(args[2])),
                args[3]);
        final AtomicReference<Ledger> ledger = new AtomicReference<>();
        final String mode = args.length > 4 ? args[4] : "plain";
        final AtomicReference<SeenEvents> events = new AtomicReference<>();
        final AtomicReference<ClusterMember> self = new AtomicReference<>();
        final PipelineClusteredService<Amount> service = mode.startsWith("timers")
                ? TimerPipelines.service("timers-leader-only".equals(mode)
                        ? leaderOnly(TimerPipelines.POLICY, self) : TimerPipelines.POLICY,
                        "timers-wall-clock".equals(mode) ? WallClockFirings::new : SeenEvents::new, events)
                : mode.startsWith("validating") ? TestPipelines.validating(Ledger::new, ledger,
                        "validating-healed".equals(mode) ? -1 : id,
                        "validating-halt".equals(mode) ? CommandFailurePolicy.HALT : CommandFailurePolicy.REJECT,
                        "validating-errors-rejected".equals(mode))
                : TestPipelines.service(Ledger::new, ledger, !"plain".equals(mode) && !"retention".equals(mode));
        if ("no-dedup".equals(mode)) {
            service.dedup = new DedupTable() {
                @Override
                int tryApply(final long clientId, final long correlationId, final long timestamp) {
                    return APPLY;  // the seeded bug: commands re-sent after a failover are applied again
                }
            };
        }
        if ("retention".equals(mode)) {
            ClusterMember.logTermLengthForTests = "1m";
        }
        try (ClusterMember member = "retention".equals(mode)
                ? ClusterMember.start(config, service, null, RETENTION)
                : ClusterMember.start(config, service)) {
            self.set(member);
            final Thread sampler = Boolean.getBoolean(TRACE) ? traceElections(member) : null;
            try {
                answer(member, ledger, events);
            } finally {
                if (sampler != null) {
                    // stopped before the member closes: the counter's memory goes with it
                    sampler.interrupt();
                    sampler.join();
                }
            }
        }
    }

    /** Answers the parent's questions on stdin until {@code stop} or the end of input. */
    private static void answer(final ClusterMember member, final AtomicReference<Ledger> ledger,
            final AtomicReference<SeenEvents> events) throws java.io.IOException {
        System.out.println("READY");
        System.out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            switch (line) {
                case "digest" -> {
                    final Ledger current = ledger.get();
                    System.out.println("DIGEST " + (current == null ? "none" : current.digest()));
                }
                case "seen" -> {
                    final SeenEvents current = events.get();
                    System.out.println("SEEN " + (current == null ? "" : String.join(",", current.seen)));
                }
                case "snapshot" -> {
                    final long before = member.snapshotCount();
                    final boolean placed = member.requestSnapshot();
                    System.out.println("SNAPSHOT-REQUESTED " + placed + " " + before);
                }
                case "snapshots" -> System.out.println("SNAPSHOTS " + member.snapshotCount());
                case "role" -> System.out.println("ROLE " + member.role());
                case "elections" -> System.out.println("ELECTIONS " + member.status().electionCount());
                case "log-start" -> System.out.println("LOG-START " + member.status().logStartPosition());
                case "running" -> System.out.println("RUNNING " + member.isRunning()
                        + member.failure().map(failure -> " " + failure).orElse(""));
                case "partition" -> {
                    Partition.isolate(true);
                    System.out.println("PARTITIONED");
                }
                case "heal" -> {
                    Partition.isolate(false);
                    System.out.println("HEALED");
                }
                case "stop" -> {
                    return;
                }
                default -> System.out.println("UNKNOWN " + line);
            }
            System.out.flush();
        }
    }

    /**
     * Prints the election state's changes until the process ends. Sampled, not hooked: Aeron has
     * no listener for them, so a state shorter than the sampling period can be missed (the
     * leader's replay and init are; their time counts in the next state seen).
     */
    private static Thread traceElections(final ClusterMember member) {
        final io.aeron.Counter state = member.consensusModuleContext().electionStateCounter();
        final Thread sampler = new Thread(() -> {
            long last = -1;
            while (!Thread.currentThread().isInterrupted()) {
                final long now = state.get();
                if (now != last) {
                    // one print per change: a line costs far more than the sample
                    System.out.println("TRACE " + System.nanoTime() + " " + io.aeron.cluster.ElectionState.get(now));
                    System.out.flush();
                    last = now;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
            }
        }, "election-trace");
        sampler.setDaemon(true);
        sampler.start();
        return sampler;
    }

    /**
     * The seeded bug: the policy schedules and cancels only on the member that leads when the
     * event passes (a member still starting counts as not leading). Aeron Cluster fires a timer
     * only from the leader's consensus module, but each follower's consensus module keeps the
     * timers its own service scheduled, so that a new leader fires the ones still pending; with
     * this policy a new leader holds none of the timers scheduled before it took over.
     */
    private static TimerPolicy<Amount> leaderOnly(final TimerPolicy<Amount> policy,
            final AtomicReference<ClusterMember> self) {
        return (event, timers) -> {
            final ClusterMember member = self.get();
            if (member != null && member.role() == io.aeron.cluster.service.Cluster.Role.LEADER) {
                policy.onEvent(event, timers);
            }
        };
    }

    /**
     * The seeded bug: the stage records a timer's firing at the wall-clock time it handles the
     * event instead of the event's cluster time. Every member handles the event at its own moment,
     * and a restarted member replaying the log handles it seconds later.
     */
    private static final class WallClockFirings extends SeenEvents {
        @Override
        long timeOf(final ClusterCommand<Amount> timerEvent) {
            return System.currentTimeMillis();
        }
    }
}

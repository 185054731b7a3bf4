package dev.slipstream.bench.snapshot;

import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.wait.BlockingWaitStrategy;
import dev.slipstream.wait.SleepingWaitStrategy;
import io.aeron.cluster.service.Cluster;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One member of the snapshot-stall benchmark, in a process of its own: a pipeline whose one
 * stage holds a {@link LargeState} and answers every command. The leader asks for a snapshot
 * once {@code --snapshot-at} commands are applied. Prints, on standard output:
 * <pre>
 * READY member=0
 * ASKED member=0                        (the leader, once it has asked for the snapshot)
 * SNAPSHOT member=0 ms=812.3 cpu-ms=95.2 (each snapshot: waiting for the stages, then writing; its CPU time)
 * CAUGHT-UP member=0 uptime-ms=4210 start-ms=350.1 start-cpu-ms=120.0 load-ms=310.2 after-snapshot-ms=120.4 digest=20000/8a1f3c2e
 * MEMORY member=0 heap-after-gc-mib=270 rss-peak-mib=1210
 * </pre>
 * {@code CAUGHT-UP} once {@code --expect} commands are applied: the JVM's uptime then, how long
 * the service's start took (with a snapshot: reading and loading it whole), how long the stage's
 * own load took (-1 without a snapshot), and how long after the latest snapshot's write the next
 * command arrived (Aeron's part of the stall; see {@link PhaseTimingService}); then it runs until
 * killed.
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar \
 *      dev.slipstream.bench.snapshot.SnapshotStallMember --id 0 --dir /tmp/stall --state-mib 256 \
 *      --path streamed --port 29100 --expect 20000 --snapshot-at 10000 --aeron-dir /dev/shm/stall-member-0
 * </pre>
 * Without {@code --aeron-dir} the media driver's directory is the member's {@code aeron/}.
 */
public final class SnapshotStallMember {
    private SnapshotStallMember() {
    }

    /**
     * @param args {@code --id --dir --state-mib --path streamed|buffered --port --expect --snapshot-at --aeron-dir}
     * @throws Exception if the member cannot start
     */
    public static void main(final String[] args) throws Exception {
        final StallOptions o = StallOptions.parse(args, "id", "dir", "state-mib", "path", "port", "expect",
                "snapshot-at", "members", "aeron-dir", "wait");
        final int id = o.integer("id", 0);
        final int members = o.integer("members", 3);
        final int port = o.integer("port", 29100);
        final long expect = o.integer("expect", 20_000);
        final long snapshotAt = o.integer("snapshot-at", 0);
        final String path = o.text("path", "streamed");
        if (!path.equals("streamed") && !path.equals("buffered")) {
            throw new IllegalArgumentException("--path must be streamed or buffered, was " + path);
        }
        final LargeState state = new LargeState(Math.toIntExact(o.integer("state-mib", 16) << 20));
        final List<String> memberList = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            memberList.add("localhost:" + (port + 10 * i));
        }
        final Path dir = Path.of(o.text("dir", "/tmp/slipstream-stall"));
        Files.createDirectories(dir);
        final PipelineClusteredService<LargeState.Amount> service = PipelineClusteredService
                .builder(LargeState.Amount::new)
                .ingress((buffer, offset, length, into) -> into.value = buffer.getLong(offset))
                .ringSize(4096)
                .waitStrategy(o.text("wait", "sleeping").equals("blocking")
                        ? BlockingWaitStrategy::new : SleepingWaitStrategy::new)
                .replies(4096, Long.BYTES)
                .pipeline((pipeline, outbox, states) -> {
                    if (path.equals("streamed")) {
                        states.registerStreaming("large", state);
                    } else {
                        states.register("large", state.buffered());
                    }
                    pipeline.handleEventsWith(state).then((command, sequence, endOfBatch) ->
                            outbox.reply(command, (buffer, offset, amount) -> {
                                buffer.putLong(offset, amount.value);
                                return Long.BYTES;
                            }, command.payload()));
                })
                .build();
        final PhaseTimingService timed = new PhaseTimingService(service);
        MemberConfig config = new MemberConfig(id, memberList, dir.resolve("member-" + id), Duration.ofSeconds(10),
                Duration.ofSeconds(60));
        if (o.has("aeron-dir")) {
            config = config.withAeronDir(Path.of(o.text("aeron-dir", "")));
        }
        final ClusterMember member = ClusterMember.start(config, timed);
        System.out.println("READY member=" + id);
        boolean asked = snapshotAt <= 0;
        boolean caughtUp = false;
        long snapshots = member.snapshotCount();
        while (member.isRunning()) {
            if (!asked && state.applied() >= snapshotAt && member.role() == Cluster.Role.LEADER) {
                asked = member.requestSnapshot();
                if (asked) {
                    System.out.println("ASKED member=" + id);  // the leader: the client's stall is its snapshot
                }
            }
            final long taken = member.snapshotCount();
            if (taken > snapshots) {
                snapshots = taken;
                System.out.printf(Locale.ROOT, "SNAPSHOT member=%d ms=%.1f cpu-ms=%.1f%n", id, timed.snapshotMs(),
                        timed.snapshotCpuMs());
            }
            if (!caughtUp && state.applied() >= expect) {
                caughtUp = true;
                final long uptime = ManagementFactory.getRuntimeMXBean().getUptime();
                System.out.printf(Locale.ROOT, "CAUGHT-UP member=%d uptime-ms=%d start-ms=%.1f start-cpu-ms=%.1f "
                        + "load-ms=%.1f after-snapshot-ms=%.1f digest=%s%n", id, uptime, timed.startMs(), timed.startCpuMs(),
                        state.loadNanos() < 0 ? -1.0 : state.loadNanos() / 1e6, timed.afterSnapshotMs(), state.digest());
                System.out.printf(Locale.ROOT, "MEMORY member=%d heap-after-gc-mib=%d rss-peak-mib=%d%n", id,
                        heapAfterGc() >> 20, peakRss() >> 20);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        System.out.println("STOPPED member=" + id + " " + member.failure().map(Throwable::toString).orElse(""));
        member.close();
    }

    private static long heapAfterGc() {
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        System.gc();
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** @return the process's peak resident set (VmHWM), in bytes, or -1 where /proc cannot say */
    private static long peakRss() {
        try {
            for (final String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (final java.io.IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}

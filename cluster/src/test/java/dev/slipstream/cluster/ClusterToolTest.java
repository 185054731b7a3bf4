package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.Cluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Aeron's {@code ClusterTool}, run as the monitoring guide shows (a JVM of its own, the member's
 * cluster directory, a command), reads a running member from outside: it names the member and the
 * leader, says it leads, gives the member's process id, lists the snapshot in the recording log,
 * prints the recovery plan (through the member's own archive) and the error logs; and its
 * {@code snapshot} command, as the operations guide gives it, makes the leader take a snapshot.
 */
class ClusterToolTest {
    private static final String FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    @TempDir
    Path dir;

    @Test
    void clusterToolReadsARunningMemberFromItsClusterDirectory() throws Exception {
        try (SingleMember cluster = new SingleMember(dir, 27630).start(Ledger::new)) {
            Await.until("the member to lead", SingleMember.LIMIT, () -> { },
                    () -> cluster.member.role() == Cluster.Role.LEADER);
            cluster.snapshot();
            final Path clusterDir = cluster.config.baseDir().resolve("cluster");

            final String pid = Long.toString(ProcessHandle.current().pid());

            final Tool describe = clusterTool(clusterDir, "describe");
            describe.requireSuccess();
            describe.requireAll("componentType=CONSENSUS_MODULE", "componentType=CONTAINER", "memberId=0",
                    "pid=" + pid, "serviceName='clustered-service-0-0'");

            final Tool members = clusterTool(clusterDir, "list-members");
            members.requireSuccess();
            members.requireAll("leaderMemberId=0, memberId=0, activeMembers=[ClusterMember{id=0, ",
                    "isLeader=true", "ingressEndpoint='localhost:27630'");

            final Tool leads = clusterTool(clusterDir, "is-leader");
            leads.requireSuccess();  // exit code 0: this member leads

            final Tool processId = clusterTool(clusterDir, "pid");
            processId.requireSuccess();
            assertEquals(pid, processId.output().strip(), processId.toString());

            final Tool recordingLog = clusterTool(clusterDir, "recording-log");
            recordingLog.requireSuccess();
            recordingLog.requireAll("type=TERM", "type=SNAPSHOT");

            final Tool plan = clusterTool(clusterDir, List.of(
                    "-Daeron.dir=" + cluster.config.aeronDir().toAbsolutePath(),
                    "-Daeron.archive.control.channel=aeron:udp?endpoint=localhost:27634",  // base port + 4
                    "-Daeron.archive.control.response.channel=aeron:udp?endpoint=localhost:0"), "recovery-plan", "1");
            plan.requireSuccess();
            plan.requireAll("RecoveryPlan[lastLeadershipTermId=0, ", "committedLogPosition=", "serviceId=0]");

            final Tool errors = clusterTool(clusterDir, "errors");
            errors.requireSuccess();
            errors.requireAll("Cluster component error log", "Aeron driver error log");

            // the operations guide's snapshot from a shell: the leader takes one more
            final long snapshots = cluster.member.snapshotCount();
            final Tool snapshot = clusterTool(clusterDir, "snapshot");
            snapshot.requireSuccess();
            Await.until("the snapshot ClusterTool asked for", SingleMember.LIMIT, () -> { },
                    () -> cluster.member.snapshotCount() > snapshots);
        }
    }

    /** ClusterTool's output and exit code for one command against {@code clusterDir}. */
    private Tool clusterTool(final Path clusterDir, final String... args) throws IOException, InterruptedException {
        return clusterTool(clusterDir, List.of(), args);
    }

    private Tool clusterTool(final Path clusterDir, final List<String> properties, final String... args)
            throws IOException, InterruptedException {
        final String command = String.join(" ", args);
        final List<String> line = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx64m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1"));
        line.addAll(List.of(FLAG.split(" ")));
        line.addAll(properties);
        line.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.aeron.cluster.ClusterTool",
                clusterDir.toString()));
        line.addAll(List.of(args));
        final Path out = dir.resolve("cluster-tool-" + args[0] + ".txt");
        final Process process = new ProcessBuilder(line).redirectErrorStream(true).redirectOutput(out.toFile())
                .start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError("ClusterTool " + command + " still running after 60 s: "
                    + Files.readString(out, StandardCharsets.UTF_8));
        }
        return new Tool(command, process.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    }

    private record Tool(String command, int exitCode, String output) {
        void requireSuccess() {
            assertEquals(0, exitCode, toString());
        }

        void requireAll(final String... parts) {
            for (final String part : parts) {
                assertTrue(output.contains(part), "'" + part + "' not in " + this);
            }
        }

        @Override
        public String toString() {
            return "ClusterTool " + command + " exited " + exitCode + ":\n" + output;
        }
    }
}

package dev.slipstream.examples.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.ClusterTool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster guide's first program, run as the guide runs it: three {@link LedgerMember}
 * processes on one machine, then {@link LedgerClient} in a process of its own, then
 * {@code ClusterTool describe} against a member's {@code cluster/} directory, then SIGTERM to
 * every member.
 */
class LedgerMemberClientTest {
    private static final String MEMBERS = "localhost:27100,localhost:27110,localhost:27120";
    private static final String SECRET = UUID.randomUUID().toString();

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void threeMembersAnswerEveryCommandAndRejectTheBadOne() throws Exception {
        final List<Process> members = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                members.add(start("member-" + i, LedgerMember.class.getName(), Integer.toString(i), MEMBERS,
                        dir.resolve("member-" + i).toString()));
            }
            for (int i = 0; i < 3; i++) {
                awaitLine("member-" + i, "member " + i + " started on localhost:271" + i + "0");
            }

            final Process client = start("client", LedgerClient.class.getName(), MEMBERS, "200");
            assertTrue(client.waitFor(90, TimeUnit.SECONDS), "the client did not finish: " + output("client"));
            final String summary = output("client");
            assertEquals(0, client.exitValue(), summary);
            assertTrue(summary.contains("200 commands: 199 applied, 1 rejected, 0 refused, 0 duplicate,"
                    + " 0 outcome unknown"), summary);
            assertTrue(summary.contains("#101 rejected: java.lang.IllegalArgumentException: amount must not be zero"),
                    summary);

            final Process tool = start("cluster-tool", ClusterTool.class.getName(),
                    dir.resolve("member-0").resolve("cluster").toString(), "describe");
            assertTrue(tool.waitFor(30, TimeUnit.SECONDS), "ClusterTool did not finish");
            assertTrue(output("cluster-tool").contains("Type: CONSENSUS_MODULE"), output("cluster-tool"));

            String all = "";
            for (int i = 0; i < 3; i++) {
                all += output("member-" + i);
            }
            assertTrue(all.contains(" is LEADER"), "no member said it leads:\n" + all);
        } finally {
            for (final Process member : members) {
                member.destroy();                             // SIGTERM
            }
        }
        for (int i = 0; i < members.size(); i++) {
            assertTrue(members.get(i).waitFor(30, TimeUnit.SECONDS), "member " + i + " ignored SIGTERM: "
                    + output("member-" + i));
        }
    }

    /** A JVM as the guide starts one: the examples' class path and the flag Agrona needs. */
    private Process start(final String name, final String mainClass, final String... args) throws IOException {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-Djava.io.tmpdir=" + dir, "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(args));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".txt").toFile());
        builder.environment().put("LEDGER_SECRET", SECRET);
        return builder.start();
    }

    private String output(final String name) {
        try {
            return Files.readString(dir.resolve(name + ".txt"), StandardCharsets.UTF_8);
        } catch (final IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private void awaitLine(final String name, final String line) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!output(name).contains(line)) {
            assertTrue(System.nanoTime() - deadline < 0, name + " did not print '" + line + "': " + output(name));
            Thread.sleep(50);
        }
    }
}

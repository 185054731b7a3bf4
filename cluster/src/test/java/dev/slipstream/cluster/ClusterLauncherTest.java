package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher as an operator runs it: three member processes started from the one-machine
 * sample configurations (moved to a temporary directory and free ports, with client secrets)
 * answer a client, and each closes its member and exits 0 on SIGTERM, leaving its directory free
 * for the next start (member 0 is started on it again); a bad entry or a JVM without {@code --add-opens} ends the process with a
 * non-zero status and one clean line on stderr.
 */
class ClusterLauncherTest {
    private static final int BASE_PORT = 27500;
    private static final int MEMBERS = 3;
    private static final long CLIENT_ID = 7;
    private static final byte[] SECRET = "the launcher test's secret for client 7".getBytes(StandardCharsets.US_ASCII);
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final Path SAMPLES = Path.of("src/main/config/three-members-one-machine");
    private static final String ADD_OPENS = "java.base/jdk.internal.misc=ALL-UNNAMED";

    @TempDir
    Path dir;
    private final List<Launched> launched = new ArrayList<>();

    /**
     * A launcher process, its stdout and stderr in files: {@link Process#destroy()} closes the
     * process's pipes, and what the launcher prints while it stops would be lost with them.
     */
    private static final class Launched {
        final Process process;
        final Path stdout;
        final Path stderr;

        Launched(final Process process, final Path stdout, final Path stderr) {
            this.process = process;
            this.stdout = stdout;
            this.stderr = stderr;
        }

        /** Waits for a stdout line starting with {@code prefix}, and returns it. */
        String expect(final String prefix, final Duration limit) throws InterruptedException, IOException {
            final long deadline = System.nanoTime() + limit.toNanos();
            while (true) {
                for (final String line : Files.readAllLines(stdout)) {
                    if (line.startsWith(prefix)) {
                        return line;
                    }
                }
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no line '" + prefix + "...' within " + limit + "; stdout: "
                            + Files.readString(stdout) + "stderr: " + stderr());
                }
                Thread.sleep(50);
            }
        }

        String stderr() throws IOException {
            return Files.exists(stderr) ? Files.readString(stderr) : "";
        }
    }

    @AfterEach
    void killLeftovers() throws InterruptedException {
        for (final Launched each : launched) {
            if (each.process.isAlive()) {
                each.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private static String members() {
        final List<String> members = new ArrayList<>();
        for (int i = 0; i < MEMBERS; i++) {
            members.add("localhost:" + (BASE_PORT + 10 * i));
        }
        return String.join(",", members);
    }

    /**
     * The one-machine sample of member {@code id}, with this test's ports, a directory under the
     * test's own (relative to the file), and client secrets: every other line as it is.
     */
    private Path sample(final int id) throws IOException {
        // written once, before the first member starts: rewriting it while a launched member
        // reads it (truncated, then written) let that member find no secret on a busy machine
        if (!Files.exists(dir.resolve("client-secrets"))) {
            Files.write(dir.resolve("client-secrets"), List.of("# the test's client",
                    CLIENT_ID + "=" + Base64.getEncoder().encodeToString(SECRET)));
        }
        final List<String> lines = new ArrayList<>();
        int replaced = 0;
        for (final String line : Files.readAllLines(SAMPLES.resolve("member-" + id + ".properties"))) {
            if (line.startsWith("members=")) {
                lines.add("members=" + members());
                replaced++;
            } else if (line.startsWith("base.dir=")) {
                lines.add("base.dir=member-" + id);
                replaced++;
            } else if (line.startsWith("service.factory=")) {
                // the sample names the examples' ledger; this module's test factory stands in for it
                lines.add("service.factory=" + LedgerServiceFactory.class.getName());
                replaced++;
            } else if (line.startsWith("authentication=")) {
                lines.add("authentication=client-secrets");
                lines.add("client.secrets.file=client-secrets");
                replaced++;
            } else {
                lines.add(line);
            }
        }
        assertEquals(4, replaced, "the sample of member " + id + " has members, base.dir, service.factory and authentication");
        return Files.write(dir.resolve("member-" + id + ".properties"), lines);
    }

    private Launched launch(final Path config, final boolean addOpens, final String name) throws IOException {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
        if (addOpens) {
            command.addAll(List.of("--add-opens", ADD_OPENS));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ClusterLauncher.class.getName(),
                config.toString()));
        final Path stdout = dir.resolve(name + "-stdout.txt");
        final Path stderr = dir.resolve(name + "-stderr.txt");
        final Launched process = new Launched(new ProcessBuilder(command).redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile()).start(), stdout, stderr);
        launched.add(process);
        return process;
    }

    /** Connects client 7, trying again while no leader is elected. */
    private static ClusterCommandClient connect(final ClientDriver driver, final Replies replies) {
        final long deadline = System.nanoTime() + LIMIT.toNanos();
        while (true) {
            try {
                return ClusterCommandClient.connect(new ClusterCommandClient.Context()
                        .aeronDirectoryName(driver.directory())
                        .ingressEndpoints(ClusterMembers.parse(List.of(members().split(","))).ingressEndpoints())
                        .clientId(CLIENT_ID)
                        .credentials(ClientSecrets.credentials(CLIENT_ID, SECRET))
                        .limits(128, Long.BYTES)
                        .replyListener(replies));
            } catch (final IllegalStateException noLeaderYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw noLeaderYet;
                }
            }
        }
    }

    @Test
    void threeLaunchedMembersAnswerAClientAndEachClosesCleanlyOnSigterm() throws Exception {
        final long started = System.nanoTime();
        final Launched[] members = new Launched[MEMBERS];
        for (int id = 0; id < MEMBERS; id++) {
            members[id] = launch(sample(id), true, "member-" + id);
        }
        for (int id = 0; id < MEMBERS; id++) {
            final String line = members[id].expect("member " + id + " of 3 started: role ", LIMIT);
            assertTrue(line.contains(", base dir " + dir.resolve("member-" + id).toAbsolutePath()
                    + ", ingress localhost:" + (BASE_PORT + 10 * id)), line);
        }
        final long up = System.nanoTime();

        final Replies replies = new Replies();
        try (ClientDriver driver = new ClientDriver(dir.resolve("client-driver"));
                ClusterCommandClient client = connect(driver, replies)) {
            final UnsafeBuffer amount = new UnsafeBuffer(new byte[Long.BYTES]);
            for (int i = 1; i <= 100; i++) {
                amount.putLong(0, i);
                Await.until("room to send command " + i, LIMIT, client::poll,
                        () -> client.trySend(amount, 0, Long.BYTES) > 0);
            }
            Await.until("100 answers", LIMIT, client::poll, () -> client.inFlight() == 0);
        }
        assertEquals(100, replies.status.size(), "answers: " + replies.status);
        assertTrue(replies.status.values().stream().allMatch(s -> s == CommandWireFormat.STATUS_APPLIED),
                "statuses: " + replies.status);
        assertEquals(100L, replies.count.get(replies.highest), "the ledger's count after the last command");
        final long answered = System.nanoTime();

        for (final Launched member : members) {
            member.process.destroy();  // SIGTERM
        }
        for (int id = 0; id < MEMBERS; id++) {
            final Process process = members[id].process;
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "member " + id + " still running 20 s after SIGTERM;"
                    + " stderr: " + members[id].stderr());
            assertEquals(0, process.exitValue(), "member " + id + "'s exit status; stderr: " + members[id].stderr());
            members[id].expect("member " + id + " closing on a signal", Duration.ofSeconds(5));
            members[id].expect("member " + id + " closed", Duration.ofSeconds(5));
            // what the next ClusterMember.start on the directory does first
            try (FileChannel channel = FileChannel.open(dir.resolve("member-" + id).resolve("member.lock"),
                    StandardOpenOption.WRITE);
                    FileLock lock = channel.tryLock()) {
                assertNotNull(lock, "member " + id + "'s member.lock is still held");
            }
        }
        final long stopped = System.nanoTime();

        // the directory is free: member 0 starts on it again (alone: it waits for an election)
        final Launched again = launch(dir.resolve("member-0.properties"), true, "member-0-again");
        again.expect("member 0 of 3 started: role ", LIMIT);
        again.process.destroy();
        assertTrue(again.process.waitFor(20, TimeUnit.SECONDS), "member 0, started again, still running 20 s"
                + " after SIGTERM; stderr: " + again.stderr());
        assertEquals(0, again.process.exitValue(), "stderr: " + again.stderr());
        System.out.printf("launcher: 3 members up in %d ms, 100 answers in %d ms, stopped in %d ms, member 0 started"
                + " and stopped again in %d ms%n", TimeUnit.NANOSECONDS.toMillis(up - started),
                TimeUnit.NANOSECONDS.toMillis(answered - up), TimeUnit.NANOSECONDS.toMillis(stopped - answered),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped));
    }

    /** A member whose validating stage throws an {@code Error} for {@code ERROR_BASE + its id}, which stops it. */
    public static final class StoppingLedgerFactory implements ClusteredServiceFactory {
        @Override
        public io.aeron.cluster.service.ClusteredService create(final LauncherConfig config) {
            return TestPipelines.validating(Ledger::new, new java.util.concurrent.atomic.AtomicReference<>(),
                    config.memberConfig().memberId(), CommandFailurePolicy.REJECT);
        }
    }

    @Test
    void aMemberThatStopsOnItsOwnEndsTheProcessWithStatus1NamingTheError() throws Exception {
        final int port = BASE_PORT + 30;
        final Path config = Files.write(dir.resolve("alone.properties"), List.of("member.id=0",
                "members=localhost:" + port, "base.dir=alone", "authentication=none",
                "service.factory=" + StoppingLedgerFactory.class.getName()));
        final Launched member = launch(config, true, "alone");
        member.expect("member 0 of 1 started: role ", LIMIT);
        try (ClientDriver driver = new ClientDriver(dir.resolve("client-driver"))) {
            final long deadline = System.nanoTime() + LIMIT.toNanos();
            ClusterCommandClient client = null;
            while (client == null) {
                try {
                    client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                            .aeronDirectoryName(driver.directory())
                            .ingressEndpoints("0=localhost:" + port)
                            .clientId(1)
                            .limits(16, Long.BYTES)
                            .replyListener(new Replies()));
                } catch (final IllegalStateException noLeaderYet) {
                    if (System.nanoTime() - deadline > 0) {
                        throw noLeaderYet;
                    }
                }
            }
            try (ClusterCommandClient connected = client) {
                final UnsafeBuffer amount = new UnsafeBuffer(new byte[Long.BYTES]);
                amount.putLong(0, TestPipelines.ERROR_BASE);
                Await.until("room to send", LIMIT, connected::poll, () -> connected.trySend(amount, 0, Long.BYTES) > 0);
                Await.until("the member to stop", LIMIT, connected::poll, () -> !member.process.isAlive());
            }
        }
        assertEquals(ClusterLauncher.FAILED, member.process.exitValue(), "stderr: " + member.stderr());
        assertTrue(member.stderr().contains("member 0 stopped: "), member.stderr());
        member.expect("member 0 closed", Duration.ofSeconds(5));
        try (FileChannel channel = FileChannel.open(dir.resolve("alone/member.lock"), StandardOpenOption.WRITE);
                FileLock lock = channel.tryLock()) {
            assertNotNull(lock, "member.lock is still held");
        }
    }

    @Test
    void aBadEntryEndsTheProcessWithStatus2AndOneLineOnStderr() throws Exception {
        final List<String> lines = new ArrayList<>(Files.readAllLines(sample(0)));
        lines.replaceAll(line -> line.startsWith("member.id=") ? "member.id=3" : line);
        final Path config = Files.write(dir.resolve("bad.properties"), lines);
        final Launched process = launch(config, true, "bad");
        assertTrue(process.process.waitFor(60, TimeUnit.SECONDS), "the launcher did not end on a bad entry");
        assertEquals(ClusterLauncher.BAD_CONFIGURATION, process.process.exitValue());
        assertEquals("configuration file " + config.toAbsolutePath() + ": member.id is '3'; expected 0 to 2, this"
                + " member's index in members (3 members)\n", process.stderr());
        assertFalse(Files.exists(dir.resolve("member-0")), "nothing started");
    }

    @Test
    void withoutAddOpensTheProcessEndsWithStatus3NamingTheOption() throws Exception {
        final Launched process = launch(sample(0), false, "no-add-opens");
        assertTrue(process.process.waitFor(60, TimeUnit.SECONDS), "the launcher did not end without --add-opens");
        assertEquals(ClusterLauncher.START_FAILED, process.process.exitValue(), process.stderr());
        assertEquals("cluster member 0 cannot start: Aeron's Agrona needs the JVM option --add-opens " + ADD_OPENS
                + " (add it to the java command line, or to the test runner's argLine)\n", process.stderr());
    }

    @Test
    void withoutOneArgumentItPrintsItsUsage() {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        try {
            final int status = ClusterLauncher.run(new String[0], barrier, System.out,
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(ClusterLauncher.BAD_CONFIGURATION, status);
        } finally {
            barrier.close();  // else the JVM's shutdown would wait for it
        }
        final String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.startsWith("usage: java --add-opens " + ADD_OPENS + " -cp <class path> "
                + ClusterLauncher.class.getName() + " <member.properties>; expected one argument"), message);
    }
}

package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A media driver directory outside the base directory ({@link MemberConfig#withAeronDir}) is
 * kept to one live member across processes, and a member killed a moment ago (whose driver's
 * heartbeat is still fresh) does not keep the next start out of it.
 */
class DriverDirectoryTest {
    @TempDir
    Path dir;

    @Test
    void aLiveMemberInAnotherProcessKeepsItsDirectoryAndAKilledOneDoesNot() throws Exception {
        final Path aeron = dir.resolve("shm").resolve("engine-member-0");
        final Process first = child(dir.resolve("a"), 21570, aeron);
        try {
            assertEquals("STARTED", firstLine(first));
            final MemberConfig other = MemberConfig.of(0, List.of("localhost:21580"), dir.resolve("b"))
                    .withAeronDir(aeron);
            final ClusterStartException e = assertThrows(ClusterStartException.class,
                    () -> ClusterMember.start(other, TestPipelines.service(Ledger::new, new AtomicReference<>())));
            assertTrue(e.getMessage().contains("a media driver is running in " + aeron.toAbsolutePath()), e.getMessage());
        } finally {
            first.destroyForcibly().waitFor();   // SIGKILL: the driver's directory stays, its heartbeat fresh
        }
        final Process restarted = child(dir.resolve("a"), 21570, aeron);
        try {
            assertEquals("STARTED", firstLine(restarted), "the member restarted at once in the killed one's directory");
        } finally {
            restarted.destroyForcibly().waitFor();
        }
    }

    private static Process child(final Path base, final int port, final Path aeron) throws IOException {
        return new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                DriverDirChild.class.getName(), base.toString(), Integer.toString(port), aeron.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** @return the child's first line on stdout: STARTED, or REFUSED and why */
    private static String firstLine(final Process process) throws Exception {
        final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        final AtomicReference<String> line = new AtomicReference<>();
        final Thread reader = new Thread(() -> {
            try {
                line.set(out.readLine());
            } catch (final IOException e) {
                line.set("unreadable: " + e);
            }
        });
        reader.setDaemon(true);
        reader.start();
        reader.join(TimeUnit.SECONDS.toMillis(60));
        return line.get() == null ? "no line within 60 s (alive: " + process.isAlive() + ")" : line.get();
    }
}

package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * No call on a {@link ClusterMember} crashes the JVM: while the member stops after an error,
 * while another thread closes it and after. Each check runs in a child JVM
 * ({@link MemberSafetyChild}) so that a crash is seen as the child's exit code and hs_err file,
 * not as the end of the test run; a second check shows that the first fails on the old way of
 * reading the counters (the seeded bug {@link ContextCounters}).
 *
 * <p>The member is stopped two ways, each as the user who reported the crash saw it: by an
 * {@code Error} on the service thread (the rest of the member runs on until it is closed, and
 * the old reads crashed on the first call after {@code close()}), and by an
 * {@code AgentTerminationException}, as a failed stage ends the pipeline service (the consensus
 * module then shuts down and its Aeron client unmaps the CnC file: the old reads crashed about a
 * second after the failure, before any close).
 */
class ClusterMemberSafetyTest {
    private static final String FLAG = "--add-opens java.base/jdk.internal.misc=ALL-UNNAMED";

    @TempDir
    Path dir;

    /** What a child did: its exit code, its stdout lines, its stderr and the hs_err files it left. */
    private record Child(int exitCode, List<String> lines, String stderr, List<Path> crashLogs) {
        String describe() {
            return "exit code " + exitCode + ", hs_err files " + crashLogs + ", stdout " + lines + ", stderr "
                    + stderr.substring(Math.max(0, stderr.length() - 4_000));
        }

        List<String> outcomes(final String phaseAndMethod) {
            return lines.stream().filter(line -> line.startsWith("OUTCOME " + phaseAndMethod + " "))
                    .collect(Collectors.toList());
        }

        boolean saw(final String phaseMethodAndKind) {
            return lines.stream().anyMatch(line -> line.startsWith("OUTCOME " + phaseMethodAndKind + " "));
        }
    }

    @ParameterizedTest
    @CsvSource({"error, 23300, java.lang.AssertionError", "termination, 23310, org.agrona.concurrent.AgentTerminationException"})
    void callsFromAHealthThreadWhileTheMemberStopsAndIsClosedNeverCrashTheJvm(final String stop, final int basePort,
            final String failure) throws Exception {
        final Child child = run("guarded", stop, basePort, true);
        assertEquals(0, child.exitCode(), child.describe());
        assertTrue(child.crashLogs().isEmpty(), child.describe());
        assertTrue(child.lines().contains("DONE"), child.describe());
        // every call answered or refused as documented: no other exception, no other refusal
        for (final String line : child.lines()) {
            assertTrue(!line.contains(" ISE-other ") && !line.contains(" EXCEPTION-"), line + "\n" + child.describe());
        }
        // running, then stopped by the Error, which failure() names and the refusals carry
        assertTrue(child.saw("during role LEADER"), child.describe());
        assertTrue(child.saw("during failure " + failure + ":_" + StoppingService.MESSAGE), child.describe());
        for (final String method : List.of("role", "snapshotCount", "requestSnapshot")) {
            final List<String> stopped = child.outcomes("during " + method).stream()
                    .filter(line -> line.contains(" ISE-stopped ")).collect(Collectors.toList());
            assertEquals(1, stopped.size(), method + " was refused while stopped: " + child.describe());
            assertTrue(stopped.get(0).contains("cluster member 0 is stopped: " + failure + ": "
                    + StoppingService.MESSAGE + "; " + method + "() needs a running member"),
                    stopped.get(0) + "\n" + child.describe());
        }
        assertTrue(child.saw("during isRunning false"), child.describe());
        // after close(): refused as closed; isRunning false, failure() and config() still answer
        for (final String method : List.of("role", "snapshotCount", "requestSnapshot")) {
            final List<String> after = child.outcomes("after " + method);
            assertEquals(1, after.size(), child.describe());
            assertTrue(after.get(0).contains(" ISE-closed 1 | cluster member 0 is closed"), after.get(0));
        }
        assertEquals(List.of("OUTCOME after isRunning false 1 | "), child.outcomes("after isRunning"));
        assertEquals(List.of("OUTCOME after failure " + failure + ":_" + StoppingService.MESSAGE + " 1 | "),
                child.outcomes("after failure"));
        assertEquals(List.of("OUTCOME after config 0 1 | "), child.outcomes("after config"));
        assertEquals(List.of("OUTCOME after closeAgain returned 1 | "), child.outcomes("after closeAgain"));
    }

    /**
     * The proof that the check above can fail: the member reading as it did before crashes the
     * child, every run (a read of memory already unmapped, not a race to win).
     */
    @ParameterizedTest
    @Tag("stress")
    @CsvSource({"error, 23320", "termination, 23330"})
    void theCrashCheckCatchesAMemberThatReadsThroughTheConsensusModulesCounters(final String stop,
            final int basePort) throws Exception {
        final Child child = run("unguarded", stop, basePort, true);
        // the JVM dies on the SIGSEGV and writes its hs_err file (exit code 134 where it dumps core, 1 here)
        assertTrue(child.exitCode() != 0 && !child.crashLogs().isEmpty(), child.describe());
        assertTrue(Files.readString(child.crashLogs().get(0)).contains("SIGSEGV"), child.describe());
        assertTrue(!child.lines().contains("DONE"), child.describe());
    }

    @Test
    void aJvmWithoutTheAddOpensOptionIsToldWhichOptionToAdd() throws Exception {
        final Child child = run("no-flag", "none", 23340, false);
        assertEquals(0, child.exitCode(), child.describe());
        final String refused = child.lines().stream().filter(line -> line.startsWith("REFUSED ")).findFirst()
                .orElseThrow(() -> new AssertionError("the start was not refused: " + child.describe()));
        assertTrue(refused.contains("cluster member 0 cannot start") && refused.contains(FLAG), refused);
    }

    private Child run(final String mode, final String stop, final int basePort, final boolean addOpens)
            throws IOException, InterruptedException {
        final Path childDir = dir.resolve(mode + "-" + stop);
        Files.createDirectories(childDir);
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                // a crash leaves its hs_err file where the test looks, and no core file
                "-XX:ErrorFile=" + childDir.resolve("hs_err_%p.log"), "-XX:-CreateCoredumpOnCrash"));
        if (addOpens) {
            command.addAll(List.of(FLAG.split(" ")));
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), MemberSafetyChild.class.getName(), mode,
                childDir.toString(), Integer.toString(basePort), stop));
        final Path out = childDir.resolve("stdout.txt");
        final Path err = childDir.resolve("stderr.txt");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile())
                .start();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(mode + " child still running after 90 s; stdout " + Files.readString(out)
                    + ", stderr " + Files.readString(err));
        }
        final List<Path> crashLogs;
        try (Stream<Path> files = Files.list(childDir)) {
            crashLogs = files.filter(file -> file.getFileName().toString().startsWith("hs_err_"))
                    .collect(Collectors.toList());
        }
        return new Child(process.exitValue(), Files.readAllLines(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), crashLogs);
    }
}

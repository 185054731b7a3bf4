package dev.slipstream.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code module dev.slipstream} only {@code requires static jdk.jfr}: a runtime without the
 * module (a jlink image without JFR) must still run pipelines, with JFR skipped. The test starts
 * a JVM limited to {@code java.base} and {@code dev.slipstream} and runs a pipeline there.
 */
class JfrAbsentTest {
    private static final String PROBE = "dev.slipstream.nojfr.NoJfrProbe";
    private static final long EVENTS = 10_000;

    @Test
    void pipelineRunsAndJfrIsSkippedWhenTheModuleIsAbsent() throws Exception {
        final String out = runProbe(List.of("--limit-modules", "java.base,dev.slipstream"));
        final long expectedSum = EVENTS * (EVENTS + 1);   // 2 * (1 + ... + EVENTS)
        assertEquals("jfrPresent=false jdk.jfr-in-boot-layer=false sum=" + expectedSum + " clean=true", out.strip(),
                "probe output");
    }

    @Test
    void jfrIsUsedWhenTheApplicationResolvesIt() throws Exception {
        final String out = runProbe(List.of("--add-modules", "jdk.jfr"));
        assertTrue(out.startsWith("jfrPresent=true jdk.jfr-in-boot-layer=true "), out);
    }

    @Test
    void jfrIsPresentInThisJvm() {
        // the test JVM has jdk.jfr (SlipstreamMetricsTest records with it)
        assertTrue(JfrMonitoring.jfrPresent());
    }

    /** Runs the probe with dev.slipstream on the module path and the probe on the class path. */
    private static String runProbe(final List<String> extraOptions) throws IOException, InterruptedException,
            URISyntaxException {
        final Path mainClasses = Path.of(JfrMonitoring.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final Path testClasses = Path.of(JfrAbsentTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final List<String> command = new java.util.ArrayList<>(List.of(java, "-Xmx64m"));
        command.addAll(extraOptions);
        command.addAll(List.of("--module-path", mainClasses.toString(), "--add-modules", "dev.slipstream",
                "-cp", testClasses.toString(), PROBE));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File(File.separator.equals("/") ? "/dev/null" : "NUL")))
                .start();
        final byte[] output = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "probe did not finish");
        final String text = new String(output, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), () -> "probe failed: " + command + "\n" + text);
        return text;
    }
}

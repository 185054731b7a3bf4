package dev.slipstream.examples.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clustered exchange as a user runs it, in a JVM of its own: three member processes, the
 * leader killed mid-stream, the dead member started again, every member checked against the
 * reference matcher.
 */
class ClusteredExchangeTest {
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void everyMemberHoldsTheReferenceBookAfterTheLeaderIsKilled(@TempDir final Path dir) throws Exception {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Path out = dir.resolve("exchange.txt");
        final Process exchange = new ProcessBuilder(java, "-Xmx256m", "--add-opens",
                "java.base/jdk.internal.misc=ALL-UNNAMED", "-Djava.io.tmpdir=" + dir,
                "-cp", System.getProperty("java.class.path"), ClusteredExchange.class.getName(), "600")
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        assertTrue(exchange.waitFor(280, TimeUnit.SECONDS), "the exchange did not finish");
        final String output = Files.readString(out, StandardCharsets.UTF_8);
        System.out.println(output);
        assertEquals(0, exchange.exitValue(), output);
        assertTrue(output.contains("clustered exchange: 600 commands, each applied once on every member"), output);
        assertTrue(output.contains("SIGKILL to leader"), output);
    }
}

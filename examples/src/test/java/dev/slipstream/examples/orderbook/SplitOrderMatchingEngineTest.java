package dev.slipstream.examples.orderbook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.DatagramSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order-matching engine split across two JVMs, each started with its one command: the
 * gateway sends orders over UDP loopback to the matching engine, which sends execution reports
 * back; both print their verification.
 */
class SplitOrderMatchingEngineTest {
    private static final long ORDERS = 100_000;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void gatewayAndEngineInTwoProcessesVerify(@TempDir final Path dir) throws Exception {
        final String orders = "aeron:udp?endpoint=127.0.0.1:" + freePort();
        final String reports = "aeron:udp?endpoint=127.0.0.1:" + freePort();
        final Path engineOut = dir.resolve("engine.txt");
        final Path gatewayOut = dir.resolve("gateway.txt");

        final Process engine = start(MatchingEngineNode.class, engineOut, "--orders", Long.toString(ORDERS),
                "--orders-channel", orders, "--reports-channel", reports, "--print-every", "25000",
                "--timeout-seconds", "100");
        final Process gateway = start(GatewayNode.class, gatewayOut, "--orders", Long.toString(ORDERS),
                "--clients", "3", "--orders-channel", orders, "--reports-channel", reports,
                "--timeout-seconds", "100");
        try {
            final boolean gatewayEnded = gateway.waitFor(120, TimeUnit.SECONDS);
            final boolean engineEnded = engine.waitFor(20, TimeUnit.SECONDS);
            final String g = Files.readString(gatewayOut, StandardCharsets.UTF_8);
            final String e = Files.readString(engineOut, StandardCharsets.UTF_8);
            final String both = "--- gateway\n" + g + "\n--- engine\n" + e;
            assertTrue(gatewayEnded && engineEnded, () -> "a node did not end in time\n" + both);
            assertEquals(0, gateway.exitValue(), both);
            assertEquals(0, engine.exitValue(), both);
            assertTrue(g.contains("verified: every order acknowledged once, in order, no gap in either stream"), both);
            // the engine prints the single-process demo's verification line
            assertTrue(e.contains("verified: journal contiguous, replica checksum = journal, executions and book"
                    + " = reference matcher"), both);
            assertTrue(e.contains(String.format("%,d orders in", ORDERS)) && e.contains("p99.9"), both);
            assertTrue(g.contains("orders/s") && g.contains("round trip"), both);
        } finally {
            gateway.destroyForcibly();
            engine.destroyForcibly();
        }
    }

    /** The same java and class path as this test, as a user would run the node's main. */
    private static Process start(final Class<?> main, final Path output, final String... args) throws IOException {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("--add-opens");
        command.add("java.base/jdk.internal.misc=ALL-UNNAMED");
        command.add("-Xmx512m");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                .directory(new File(System.getProperty("user.dir"))).start();
    }

    private static int freePort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

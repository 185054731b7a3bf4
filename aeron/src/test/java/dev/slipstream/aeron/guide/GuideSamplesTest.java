package dev.slipstream.aeron.guide;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.topology.ShutdownResult;
import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Runs the guide's samples, and checks that the guide shows them as they are here. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GuideSamplesTest {
    private static final Path GUIDE = Path.of("..", "docs", "guide", "aeron-bridge.md");
    private static final Path SAMPLES = Path.of("src", "test", "java", "dev", "slipstream", "aeron", "guide");

    @Test
    void everyJavaSampleInTheGuideIsCodeThatThisModuleCompiles() throws IOException {
        final String guide = Files.readString(GUIDE, StandardCharsets.UTF_8);
        final String sources = normalize(Files.readString(SAMPLES.resolve("GuideSamples.java"))
                + Files.readString(SAMPLES.resolve("Quote.java")));
        final Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(guide);
        final List<String> missing = new ArrayList<>();
        int blocks = 0;
        while (block.find()) {
            blocks++;
            for (final String part : block.group(1).split("\\n\\s*// \\.\\.\\.\\s*\\n")) {
                if (!sources.contains(normalize(part))) {
                    missing.add(part);
                }
            }
        }
        assertTrue(blocks >= 4, "the guide has its samples: " + blocks);
        assertTrue(missing.isEmpty(), () -> "samples in the guide that GuideSamples.java does not hold:\n" + missing);
    }

    private static String normalize(final String code) {
        return code.replaceAll("\\s+", " ").trim();
    }

    @Test
    void sendingAndReceivingSamplesRunEndToEnd(@TempDir final Path dir) throws Exception {
        final MediaDriver.Context small = new MediaDriver.Context()
                .aeronDirectoryName(dir.resolve("aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .publicationTermBufferLength(64 * 1024)
                .ipcTermBufferLength(64 * 1024)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true);
        try (MediaDriver driver = MediaDriver.launchEmbedded(small);
             Aeron aeron = GuideSamples.connect(driver.aeronDirectoryName())) {
            final String channel = "aeron:udp?endpoint=127.0.0.1:" + freePort();
            final AtomicLong prices = new AtomicLong();
            final List<String> alerts = new CopyOnWriteArrayList<>();
            final GuideSamples.Receiving receiving = new GuideSamples.Receiving();
            receiving.start(aeron, channel, quote -> prices.addAndGet(quote.price), alerts);
            final GuideSamples.Sending sending = new GuideSamples.Sending();
            sending.start(aeron, channel);
            while (prices.get() != 101) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            assertTrue(sending.stop().isClean());
            assertTrue(receiving.stop().isClean());
            assertTrue(alerts.isEmpty(), alerts::toString);

            // halting while nobody listens: returns at once, and counts the unsent quote
            final GuideSamples.Sending lonely = new GuideSamples.Sending();
            lonely.start(aeron, "aeron:udp?endpoint=127.0.0.1:" + freePort());
            while (lonely.toEngine.metrics().notConnected() == 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            final ShutdownResult halted = lonely.haltWhileTheFarSideIsGone();
            assertTrue(halted.threadsStillRunning().isEmpty(), halted::toString);
            assertEquals(1, halted.eventsLeft("to-engine"), halted::toString);
            lonely.toEngine.publication().close();
        }
    }

    @Test
    void theProductionDriverStartsAndAcceptsAClient(@TempDir final Path dir) {
        final String aeronDir = dir.resolve("aeron-engine").toString();
        try (MediaDriver driver = MediaDriver.launch(GuideSamples.productionDriver(aeronDir).dirDeleteOnShutdown(true));
             Aeron aeron = GuideSamples.connect(aeronDir)) {
            assertEquals(ThreadingMode.DEDICATED, driver.context().threadingMode());
            assertEquals(16 * 1024 * 1024 / 8, aeron.addExclusivePublication("aeron:ipc", 1).maxMessageLength());
            assertFalse(aeron.isClosed());
        }
    }

    private static int freePort() throws IOException {
        try (java.net.DatagramSocket socket = new java.net.DatagramSocket(0)) {
            return socket.getLocalPort();
        }
    }
}

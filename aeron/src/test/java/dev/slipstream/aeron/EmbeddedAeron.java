package dev.slipstream.aeron;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.agrona.concurrent.BackoffIdleStrategy;

/**
 * A media driver and a client in this JVM, sized for tests on a small machine: one driver thread
 * (SHARED) that backs off when idle, 64 KiB terms, a temporary directory deleted on close (the
 * driver deletes its own directory; {@link #close()} deletes the one made to hold it).
 */
final class EmbeddedAeron implements AutoCloseable {
    static final int TERM_LENGTH = 64 * 1024;

    final MediaDriver driver;
    final Aeron aeron;
    private final Path parent;

    EmbeddedAeron() {
        final String dir;
        try {
            parent = Files.createTempDirectory("slipstream-aeron-test");
            dir = parent.resolve("aeron").toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        final MediaDriver.Context context = new MediaDriver.Context()
                .aeronDirectoryName(dir)
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1),
                        TimeUnit.MICROSECONDS.toNanos(100)))
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .termBufferSparseFile(true)
                .publicationTermBufferLength(TERM_LENGTH)
                .ipcTermBufferLength(TERM_LENGTH)
                .publicationLingerTimeoutNs(TimeUnit.MILLISECONDS.toNanos(100))
                .imageLivenessTimeoutNs(TimeUnit.SECONDS.toNanos(2));
        this.driver = MediaDriver.launchEmbedded(context);
        this.aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName()));
    }

    /** A UDP unicast channel on a free loopback port. */
    static String udpChannel() {
        return "aeron:udp?endpoint=127.0.0.1:" + freePort();
    }

    static int freePort() {
        try (DatagramSocket socket = new DatagramSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            aeron.close();
            driver.close();
        } finally {
            deleteTree(parent);
        }
    }

    /** Deletes a directory and everything under it; a directory already gone is fine. */
    static void deleteTree(final Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not delete the test's Aeron directory " + root, e);
        }
    }

    /** The directory made to hold the driver's, deleted by {@link #close()}. */
    Path parent() {
        return parent;
    }
}

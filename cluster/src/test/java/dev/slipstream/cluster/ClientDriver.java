package dev.slipstream.cluster;

import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;

/** A media driver of the test's own for its cluster clients (never a member's). */
final class ClientDriver implements AutoCloseable {
    private final MediaDriver driver;

    ClientDriver(final Path dir) {
        this.driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(dir.toAbsolutePath().toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
    }

    String directory() {
        return driver.aeronDirectoryName();
    }

    @Override
    public void close() {
        driver.close();
    }
}

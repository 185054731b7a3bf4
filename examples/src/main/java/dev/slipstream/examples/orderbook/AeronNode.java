package dev.slipstream.examples.orderbook;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.agrona.concurrent.BackoffIdleStrategy;

/**
 * What the two nodes of the split engine share: the command-line options, and an Aeron client,
 * either on a media driver of its own in this process (the default: one command per node) or on
 * a dedicated driver already running at {@code --aeron-dir}, as in production.
 */
final class AeronNode implements AutoCloseable {
    /** Orders, gateway to engine. */
    static final int ORDER_STREAM = 10;
    /** Execution reports, engine to gateway. */
    static final int REPORT_STREAM = 11;
    static final String DEFAULT_ORDERS_CHANNEL = "aeron:udp?endpoint=127.0.0.1:40123";
    static final String DEFAULT_REPORTS_CHANNEL = "aeron:udp?endpoint=127.0.0.1:40124";

    private final MediaDriver driver;
    final Aeron aeron;

    private AeronNode(final MediaDriver driver, final Aeron aeron) {
        this.driver = driver;
        this.aeron = aeron;
    }

    /**
     * Connects to the driver at {@code aeronDir}, or starts one in this process when it is null:
     * SHARED threading (one driver thread, backing off when idle) and 1 MiB terms, sized for a
     * demo on a small machine, in a temporary directory deleted on close.
     */
    static AeronNode start(final String aeronDir) throws IOException {
        if (aeronDir != null) {
            return new AeronNode(null, Aeron.connect(new Aeron.Context().aeronDirectoryName(aeronDir)));
        }
        final MediaDriver driver = MediaDriver.launchEmbedded(new MediaDriver.Context()
                .aeronDirectoryName(Files.createTempDirectory("slipstream-node").resolve("aeron").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1),
                        TimeUnit.MICROSECONDS.toNanos(100)))
                .publicationTermBufferLength(1 << 20)
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        return new AeronNode(driver, Aeron.connect(new Aeron.Context().aeronDirectoryName(driver.aeronDirectoryName())));
    }

    @Override
    public void close() {
        aeron.close();
        if (driver != null) {
            driver.close();
        }
    }

    /** {@code --name value} pairs; refuses an option not in {@code known}. */
    static Map<String, String> options(final String[] args, final String... known) {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            boolean ok = false;
            for (final String k : known) {
                ok |= k.equals(args[i]);
            }
            if (!ok) {
                throw new IllegalArgumentException("unknown option " + args[i] + "; expected one of "
                        + String.join(", ", known));
            }
            options.put(args[i], args[i + 1].replace("_", ""));
        }
        return options;
    }
}

package dev.slipstream.bench.snapshot;

import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.CommandWireFormat;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The snapshot-stall benchmark's client: sends {@code --rate} commands a second for
 * {@code --seconds} to the three members, each at its intended time, checks every answer, and
 * prints the longest gap between two answers and the longest round trip from an intended send
 * time (a stall delays every command behind it, so it shows whole):
 * <pre>
 * CLIENT sent=20000 answered=20000 max-gap-ms=812.4 max-latency-ms=830.1 p50-latency-ms=0.9
 * </pre>
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks.jar \
 *      dev.slipstream.bench.snapshot.StallClient --dir /tmp/stall --port 29100 --rate 1000 --seconds 20
 * </pre>
 */
public final class StallClient {
    private static final long CLIENT_ID = 11;

    private StallClient() {
    }

    /** The amount a command with this correlation id carries. */
    static long amountOf(final long correlationId) {
        return correlationId * 0x9E3779B97F4A7C15L ^ (correlationId >>> 7);
    }

    /**
     * @param args {@code --dir --port --rate --seconds --members}
     */
    public static void main(final String[] args) {
        final StallOptions o = StallOptions.parse(args, "dir", "port", "rate", "seconds", "members");
        final int rate = o.integer("rate", 1000);
        final int port = o.integer("port", 29100);
        final int members = o.integer("members", 3);
        final int total = Math.multiplyExact(rate, o.integer("seconds", 20));
        final StringBuilder endpoints = new StringBuilder();
        for (int i = 0; i < members; i++) {
            endpoints.append(i == 0 ? "" : ",").append(i).append("=localhost:").append(port + 10 * i);
        }
        final long[] intended = new long[total];
        final long[] answeredAt = new long[total];
        final String[] failure = new String[1];
        final long[] answered = new long[1];
        final MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(Path.of(o.text("dir", "/tmp/slipstream-stall"), "client-driver").toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
        ClusterCommandClient client = null;
        try {
            client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(driver.aeronDirectoryName())
                    .ingressEndpoints(endpoints.toString())
                    .clientId(CLIENT_ID)
                    .limits(4096, Long.BYTES)
                    .resendAfterNs(TimeUnit.MINUTES.toNanos(10))
                    .replyListener((correlationId, status, buffer, offset, length) -> {
                        final long now = System.nanoTime();
                        final int index = (int) (correlationId - 1);
                        if (index < 0 || index >= total || answeredAt[index] != 0 || status != CommandWireFormat
                                .STATUS_APPLIED || length != Long.BYTES || buffer.getLong(offset)
                                != amountOf(correlationId)) {
                            failure[0] = failure[0] != null ? failure[0] : "a wrong answer to correlation id "
                                    + correlationId + " (status " + status + ", " + length + " bytes)";
                            return;
                        }
                        answeredAt[index] = now;
                        answered[0]++;
                    }));
            final long interval = TimeUnit.SECONDS.toNanos(1) / rate;
            final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            final UnsafeBuffer amount = new UnsafeBuffer(new byte[Long.BYTES]);
            for (int i = 0; i < total && failure[0] == null; i++) {
                intended[i] = start + i * interval;
                while (System.nanoTime() < intended[i]) {
                    if (client.poll() == 0) {
                        Thread.yield();
                    }
                }
                amount.putLong(0, amountOf(i + 1));
                while (client.trySend(amount, 0, Long.BYTES) < 0) {
                    client.poll();
                }
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (answered[0] < total && failure[0] == null && System.nanoTime() < deadline) {
                if (client.poll() == 0) {
                    Thread.yield();
                }
            }
        } finally {
            CloseHelper.quietClose(client);
            CloseHelper.quietClose(driver);
        }
        report(total, answered[0], intended, answeredAt, failure[0]);
    }

    private static void report(final int total, final long answered, final long[] intended, final long[] answeredAt,
            final String failure) {
        long maxGap = 0;
        long maxLatency = 0;
        long previous = 0;
        final long[] latencies = new long[total];
        for (int i = 0; i < total; i++) {
            if (answeredAt[i] == 0) {
                continue;
            }
            // answers come in log order, so a gap is between one command's answer and the next one's
            if (previous != 0) {
                maxGap = Math.max(maxGap, answeredAt[i] - previous);
            }
            previous = Math.max(previous, answeredAt[i]);
            latencies[i] = answeredAt[i] - intended[i];
            maxLatency = Math.max(maxLatency, latencies[i]);
        }
        java.util.Arrays.sort(latencies);
        System.out.printf(Locale.ROOT, "CLIENT sent=%d answered=%d max-gap-ms=%.1f max-latency-ms=%.1f "
                + "p50-latency-ms=%.2f%n", total, answered, maxGap / 1e6, maxLatency / 1e6,
                latencies[total / 2] / 1e6);
        if (failure != null || answered != total) {
            System.out.println("FAILED " + (failure != null ? failure : answered + " of " + total + " answered"));
            System.exit(3);
        }
    }
}

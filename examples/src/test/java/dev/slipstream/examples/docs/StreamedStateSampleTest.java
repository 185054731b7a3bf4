package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.cluster.SnapshotInput;
import dev.slipstream.cluster.SnapshotOutput;
import dev.slipstream.cluster.StreamingStageState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.StageSpec;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The streamed stage state sample of docs/guide/cluster.md, as written there, in a one-member
 * cluster on loopback: orders fill the price levels, a snapshot streams them out, and a member
 * restarted from that snapshot holds the same levels and the same count.
 */
class StreamedStateSampleTest {
    /** Five UDP ports from here on localhost. */
    private static final int BASE_PORT = 29200;

    @TempDir
    Path tmp;

    /** Every stage the wiring made: one per service start. */
    private final List<PriceLevels> made = new CopyOnWriteArrayList<>();

    final class PriceLevels implements EventHandler<ClusterCommand<Order>>, StreamingStageState {
        private final UnsafeBuffer levels = new UnsafeBuffer(new byte[16 * 1024 * 1024]);
        private long orders;

        public void onEvent(ClusterCommand<Order> event, long sequence, boolean endOfBatch) {
            int at = (int) (event.payload().price % (levels.capacity() / Long.BYTES)) * Long.BYTES;
            levels.putLong(at, levels.getLong(at) + event.payload().quantity);
            orders++;
        }

        public long snapshotLength() {
            return Long.BYTES + levels.capacity();                // exactly what writeSnapshot writes
        }

        public void writeSnapshot(SnapshotOutput output) {
            output.putLong(orders);
            output.putBytes(levels, 0, levels.capacity());        // sent chunk by chunk, never copied whole
        }

        public void loadSnapshot(SnapshotInput input) {
            orders = input.getLong();
            input.getBytes(levels, 0, levels.capacity());
        }
    }

    /** Read once the member is closed: the count and a CRC32C of the levels. */
    private static String digest(final PriceLevels stage) {
        final CRC32C crc = new CRC32C();
        crc.update(stage.levels.byteArray());
        return stage.orders + "/" + Long.toHexString(crc.getValue());
    }

    private PipelineClusteredService<Order> service() {
        return PipelineClusteredService.builder(Order::new)
                .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
                .pipeline((pipeline, outbox, states) -> {
                    PriceLevels levels = new PriceLevels();
                    made.add(levels);
                    states.registerStreaming("levels", levels);
                    pipeline.handleEventsWith(StageSpec.of("levels", levels))
                            .then(StageSpec.of("reply", (event, sequence, endOfBatch) ->
                                    outbox.reply(event, (buffer, offset, order) -> 0, event.payload())));
                })
                .build();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aRestartedMemberHoldsTheStreamedLevels() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:" + BASE_PORT), tmp.resolve("member"));
        try (ClusterMember member = ClusterMember.start(config, service())) {
            send(config, 1, 200);
            final long before = member.snapshotCount();
            while (!member.requestSnapshot()) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
            while (member.snapshotCount() == before) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        final String written = digest(made.get(0));
        assertEquals("200/", written.substring(0, 4));
        try (ClusterMember member = ClusterMember.start(config, service())) {
            send(config, 2, 0);  // answered once the restarted member is up: the snapshot is loaded by then
        }
        assertEquals(2, made.size(), "one stage per service start");
        assertEquals(written, digest(made.get(1)), "the levels and the count loaded from the snapshot");
        assertNotEquals(0, made.get(1).levels.getLong(0) | made.get(1).levels.getLong(Long.BYTES * 10_001));
    }

    /** Sends {@code count} orders (price 10,000 + i, quantity i + 1) as client {@code clientId}; waits for every answer. */
    private void send(final MemberConfig config, final long clientId, final int count) {
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                        .aeronDirectoryName(tmp.resolve("client-" + clientId).toAbsolutePath().toString())
                        .threadingMode(ThreadingMode.SHARED)
                        .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                        .termBufferSparseFile(true)
                        .dirDeleteOnStart(true)
                        .dirDeleteOnShutdown(true));
                ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                        .aeronDirectoryName(driver.aeronDirectoryName())
                        .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                        .clientId(clientId)
                        .replyListener((correlationId, status, buffer, offset, length) -> { }))) {
            final Order order = new Order();
            final UnsafeBuffer encoded = new UnsafeBuffer(new byte[64]);
            for (int i = 0; i < count; i++) {
                order.set(i + 1, 10_000 + i, i + 1);
                final int length = order.encode(encoded, 0);
                while (client.trySend(encoded, 0, length) < 0) {
                    client.poll();
                }
            }
            while (client.inFlight() > 0) {
                client.poll();
            }
        }
    }
}

package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.cluster.ClientIdAuthenticator;
import dev.slipstream.cluster.ClientSecrets;
import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.CommandWireFormat;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.cluster.ReplyListener;
import dev.slipstream.cluster.StageState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.StageSpec;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The samples of docs/guide/cluster.md, as written there, each run in a one-member cluster on
 * loopback (one member is its own majority, so the same code runs here without an election; in
 * production the member list names three machines). The stage timer samples: an order is
 * answered, then its timer's event takes it off the resting orders. The failure and
 * authentication samples: a bad order is rejected with its cause and the engine goes on. The
 * guide's whole programs, {@code LedgerMember} and {@code LedgerClient}, are run by
 * {@code LedgerMemberClientTest}.
 */
class ClusterSamplesTest {
    /** Five UDP ports from here on localhost (ingress, consensus, log, catch-up, archive control). */
    private static final int BASE_PORT = 23100;

    @TempDir
    Path tmp;

    /** Every book the sample's wiring made: one per service start. */
    private final List<OrderBook> books = new CopyOnWriteArrayList<>();

    /** The sample's matching stage, reduced to what it shows: state that is snapshotted, and an ack per order. */
    final class OrderBook implements EventHandler<ClusterCommand<Order>>, StageState {
        private long orders;
        private long quantity;
        private long lastOrderId;
        /** Written last by the stage thread, read first by the test: the orders applied so far. */
        private volatile long applied;

        OrderBook() {
            books.add(this);
        }

        @Override
        public void onEvent(final ClusterCommand<Order> command, final long sequence, final boolean endOfBatch) {
            orders++;
            quantity += command.payload().quantity;
            lastOrderId = command.payload().id;
            applied = orders;
        }

        /** The ack: the order's id. */
        static int writeAck(final MutableDirectBuffer buffer, final int offset, final Order order) {
            buffer.putLong(offset, order.id);
            return Long.BYTES;
        }

        @Override
        public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
            buffer.putLong(offset, orders);
            buffer.putLong(offset + 8, quantity);
            buffer.putLong(offset + 16, lastOrderId);
            return 24;
        }

        @Override
        public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
            orders = buffer.getLong(offset);
            quantity = buffer.getLong(offset + 8);
            lastOrderId = buffer.getLong(offset + 16);
            applied = orders;
        }
    }

    /** Every resting-orders stage the timer sample's wiring made: one per service start. */
    private final List<RestingOrders> restingStages = new CopyOnWriteArrayList<>();

    /** The timer sample's stage: the resting orders, each removed by its timer's event. */
    final class RestingOrders implements EventHandler<ClusterCommand<Order>>, StageState {
        /** Order id to quantity; sorted, so every member writes the same snapshot; the test reads it too. */
        private final Map<Long, Long> resting = new ConcurrentSkipListMap<>();

        RestingOrders() {
            restingStages.add(this);
        }

        @Override
        public void onEvent(ClusterCommand<Order> event, long sequence, boolean endOfBatch) {
            if (event.isTimer()) {
                resting.remove(event.timerId());                            // expired, at event.timestamp()
            } else {
                resting.put(event.payload().id, event.payload().quantity);
            }
        }

        @Override
        public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
            int at = offset;
            buffer.putInt(at, resting.size());
            at += Integer.BYTES;
            for (final Map.Entry<Long, Long> order : resting.entrySet()) {
                buffer.putLong(at, order.getKey());
                buffer.putLong(at + Long.BYTES, order.getValue());
                at += 2 * Long.BYTES;
            }
            return at - offset;
        }

        @Override
        public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
            resting.clear();
            final int n = buffer.getInt(offset);
            for (int i = 0; i < n; i++) {
                final int at = offset + Integer.BYTES + i * 2 * Long.BYTES;
                resting.put(buffer.getLong(at), buffer.getLong(at + Long.BYTES));
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void anOrderIsAnsweredThenItsTimersEventExpiresIt() {
        PipelineClusteredService<Order> expiring = PipelineClusteredService.builder(Order::new)
                .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
                .timers((event, timers) -> {                                  // service thread, every event
                    if (!event.isTimer()) {
                        long timeToLive = timers.timeUnit().convert(50, TimeUnit.MILLISECONDS);
                        timers.schedule(event.payload().id, event.timestamp() + timeToLive);
                    }
                }, (timerId, timestamp, order) -> order.set(timerId, 0, 0))   // a timer event's payload
                .pipeline((pipeline, outbox, states) -> {
                    RestingOrders resting = new RestingOrders();
                    states.register("resting", resting);
                    pipeline.handleEventsWith(StageSpec.of("book", resting))
                            .then(StageSpec.of("reply", (event, sequence, endOfBatch) -> {
                                if (!event.isTimer()) {                       // a timer event has no client
                                    outbox.reply(event, OrderBook::writeAck, event.payload());
                                }
                            }));
                })
                .build();

        final MemberConfig config = MemberConfig.of(0, List.of("localhost:" + (BASE_PORT + 10)),
                tmp.resolve("expiring"));
        final List<Long> acks = new CopyOnWriteArrayList<>();
        try (ClusterMember member = ClusterMember.start(config, expiring);
                MediaDriver clientDriver = clientDriver("expiring-client");
                ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                        .aeronDirectoryName(clientDriver.aeronDirectoryName())
                        .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                        .clientId(8)
                        .replyListener((correlationId, status, buffer, offset, length) ->
                                acks.add(buffer.getLong(offset))))) {
            final Order sent = new Order();
            sent.set(42, 10_100, 500);
            final UnsafeBuffer order = new UnsafeBuffer(new byte[64]);
            final int orderLength = sent.encode(order, 0);
            while (client.trySend(order, 0, orderLength) < 0) {
                client.poll();
            }
            while (client.inFlight() > 0) {
                client.poll();
            }
            // the reply stage runs after the book: the order was resting when it was answered
            assertEquals(List.of(42L), acks, "the order's ack");
            final RestingOrders stage = restingStages.get(0);
            while (!stage.resting.isEmpty()) {
                client.poll();                                                // the timer is 50 ms away
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        assertEquals(1, restingStages.size(), "resting-orders stages made: one service start");
    }

    /**
     * The failures section's samples with the per-client secrets of the authentication section: a
     * gateway with its own secret sends a good order and one the validating stage throws for; the
     * bad one is answered rejected with its cause, the good one applied, and the member goes on.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aBadOrderIsRejectedWithItsCauseAndTheEngineGoesOn() {
        final byte[] gatewaySeven = "gateway seven's own secret".getBytes(StandardCharsets.US_ASCII);
        final byte[] gatewayEight = "gateway eight's own secret".getBytes(StandardCharsets.US_ASCII);
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:" + (BASE_PORT + 20)), tmp.resolve("guarded"));
        final List<Long> acks = new CopyOnWriteArrayList<>();
        final List<String> rejected = new CopyOnWriteArrayList<>();
        final List<Long> unknown = new CopyOnWriteArrayList<>();

        PipelineClusteredService<Order> guarded = PipelineClusteredService.builder(Order::new)
                .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
                .commandLimit(1024)                                  // longer commands are refused
                .pipeline((pipeline, outbox, states) -> {
                    OrderBook book = new OrderBook();
                    states.register("book", book);
                    pipeline.handleEventsWith(StageSpec.of("validate", (command, sequence, endOfBatch) -> {
                                if (command.payload().quantity <= 0) {   // throw before any state changes
                                    throw new IllegalArgumentException("quantity must be positive");
                                }
                            }))
                            .then(StageSpec.of("match", (command, sequence, endOfBatch) -> {
                                if (!command.isRejected()) {          // rejected by a stage before this one
                                    book.onEvent(command, sequence, endOfBatch);
                                }
                            }))
                            .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                                    outbox.reply(command, OrderBook::writeAck, command.payload())));
                })
                .build();

        ReplyListener listener = (correlationId, status, buffer, offset, length) -> {
            switch (status) {
                case CommandWireFormat.STATUS_APPLIED -> acks.add(buffer.getLong(offset));
                case CommandWireFormat.STATUS_REJECTED -> rejected.add(buffer.getStringWithoutLengthUtf8(offset, length));
                case CommandWireFormat.STATUS_OUTCOME_UNKNOWN -> unknown.add(correlationId);   // ask before re-sending
                default -> { }                                       // DUPLICATE: applied before; REFUSED: the reason
            }
        };

        try (MediaDriver clientDriver = clientDriver("guarded-client")) {
            final String clientDriverDir = clientDriver.aeronDirectoryName();
            final PipelineClusteredService<Order> service = guarded;   // the authentication sample's name
            ClientSecrets secrets = ClientSecrets.builder()
                    .client(7, gatewaySeven)                              // each gateway its own secret
                    .client(8, gatewayEight)
                    .build();
            ClusterMember member = ClusterMember.start(config, service, new ClientIdAuthenticator(secrets));
            ClusterCommandClient client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(clientDriverDir)
                    .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                    .clientId(7)
                    .credentials(ClientSecrets.credentials(7, gatewaySeven))
                    .replyListener(listener));
            try (member; client) {
                final Order order = new Order();
                final UnsafeBuffer encoded = new UnsafeBuffer(new byte[64]);
                for (final long quantity : new long[] {0, 100}) {
                    order.set(50 + quantity, 10_000, quantity);
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
        assertEquals(List.of("java.lang.IllegalArgumentException: quantity must be positive"), rejected);
        assertEquals(List.of(150L), acks, "the good order applied after the bad one");
        assertEquals(List.of(), unknown);
        assertEquals(1, books.get(0).applied, "the book applied the good order only");
    }

    /** A media driver of the client's own, in {@code tmp/name}, backing off when idle. */
    private MediaDriver clientDriver(final String name) {
        return MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(tmp.resolve(name).toAbsolutePath().toString())
                .threadingMode(ThreadingMode.SHARED)
                .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                .termBufferSparseFile(true)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true));
    }
}

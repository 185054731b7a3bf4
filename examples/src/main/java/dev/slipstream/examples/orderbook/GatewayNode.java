package dev.slipstream.examples.orderbook;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.InboundListener;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The order gateway of the exchange, in its own process: client threads submit orders into a
 * multi-producer ring whose last stage sends them over Aeron to the {@link MatchingEngineNode};
 * the execution reports come back over Aeron into a second ring.
 *
 * <pre>
 *  clients (N threads) ─► ring ─► reference ─► outbound ─► Aeron (orders)
 *  Aeron (reports) ─► inbound ─► ring ─► check
 * </pre>
 *
 * The reference stage replays every order, in the order the gateway sends it, through the
 * {@link ReferenceMatcher}, and the check stage compares each report with it: every order is
 * acknowledged exactly once, in order, with the same fills, traded quantity and rejection as the
 * reference, and neither stream has a gap. It prints orders/s, the round-trip latency from
 * submission to execution report (on this node's clock), and exits with 1 if a check fails.
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp examples/target/examples.jar \
 *      dev.slipstream.examples.orderbook.GatewayNode [--orders 200000] [--clients 3] [--rate 0] [--seed 42] \
 *      [--orders-channel aeron:udp?endpoint=127.0.0.1:40123] [--reports-channel aeron:udp?endpoint=127.0.0.1:40124] \
 *      [--ring 16384] [--aeron-dir /dev/shm/aeron] [--timeout-seconds 120]
 * </pre>
 * {@code --orders} must match the engine's. {@code --rate} is the total orders per second the
 * clients aim at (0: as fast as they can, so latency is mostly queueing behind back-pressure);
 * with a rate, latency is measured from when each order was due.
 */
public final class GatewayNode {

    private GatewayNode() {
    }

    /**
     * Runs the gateway node.
     *
     * @param args the options above
     * @throws Exception if it cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        System.exit(run(args, System.out) ? 0 : 1);
    }

    static boolean run(final String[] args, final PrintStream out) throws Exception {
        final Map<String, String> o = AeronNode.options(args, "--orders", "--clients", "--rate", "--seed",
                "--orders-channel", "--reports-channel", "--ring", "--aeron-dir", "--timeout-seconds");
        final int orders = Integer.parseInt(o.getOrDefault("--orders", "200000"));
        final int clients = Integer.parseInt(o.getOrDefault("--clients", "3"));
        final long rate = Long.parseLong(o.getOrDefault("--rate", "0"));
        final long seed = Long.parseLong(o.getOrDefault("--seed", "42"));
        final int ringSize = Integer.parseInt(o.getOrDefault("--ring", "16384"));
        final long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(o.getOrDefault("--timeout-seconds", "120")));
        final String ordersChannel = o.getOrDefault("--orders-channel", AeronNode.DEFAULT_ORDERS_CHANNEL);
        final String reportsChannel = o.getOrDefault("--reports-channel", AeronNode.DEFAULT_REPORTS_CHANNEL);
        final List<String> problems = new CopyOnWriteArrayList<>();

        try (AeronNode node = AeronNode.start(o.get("--aeron-dir"))) {
            final Expected expected = new Expected(orders);
            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            final ReportCheck check = new ReportCheck(expected, latency, problems);
            final InboundListener gaps = new InboundListener() {
                @Override
                public void onGap(final int sessionId, final long expectedSequence, final long received) {
                    problems.add("gap in the report stream (session " + sessionId + "): expected sequence "
                            + expectedSequence + ", received " + received);
                }
            };

            final Slipstream<OrderWire.Report> reports = Slipstream.builder(OrderWire.Report::new).name("reports")
                    .ringSize(ringSize).producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
            reports.handleEventsWith(StageSpec.of("check", check));
            reports.start();
            final AeronInbound<OrderWire.Report> fromEngine = AeronInbound.builder(node.aeron, reportsChannel,
                    AeronNode.REPORT_STREAM, reports.ringBuffer(), OrderWire.REPORT_DECODER).listener(gaps).build();
            final Thread receiver = new Thread(fromEngine, "from-engine");
            receiver.start();

            final AeronOutbound<OrderEvent> toEngine = AeronOutbound.builder(
                    node.aeron.addExclusivePublication(ordersChannel, AeronNode.ORDER_STREAM),
                    OrderWire.ORDER_ENCODER).build();
            final Slipstream<OrderEvent> gateway = Slipstream.builder(OrderEvent::new).name("gateway")
                    .ringSize(ringSize).producers(ProducerType.MULTI).waitStrategy(new HybridWaitStrategy()).build();
            gateway.handleEventsWith(StageSpec.of("reference", new ReferenceStage(expected))
                            .exceptionHandler(ExceptionHandlers.halt("reference")))
                    .then(toEngine.stageSpec("to-engine"));
            gateway.start();

            out.printf("gateway node: %d clients -> ring of %,d -> reference -> %s; reports from %s%n",
                    clients, ringSize, ordersChannel, reportsChannel);
            out.printf("%,d orders, rate %s, seed %d%n", orders,
                    rate == 0 ? "unpaced" : String.format("%,d/s", rate), seed);

            // the clients start once the engine is listening, so the clock measures trading, not
            // waiting for the other process to start (the outbound stage would wait anyway)
            final long connectDeadline = System.nanoTime() + timeoutNanos;
            while (!toEngine.publication().isConnected() && System.nanoTime() < connectDeadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            out.println(toEngine.publication().isConnected() ? "connected to the engine"
                    : "the engine is not listening yet: the clients start anyway and wait for it");

            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> threads = new ArrayList<>();
            final long startNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
            for (int c = 0; c < clients; c++) {
                final int share = orders / clients + (c < orders % clients ? 1 : 0);
                final PacedClient client = new PacedClient(c, seed, share, rate == 0 ? 0 : clients * 1_000_000_000L / rate,
                        startNanos, gateway, go);
                final Thread thread = new Thread(client, "client-" + c);
                threads.add(thread);
                thread.start();
            }
            go.countDown();
            for (final Thread thread : threads) {
                thread.join();
            }
            final long deadline = System.nanoTime() + timeoutNanos;
            while (check.count() < orders && gateway.failures().isEmpty() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            final long elapsed = System.nanoTime() - startNanos;
            // closing the subscription tells the engine node that every report has arrived
            fromEngine.close();
            receiver.join();
            final ShutdownResult sent = gateway.shutdown(Duration.ofSeconds(10));
            final ShutdownResult received = reports.shutdown(Duration.ofSeconds(10));
            toEngine.publication().close();
            if (!sent.isClean()) {
                problems.add("gateway shutdown was not clean: " + sent);
            }
            if (!received.isClean()) {
                problems.add("reports shutdown was not clean: " + received);
            }
            if (check.count() != orders) {
                problems.add("received " + check.count() + " execution reports, expected " + orders);
            }

            out.printf("bridge: %s; %s%n", toEngine.metrics(), fromEngine.metrics());
            out.printf("%,d orders in %.2f s: %,.0f orders/s%n", orders, elapsed / 1e9, orders * 1e9 / elapsed);
            out.printf("%,d fills, %,d lots traded, %,d rejected%n", check.fills, check.traded, check.rejected);
            out.printf("round trip submit -> gateway -> engine -> execution report back (us): p50 %.1f  p90 %.1f"
                            + "  p99 %.1f  p99.9 %.1f  max %.1f%n",
                    latency.getValueAtPercentile(50) / 1e3, latency.getValueAtPercentile(90) / 1e3,
                    latency.getValueAtPercentile(99) / 1e3, latency.getValueAtPercentile(99.9) / 1e3,
                    latency.getMaxValue() / 1e3);
            if (problems.isEmpty()) {
                out.println("verified: every order acknowledged once, in order, no gap in either stream;"
                        + " fills, traded quantity and rejects = reference matcher");
                return true;
            }
            for (final String problem : problems.subList(0, Math.min(problems.size(), 20))) {
                out.println("VERIFY FAILED: " + problem);
            }
            return false;
        }
    }

    /**
     * What each order should get back, by its place in the stream the gateway sends. Written by
     * the reference stage, read by the check stage once the order's report is back: the report
     * cannot come back before the order was sent, and the order is sent after the reference
     * stage finished it, but the network between is no happens-before edge, so the check stage
     * first reads {@link #done} (volatile), which the reference stage writes after the arrays.
     */
    static final class Expected {
        final long[] orderId;
        final long[] filled;
        final int[] fills;
        final boolean[] rejected;
        final long[] submitNanos;
        volatile long done = -1;

        Expected(final int orders) {
            orderId = new long[orders];
            filled = new long[orders];
            fills = new int[orders];
            rejected = new boolean[orders];
            submitNanos = new long[orders];
        }
    }

    /** Replays the sent stream through the reference matcher, recording what each order should get. */
    private static final class ReferenceStage implements EventHandler<OrderEvent>, ExecutionListener {
        private final ReferenceMatcher reference =
                new ReferenceMatcher(OrderMatchingEngine.MAX_PRICE, OrderMatchingEngine.Config.DEFAULT.bookCapacity());
        private final Expected expected;
        private int index;

        ReferenceStage(final Expected expected) {
            this.expected = expected;
        }

        @Override
        public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) {
            index = (int) sequence;
            expected.orderId[index] = order.orderId;
            expected.submitNanos[index] = order.submitNanos;
            switch (order.type) {
                case OrderEvent.LIMIT -> reference.limit(order.orderId, order.side, order.price, order.quantity, this);
                case OrderEvent.MARKET -> reference.market(order.orderId, order.side, order.quantity, this);
                default -> reference.cancel(order.orderId, this);
            }
            // volatile store: publishes the arrays' entries for this order to the check stage
            expected.done = sequence;
        }

        @Override
        public void onTrade(final long takerId, final long makerId, final Side takerSide, final long price,
                            final long quantity) {
            expected.filled[index] += quantity;
            expected.fills[index]++;
        }

        @Override
        public void onCancelled(final long orderId, final long quantity) {
        }

        @Override
        public void onRejected(final long orderId, final int reason) {
            expected.rejected[index] = true;
        }
    }

    /** Checks each report against the reference, in order, and records the round trip. */
    private static final class ReportCheck implements EventHandler<OrderWire.Report> {
        private final Expected expected;
        private final Histogram latency;
        private final List<String> problems;
        private volatile long count;
        long fills;
        long traded;
        long rejected;

        ReportCheck(final Expected expected, final Histogram latency, final List<String> problems) {
            this.expected = expected;
            this.latency = latency;
            this.problems = problems;
        }

        @Override
        public void onEvent(final OrderWire.Report report, final long sequence, final boolean endOfBatch) {
            final long now = System.nanoTime();
            final int i = (int) sequence;
            if (i < expected.orderId.length) {
                // volatile load: see the reference stage's writes for order i (see Expected)
                while (expected.done < i) {
                    Thread.onSpinWait();
                }
            }
            if (i >= expected.orderId.length) {
                problem("report " + i + " is beyond the " + expected.orderId.length + " orders sent");
            } else if (report.orderId != expected.orderId[i] || report.filledQuantity != expected.filled[i]
                    || report.fills != expected.fills[i] || report.rejected != expected.rejected[i]) {
                problem(String.format("report %d: order %d filled %d in %d fills%s; reference: order %d filled %d"
                                + " in %d fills%s", i, report.orderId, report.filledQuantity, report.fills,
                        report.rejected ? " rejected" : "", expected.orderId[i], expected.filled[i], expected.fills[i],
                        expected.rejected[i] ? " rejected" : ""));
            } else {
                latency.recordValue(Math.min(latency.getHighestTrackableValue(),
                        Math.max(0, now - expected.submitNanos[i])));
            }
            fills += report.fills;
            traded += report.filledQuantity;
            rejected += report.rejected ? 1 : 0;
            // volatile store: the main thread polls it
            count = count + 1;
        }

        private void problem(final String what) {
            if (problems.size() < 20) {
                problems.add(what);
            }
        }

        long count() {
            return count;
        }
    }
}

package dev.slipstream.examples.orderbook;

import dev.slipstream.aeron.AeronInbound;
import dev.slipstream.aeron.AeronOutbound;
import dev.slipstream.aeron.InboundListener;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import io.aeron.ExclusivePublication;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * The matching engine of the exchange, in its own process: orders arrive over Aeron from the
 * {@link GatewayNode}, go through the same pipeline as in {@link OrderMatchingEngine}, and every
 * execution report goes back over Aeron.
 *
 * <pre>
 *  Aeron (orders) ─► inbound ─► ring ─┬─► journal ───┬─► match ─┬─► market data
 *                                     └─► replicate ─┘          └─► outbound ─► Aeron (reports)
 * </pre>
 *
 * At the end it runs the single-process demo's verification (journal contiguous, replica
 * checksum equal to the journal's, executions and final book equal to the reference matcher's),
 * adds that the order stream had no gap, prints the same report, and exits with 1 if a check
 * fails. Start it, then the gateway (either order works: the first to start waits for the other):
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp examples/target/examples.jar \
 *      dev.slipstream.examples.orderbook.MatchingEngineNode [--orders 200000] \
 *      [--orders-channel aeron:udp?endpoint=127.0.0.1:40123] [--reports-channel aeron:udp?endpoint=127.0.0.1:40124] \
 *      [--ring 16384] [--print-every 50000] [--aeron-dir /dev/shm/aeron] [--timeout-seconds 120]
 * </pre>
 * Without {@code --aeron-dir} it runs a media driver of its own; with it, it uses the dedicated
 * driver at that directory. Latency here runs from an order's arrival to its execution report
 * (the gateway measures the round trip).
 */
public final class MatchingEngineNode {
    private MatchingEngineNode() {
    }

    /**
     * Runs the engine node.
     *
     * @param args the options above
     * @throws Exception if it cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        System.exit(run(args, System.out) ? 0 : 1);
    }

    static boolean run(final String[] args, final PrintStream out) throws Exception {
        final Map<String, String> o = AeronNode.options(args, "--orders", "--orders-channel", "--reports-channel",
                "--ring", "--print-every", "--aeron-dir", "--timeout-seconds");
        final long orders = Long.parseLong(o.getOrDefault("--orders", "200000"));
        final int ringSize = Integer.parseInt(o.getOrDefault("--ring", "16384"));
        final long printEvery = Long.parseLong(o.getOrDefault("--print-every", "50000"));
        final long timeoutNanos = TimeUnit.SECONDS.toNanos(Long.parseLong(o.getOrDefault("--timeout-seconds", "120")));
        final String ordersChannel = o.getOrDefault("--orders-channel", AeronNode.DEFAULT_ORDERS_CHANNEL);
        final String reportsChannel = o.getOrDefault("--reports-channel", AeronNode.DEFAULT_REPORTS_CHANNEL);
        final OrderMatchingEngine.Config config = new OrderMatchingEngine.Config(orders, 1, 0, ringSize, printEvery,
                0, OrderMatchingEngine.Config.DEFAULT.bookCapacity());

        final Path dir = Files.createTempDirectory("slipstream-engine-node");
        final Path journalDir = dir.resolve("journal");
        final List<String> problems = new CopyOnWriteArrayList<>();
        try (AeronNode node = AeronNode.start(o.get("--aeron-dir"))) {
            final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
            final OrderJournal journal = new OrderJournal(journalDir);
            final Replica replica = new Replica();
            final MatchingStage matcher = new MatchingStage(
                    new OrderBook(OrderMatchingEngine.MAX_PRICE, config.bookCapacity()), latency);
            final MarketDataPublisher marketData = new MarketDataPublisher(out, printEvery);
            final ExclusivePublication reportsPublication =
                    node.aeron.addExclusivePublication(reportsChannel, AeronNode.REPORT_STREAM);
            final AeronOutbound<OrderEvent> toGateway =
                    AeronOutbound.builder(reportsPublication, OrderWire.REPORT_ENCODER).build();

            // One producer: the receiver thread.
            final Slipstream<OrderEvent> engine = Slipstream.builder(OrderEvent::new).name("engine")
                    .ringSize(ringSize).producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
            engine.handleEventsWith(
                            journal.spec(),
                            StageSpec.of("replicate", replica))
                    .then(StageSpec.of("match", matcher).exceptionHandler(ExceptionHandlers.halt("match")))
                    .then(StageSpec.of("market-data", marketData), toGateway.stageSpec("to-gateway"));
            engine.start();

            final AeronInbound<OrderEvent> fromGateway = AeronInbound.builder(node.aeron, ordersChannel,
                    AeronNode.ORDER_STREAM, engine.ringBuffer(), OrderWire.ORDER_DECODER)
                    .listener(new InboundListener() {
                        @Override
                        public void onGap(final int sessionId, final long expected, final long received) {
                            problems.add("gap in the order stream (session " + sessionId + "): expected sequence "
                                    + expected + ", received " + received);
                        }
                    })
                    .build();
            final Thread receiver = new Thread(fromGateway, "from-gateway");
            receiver.start();
            out.printf("matching engine node: %s -> ring of %,d -> [journal | replicate] -> match -> "
                    + "[market data | %s]%n", ordersChannel, ringSize, reportsChannel);
            out.printf("waiting for %,d orders%n", orders);

            // the clock starts with the first order and stops when the last report is sent
            final long deadline = System.nanoTime() + timeoutNanos;
            long startNanos = 0;
            while (toGateway.metrics().messagesSent() < orders && engine.failures().isEmpty()
                    && System.nanoTime() < deadline) {
                if (startNanos == 0 && fromGateway.metrics().messagesReceived() > 0) {
                    startNanos = System.nanoTime();
                }
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            final long elapsed = System.nanoTime() - (startNanos == 0 ? System.nanoTime() : startNanos);
            if (toGateway.metrics().messagesSent() < orders) {
                problems.add("sent " + toGateway.metrics().messagesSent() + " execution reports of " + orders
                        + (engine.failures().isEmpty() ? " before the timeout" : ": " + engine.failures()));
            }
            // the gateway closes its subscription once it has every report: until then this
            // node keeps its publication (and driver) up, so nothing in flight is cut off
            while (reportsPublication.isConnected() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            fromGateway.close();
            receiver.join();
            final ShutdownResult shutdown = engine.shutdown(java.time.Duration.ofSeconds(30));
            if (!shutdown.isClean()) {
                problems.add("shutdown was not clean: " + shutdown);
            }
            if (fromGateway.metrics().messagesReceived() != orders) {
                problems.add("received " + fromGateway.metrics().messagesReceived() + " orders, expected " + orders);
            }
            journal.close();
            OrderMatchingEngine.verify(config, journalDir, replica, matcher, problems);
            final OrderMatchingEngine.Result result = new OrderMatchingEngine.Result(orders, Math.max(1, elapsed),
                    latency, matcher.digest(), matcher.book().restingOrders(), marketData.published(),
                    List.copyOf(problems));
            out.printf("bridge: %s; %s%n", fromGateway.metrics(), toGateway.metrics());
            out.println("(on this node, latency runs from an order's arrival from the gateway to its execution report)");
            OrderMatchingEngine.report(result, out);
            reportsPublication.close();
            return result.verified();
        } finally {
            OrderJournal.delete(journalDir);
            Files.deleteIfExists(dir);
        }
    }
}

package dev.slipstream.examples.orderbook;

import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * An exchange in one process: several client threads submit orders through a multi-producer
 * gateway into a Slipstream pipeline,
 *
 * <pre>
 *  clients (N threads) ─► ring ─┬─► journal ───┬─► match ─► market data
 *                               └─► replicate ─┘
 * </pre>
 *
 * where the journal makes every order durable ({@link OrderJournal}: one disk force per batch,
 * before the matching stage sees the batch), the replica checksums the stream, the
 * matching stage (after both) runs the {@link OrderBook}, and the market-data stage prints the
 * top of book every N orders. At the end the run is verified: the journal is read back, its
 * sequences must be contiguous, its checksum must equal the replica's, and replaying it through
 * the {@link ReferenceMatcher} must give the same executions and the same final book. It prints
 * orders/s and the latency from submission to execution report; it exits with 1 if a check fails.
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.orderbook.OrderMatchingEngine \
 *      [--orders 1000000] [--clients 3] [--rate 0] [--ring 16384] [--print-every 250000] [--seed 42]
 * </pre>
 * {@code --rate} is the total orders per second the clients aim at (0: as fast as they can).
 * With a rate, latency is measured from when each order was due, so a stall that delays later
 * sends is counted against them too (no coordinated omission). Without {@code --rate} it runs
 * twice: unpaced for throughput, then paced at half the measured rate (at most
 * {@value #DEFAULT_PACED_RATE}/s, half the orders) for latency.
 */
public final class OrderMatchingEngine {
    /** The most a paced run asks for when no {@code --rate} is given (orders per second). */
    static final long DEFAULT_PACED_RATE = 200_000;
    /** Highest price in ticks the book accepts. */
    static final int MAX_PRICE = 2 * OrderFlow.MID_PRICE;


    /**
     * The run's settings.
     *
     * @param orders how many orders in total
     * @param clients how many client threads share them
     * @param ratePerSecond total target rate, 0 for as fast as possible
     * @param ringSize slots in the ring, a power of two
     * @param printEvery market data is printed every this many orders
     * @param seed the order streams' seed
     * @param bookCapacity the most resting orders
     */
    public record Config(long orders, int clients, long ratePerSecond, int ringSize, long printEvery, long seed,
                         int bookCapacity) {
        /** The defaults: a run of a few seconds. */
        public static final Config DEFAULT = new Config(1_000_000, 3, 0, 1 << 14, 250_000, 42, 1 << 16);

        /** Checks the settings. */
        public Config {
            if (orders < 1) {
                throw new IllegalArgumentException("orders must be at least 1, got " + orders);
            }
            if (clients < 1) {
                throw new IllegalArgumentException("clients must be at least 1, got " + clients);
            }
            if (ratePerSecond < 0) {
                throw new IllegalArgumentException("rate must be 0 (unpaced) or positive, got " + ratePerSecond);
            }
        }
    }

    /**
     * What a run measured and whether it checked out.
     *
     * @param orders orders processed
     * @param elapsedNanos from the first submission until every stage had drained
     * @param latency submission to execution report, in nanoseconds
     * @param executions the engine's execution reports
     * @param restingOrders orders left in the book
     * @param marketDataLines lines the market-data stage printed
     * @param problems every failed check; empty when the run verified
     */
    public record Result(long orders, long elapsedNanos, Histogram latency, ExecutionDigest executions,
                         int restingOrders, long marketDataLines, List<String> problems) {
        /**
         * Whether every check passed.
         *
         * @return true if verified
         */
        public boolean verified() {
            return problems.isEmpty();
        }

        /**
         * Throughput over the whole run.
         *
         * @return orders per second
         */
        public double ordersPerSecond() {
            return orders * 1e9 / elapsedNanos;
        }
    }

    private OrderMatchingEngine() {
    }

    /**
     * Runs the engine from the command line.
     *
     * @param args {@code --orders N --clients N --rate N --ring N --print-every N --seed N}
     * @throws Exception if the run cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        final Config config = parse(args);
        if (config.ratePerSecond() > 0 || List.of(args).contains("--rate")) {
            System.exit(run(config, System.out).verified() ? 0 : 1);
        }
        // No rate given: first as fast as the clients can (throughput; latency then is mostly
        // time spent queued behind a full ring), then paced at half that rate, at most
        // DEFAULT_PACED_RATE (latency of an engine that keeps up).
        System.out.println("== throughput: clients unpaced");
        final Result unpaced = run(config, System.out);
        final long rate = Math.max(1_000, Math.min(DEFAULT_PACED_RATE, (long) (unpaced.ordersPerSecond() / 2)));
        System.out.printf("%n== latency: clients paced at %,d orders/s in total%n", rate);
        final Result paced = run(new Config(config.orders() / 2, config.clients(), rate, config.ringSize(),
                config.printEvery(), config.seed() + 1, config.bookCapacity()), System.out);
        System.exit(unpaced.verified() && paced.verified() ? 0 : 1);
    }

    static Config parse(final String[] args) {
        Config c = Config.DEFAULT;
        long orders = c.orders();
        int clients = c.clients();
        long rate = c.ratePerSecond();
        int ring = c.ringSize();
        long printEvery = c.printEvery();
        long seed = c.seed();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            final String value = args[i + 1].replace("_", "");
            switch (args[i]) {
                case "--orders" -> orders = Long.parseLong(value);
                case "--clients" -> clients = Integer.parseInt(value);
                case "--rate" -> rate = Long.parseLong(value);
                case "--ring" -> ring = Integer.parseInt(value);
                case "--print-every" -> printEvery = Long.parseLong(value);
                case "--seed" -> seed = Long.parseLong(value);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; expected --orders, --clients, --rate, --ring, --print-every or --seed");
            }
        }
        return new Config(orders, clients, rate, ring, printEvery, seed, c.bookCapacity());
    }

    /**
     * Runs the engine once and verifies it.
     *
     * @param config the settings
     * @param out where the report and market data go
     * @return what was measured and found
     * @throws IOException if the journal cannot be written or read
     * @throws InterruptedException if interrupted while waiting for the clients
     */
    public static Result run(final Config config, final PrintStream out) throws IOException, InterruptedException {
        Objects.requireNonNull(out, "out must not be null");
        final Path dir = Files.createTempDirectory("slipstream-orderbook");
        final Path journalDir = dir.resolve("journal");
        try {
            return run(config, out, journalDir);
        } finally {
            OrderJournal.delete(journalDir);
            Files.deleteIfExists(dir);
        }
    }

    /**
     * Runs the engine once, journalling into {@code journalDir} (which must not hold a journal
     * yet), and verifies it.
     *
     * @param config the settings
     * @param out where the report and market data go
     * @param journalDir the journal's directory, created if needed
     * @return what was measured and found
     * @throws IOException if the journal cannot be created
     * @throws InterruptedException if interrupted while waiting for the clients
     */
    public static Result run(final Config config, final PrintStream out, final Path journalDir)
            throws IOException, InterruptedException {
        final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        final OrderJournal journal = new OrderJournal(journalDir);
        if (journal.nextSequence() != 0) {
            journal.close();
            throw new IllegalArgumentException("journal " + journalDir + " holds " + journal.nextSequence()
                    + " orders already; a run starts from an empty journal (see RecoveryRun for a restart)");
        }
        final Replica replica = new Replica();
        final MatchingStage matcher = new MatchingStage(new OrderBook(MAX_PRICE, config.bookCapacity()), latency);
        final MarketDataPublisher marketData = new MarketDataPublisher(out, config.printEvery());

        // Several client threads publish: a multi-producer ring. More threads than cores here,
        // so stages spin briefly, yield, then park instead of each holding a core.
        final Slipstream<OrderEvent> exchange = Slipstream.builder(OrderEvent::new)
                .name("exchange")
                .ringSize(config.ringSize())
                .producers(ProducerType.MULTI)
                .waitStrategy(new HybridWaitStrategy())
                .build();
        // An order that cannot be journalled or matched must not be skipped: those stages halt,
        // which stops the whole pipeline (the ring closes and the clients are told).
        exchange.handleEventsWith(journal.spec(), StageSpec.of("replicate", replica))
                .then(StageSpec.of("match", matcher).exceptionHandler(ExceptionHandlers.halt("match")))
                .then(StageSpec.of("market-data", marketData));

        out.printf("order-matching engine: %d clients -> ring of %,d -> [journal | replicate] -> match -> market data%n",
                config.clients(), config.ringSize());
        out.printf("%,d orders, rate %s, seed %d, journal %s%n", config.orders(),
                config.ratePerSecond() == 0 ? "unpaced" : String.format("%,d/s", config.ratePerSecond()),
                config.seed(), journalDir);

        exchange.start();
        final CountDownLatch go = new CountDownLatch(1);
        final List<Thread> clients = new ArrayList<>();
        final long startNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
        for (int c = 0; c < config.clients(); c++) {
            final long share = config.orders() / config.clients() + (c < config.orders() % config.clients() ? 1 : 0);
            final PacedClient client = new PacedClient(c, config.seed(), share,
                    config.ratePerSecond() == 0 ? 0 : config.clients() * 1_000_000_000L / config.ratePerSecond(),
                    startNanos, exchange, go);
            final Thread thread = new Thread(client, "client-" + c);
            clients.add(thread);
            thread.start();
        }
        go.countDown();
        for (final Thread thread : clients) {
            thread.join();
        }
        final ShutdownResult shutdown = exchange.shutdown(Duration.ofSeconds(60));
        final long elapsed = System.nanoTime() - startNanos;
        journal.close();

        final List<String> problems = new ArrayList<>();
        if (!shutdown.isClean()) {
            problems.add("shutdown was not clean: " + shutdown);
        }
        verify(config, journalDir, replica, matcher, problems);
        final Result result = new Result(config.orders(), elapsed, latency, matcher.digest(),
                matcher.book().restingOrders(), marketData.published(), List.copyOf(problems));
        report(result, out);
        return result;
    }

    /** Reads the journal back and checks the replica, the executions and the book against it. */
    static void verify(final Config config, final Path journalDir, final Replica replica,
                               final MatchingStage matcher, final List<String> problems) {
        final ReferenceMatcher reference = new ReferenceMatcher(MAX_PRICE, config.bookCapacity());
        final ExecutionDigest expected = new ExecutionDigest();
        final StreamChecksum journalChecksum = new StreamChecksum();
        final long records;
        try {
            records = OrderJournal.replay(journalDir, (sequence, type, side, orderId, price, quantity, clientId) -> {
                journalChecksum.add(sequence, type, side, orderId, price, quantity, clientId);
                switch (type) {
                    case OrderEvent.LIMIT -> reference.limit(orderId, side, price, quantity, expected);
                    case OrderEvent.MARKET -> reference.market(orderId, side, quantity, expected);
                    default -> reference.cancel(orderId, expected);
                }
            });
        } catch (Exception corrupt) {
            problems.add("journal " + journalDir + " cannot be read back: " + corrupt);
            return;
        }
        if (records != config.orders()) {
            problems.add("journal holds " + records + " orders, expected " + config.orders());
        }
        if (replica.orders() != records || replica.checksum() != journalChecksum.value()) {
            problems.add(String.format("replica saw %d orders, checksum %016x; journal has %d, checksum %016x",
                    replica.orders(), replica.checksum(), records, journalChecksum.value()));
        }
        if (!expected.toString().equals(matcher.digest().toString())) {
            problems.add("executions differ from the reference matcher: engine " + matcher.digest()
                    + ", reference " + expected);
        }
        final List<RestingOrder> engineBook = matcher.book().snapshot();
        final List<RestingOrder> referenceBook = reference.snapshot();
        if (!engineBook.equals(referenceBook)) {
            problems.add("final book differs from the reference matcher: engine has " + engineBook.size()
                    + " resting orders, reference " + referenceBook.size() + firstDifference(engineBook, referenceBook));
        }
    }

    private static String firstDifference(final List<RestingOrder> a, final List<RestingOrder> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return "; first difference at " + i + ": " + a.get(i) + " vs " + b.get(i);
            }
        }
        return "";
    }

    static void report(final Result r, final PrintStream out) {
        final Histogram h = r.latency();
        final ExecutionDigest x = r.executions();
        out.printf("%,d orders in %.2f s: %,.0f orders/s%n", r.orders(), r.elapsedNanos() / 1e9, r.ordersPerSecond());
        out.printf("%,d trades (%,d lots), %,d cancels, %,d rejects, %,d orders resting%n",
                x.trades(), x.tradedQuantity(), x.cancels(), x.rejects(), r.restingOrders());
        out.printf("latency submit -> execution report (us): p50 %.1f  p90 %.1f  p99 %.1f  p99.9 %.1f  max %.1f%n",
                h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(90) / 1e3, h.getValueAtPercentile(99) / 1e3,
                h.getValueAtPercentile(99.9) / 1e3, h.getMaxValue() / 1e3);
        if (r.verified()) {
            out.println("verified: journal contiguous, replica checksum = journal, executions and book = reference matcher");
        } else {
            for (final String problem : r.problems()) {
                out.println("VERIFY FAILED: " + problem);
            }
        }
    }
}

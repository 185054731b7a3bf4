package dev.slipstream.examples.orderbook;

import dev.slipstream.journal.JournalReader;
import dev.slipstream.journal.RecoveryReport;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.HybridWaitStrategy;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * The order-matching engine killed mid-stream and restarted from its journal:
 *
 * <ol>
 *   <li>the engine ({@link OrderMatchingEngine}, three clients, unpaced) runs in a process of its
 *       own and is killed with SIGKILL while orders stream in (the given time after its journal
 *       holds 1,000 orders): no shutdown, no flush;</li>
 *   <li>a new engine opens the journal (recovery cuts a torn last record, if the kill left one),
 *       places the journal stage before matching, replays every journalled order into its ring
 *       (the journal stage passes them, as they are durable already) and then takes live orders
 *       from a new client, which the journal appends;</li>
 *   <li>the whole journal is fed through the {@link ReferenceMatcher}: the engine's executions
 *       and final book must equal the reference's.</li>
 * </ol>
 *
 * <pre>
 * java -cp examples/target/examples.jar dev.slipstream.examples.orderbook.RecoveryRun [--kill-after-ms 1000] [--live 200000]
 * </pre>
 */
public final class RecoveryRun {
    /** The client id of the orders sent after the restart (the killed engine's clients are 0 to 2). */
    static final int LIVE_CLIENT = 3;
    private static final int CLIENTS_BEFORE = 3;

    /**
     * What the recovery run found.
     *
     * @param journalledBeforeKill orders the killed engine had journalled (what recovery found)
     * @param liveOrders orders sent after the restart
     * @param recovery what opening the journal found at its tail
     * @param problems every failed check; empty when the run verified
     */
    public record Outcome(long journalledBeforeKill, long liveOrders, RecoveryReport recovery, List<String> problems) {
        /**
         * Whether every check passed.
         *
         * @return true if verified
         */
        public boolean verified() {
            return problems.isEmpty();
        }
    }

    private RecoveryRun() {
    }

    /**
     * Runs the demonstration (or, with {@code --engine DIR ORDERS}, the engine process it kills).
     *
     * @param args {@code [--kill-after-ms N] [--live N]}
     * @throws Exception if the run cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        if (args.length == 3 && "--engine".equals(args[0])) {
            final OrderMatchingEngine.Config config = new OrderMatchingEngine.Config(Long.parseLong(args[2]),
                    CLIENTS_BEFORE, 0, 1 << 14, 1_000_000, 42, OrderMatchingEngine.Config.DEFAULT.bookCapacity());
            OrderMatchingEngine.run(config, System.out, Path.of(args[1]));
            return;
        }
        long killAfterMillis = 1000;
        long live = 200_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--kill-after-ms" -> killAfterMillis = Long.parseLong(args[i + 1]);
                case "--live" -> live = Long.parseLong(args[i + 1].replace("_", ""));
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; expected --kill-after-ms or --live");
            }
        }
        final Path work = Files.createTempDirectory("slipstream-recovery");
        try {
            System.exit(run(work, killAfterMillis, live, System.out).verified() ? 0 : 1);
        } finally {
            OrderJournal.delete(work.resolve("journal"));
            Files.deleteIfExists(work);
        }
    }

    /**
     * Kills an engine mid-stream, restarts it from the journal, and checks it.
     *
     * @param work a directory for the journal
     * @param killAfterMillis how long the first engine streams before the kill
     * @param liveOrders orders sent after the restart
     * @param out where the report goes
     * @return what was found
     * @throws Exception if a process or the journal cannot be handled
     */
    public static Outcome run(final Path work, final long killAfterMillis, final long liveOrders, final PrintStream out)
            throws Exception {
        final Path journalDir = work.resolve("journal");
        killEngineMidStream(journalDir, killAfterMillis, out);

        final List<String> problems = new ArrayList<>();
        final MatchingStage matcher = new MatchingStage(
                new OrderBook(OrderMatchingEngine.MAX_PRICE, OrderMatchingEngine.Config.DEFAULT.bookCapacity()),
                new Histogram(TimeUnit.SECONDS.toNanos(60), 3));
        final long journalled;
        final RecoveryReport recovery;
        final long startNanos = System.nanoTime();
        // ring sequence 0 is journal sequence 0: the whole journal is replayed into the ring
        try (OrderJournal journal = new OrderJournal(journalDir, 0)) {
            recovery = journal.recovery();
            journalled = journal.nextSequence();
            out.printf("restart: journal holds %,d orders; recovery: %s%n", journalled, recovery);
            final Slipstream<OrderEvent> engine = Slipstream.builder(OrderEvent::new).name("restarted")
                    .ringSize(1 << 14).producers(ProducerType.SINGLE).waitStrategy(new HybridWaitStrategy()).build();
            engine.handleEventsWith(journal.spec())
                    .then(StageSpec.of("match", matcher).exceptionHandler(ExceptionHandlers.halt("match")));
            engine.start();
            final long replayed = JournalReader.open(journalDir).replayInto(engine, 0, journalled - 1, OrderJournal.CODEC);
            final long replayNanos = System.nanoTime() - startNanos;
            final OrderFlow flow = new OrderFlow(7, LIVE_CLIENT);
            final EventTranslatorOneArg<OrderEvent, OrderFlow> fromFlow = (order, sequence, f) -> order.setOrder(
                    f.type, f.side, f.orderId, f.price, f.quantity, LIVE_CLIENT, System.nanoTime());
            for (long i = 0; i < liveOrders; i++) {
                flow.advance();
                engine.publishEvent(fromFlow, flow);
            }
            final ShutdownResult shutdown = engine.shutdown(Duration.ofSeconds(60));
            if (!shutdown.isClean()) {
                problems.add("shutdown was not clean: " + shutdown);
            }
            if (replayed != journalled) {
                problems.add("replayed " + replayed + " orders, the journal holds " + journalled);
            }
            out.printf("replayed %,d orders into the ring in %.2f s, then %,d live orders; journal now %,d orders,"
                    + " durable up to ring sequence %,d%n", replayed, replayNanos / 1e9, liveOrders,
                    journal.nextSequence(), journal.durableRingSequence());
            if (journal.nextSequence() != journalled + liveOrders) {
                problems.add("journal holds " + journal.nextSequence() + " orders, expected " + (journalled + liveOrders));
            }
        }

        final ReferenceMatcher reference = new ReferenceMatcher(OrderMatchingEngine.MAX_PRICE,
                OrderMatchingEngine.Config.DEFAULT.bookCapacity());
        final ExecutionDigest expected = new ExecutionDigest();
        OrderJournal.replay(journalDir, (sequence, type, side, orderId, price, quantity, clientId) -> {
            switch (type) {
                case OrderEvent.LIMIT -> reference.limit(orderId, side, price, quantity, expected);
                case OrderEvent.MARKET -> reference.market(orderId, side, quantity, expected);
                default -> reference.cancel(orderId, expected);
            }
        });
        if (!expected.toString().equals(matcher.digest().toString())) {
            problems.add("executions differ from the reference matcher: engine " + matcher.digest()
                    + ", reference " + expected);
        }
        final List<RestingOrder> engineBook = matcher.book().snapshot();
        final List<RestingOrder> referenceBook = reference.snapshot();
        if (!engineBook.equals(referenceBook)) {
            problems.add("book differs from the reference matcher: engine has " + engineBook.size()
                    + " resting orders, reference " + referenceBook.size());
        }
        if (problems.isEmpty()) {
            out.printf("verified: after the kill and the restart, executions (%s) and the book (%,d resting orders)"
                    + " equal the reference matcher's over the whole journal%n", matcher.digest(), engineBook.size());
        } else {
            problems.forEach(p -> out.println("VERIFY FAILED: " + p));
        }
        return new Outcome(journalled, liveOrders, recovery, List.copyOf(problems));
    }

    private static boolean hasRecord(final Path journalDir, final long sequence) {
        try {
            JournalReader.open(journalDir).locate(sequence);
            return true;
        } catch (dev.slipstream.journal.JournalException notYet) {
            return false;
        }
    }

    /** Starts the engine in a process of its own and kills it (SIGKILL) once it has streamed for a while. */
    private static void killEngineMidStream(final Path journalDir, final long killAfterMillis, final PrintStream out)
            throws Exception {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process engine = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                RecoveryRun.class.getName(), "--engine", journalDir.toString(), "1000000000")
                .redirectErrorStream(true).start();
        final BufferedReader lines = new BufferedReader(new InputStreamReader(engine.getInputStream(),
                StandardCharsets.UTF_8));
        String line;
        while ((line = lines.readLine()) != null && !line.startsWith("order-matching engine")) {
            out.println("  engine: " + line);
        }
        if (line == null) {
            throw new IllegalStateException("the engine process ended before it started streaming (exit "
                    + engine.waitFor() + ")");
        }
        // keep reading its output (market data), so that it never blocks on a full pipe
        final Thread drain = new Thread(() -> {
            try {
                while (lines.readLine() != null) {
                    // discarded
                }
            } catch (java.io.IOException killed) {
                // the pipe breaks when the process dies
            }
        }, "engine-output");
        drain.setDaemon(true);
        drain.start();
        // mid-stream: once orders are in the journal (a reader needs no lock), then a while longer
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!hasRecord(journalDir, 1_000) && engine.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        Thread.sleep(killAfterMillis);
        engine.destroyForcibly();
        engine.waitFor();
        out.printf("killed the engine (pid %d) with SIGKILL after %,d ms of streaming%n", engine.pid(), killAfterMillis);
    }
}

package dev.slipstream.examples.orderbook;

import dev.slipstream.journal.JournalException;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class OrderMatchingEngineTest {

    @Test
    void unpacedRunMatchesTheReferenceAndPrintsItsReport() throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final OrderMatchingEngine.Config config = new OrderMatchingEngine.Config(40_000, 3, 0, 1024, 10_000, 7, 1 << 12);

        final OrderMatchingEngine.Result result = OrderMatchingEngine.run(config,
                new PrintStream(bytes, true, StandardCharsets.UTF_8));

        final String out = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(result.verified(), () -> result.problems() + "\n" + out);
        assertEquals(40_000, result.latency().getTotalCount(), "one latency sample per order");
        assertEquals(4, result.marketDataLines(), "top of book every 10,000 of 40,000 orders");
        assertTrue(result.executions().trades() > 1_000, () -> "the stream trades: " + result.executions());
        assertTrue(out.contains("orders/s") && out.contains("p99.9") && out.contains("verified"), out);
    }

    @Test
    void pacedRunWithOneClientVerifies() throws Exception {
        final OrderMatchingEngine.Config config = new OrderMatchingEngine.Config(5_000, 1, 50_000, 256, 1_000, 3, 1 << 12);

        final OrderMatchingEngine.Result result = OrderMatchingEngine.run(config, new PrintStream(
                new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));

        assertTrue(result.verified(), result.problems()::toString);
        assertEquals(5, result.marketDataLines());
    }

    @Test
    void theJournalRefusesAGapInTheSequencesAndKeepsWhatItHas(@TempDir final Path dir) throws Exception {
        final Path journalDir = dir.resolve("gap");
        final OrderEvent order = new OrderEvent();
        order.setOrder(OrderEvent.LIMIT, Side.BUY, 1, 100, 10, 0, 0);
        try (OrderJournal journal = new OrderJournal(journalDir)) {
            journal.onEvent(order, 0, false);
            journal.onEvent(order, 1, true);
            final JournalException gap = assertThrows(JournalException.class, () -> journal.onEvent(order, 3, true));
            assertEquals(3, gap.sequence());
            assertEquals(1, journal.durableRingSequence());
        }
        final List<Long> seen = new ArrayList<>();
        assertEquals(2, OrderJournal.replay(journalDir, (sequence, type, side, id, price, qty, client) -> seen.add(sequence)));
        assertEquals(List.of(0L, 1L), seen);
    }

    @Test
    void killedMidStreamAndRestartedFromTheJournalTheEngineMatchesTheReference(@TempDir final Path dir) throws Exception {
        final ByteArrayOutputStream text = new ByteArrayOutputStream();
        final RecoveryRun.Outcome outcome = RecoveryRun.run(dir, 700, 20_000,
                new PrintStream(text, true, StandardCharsets.UTF_8));
        assertTrue(outcome.verified(), () -> outcome.problems() + "\n" + text);
        assertTrue(outcome.journalledBeforeKill() > 0, text::toString);
        assertTrue(text.toString().contains("killed the engine"), text::toString);
    }

    @Test
    void commandLineOptionsAreParsedAndChecked() {
        final OrderMatchingEngine.Config config = OrderMatchingEngine.parse(
                new String[] {"--orders", "1_000", "--clients", "2", "--rate", "500", "--seed", "9"});
        assertEquals(1_000, config.orders());
        assertEquals(2, config.clients());
        assertEquals(500, config.ratePerSecond());
        assertEquals(9, config.seed());

        final IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> OrderMatchingEngine.parse(new String[] {"--speed", "3"}));
        assertTrue(unknown.getMessage().startsWith("unknown option --speed"), unknown.getMessage());
        final IllegalArgumentException clients = assertThrows(IllegalArgumentException.class,
                () -> OrderMatchingEngine.parse(new String[] {"--clients", "0"}));
        assertEquals("clients must be at least 1, got 0", clients.getMessage());
    }
}

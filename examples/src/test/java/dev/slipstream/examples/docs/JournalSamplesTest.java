package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.journal.Journal;
import dev.slipstream.journal.JournalCodec;
import dev.slipstream.journal.JournalConfig;
import dev.slipstream.journal.JournalReader;
import dev.slipstream.journal.JournalStage;
import dev.slipstream.journal.SyncPolicy;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.Slipstream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The samples of docs/guide/journal.md, as written there. */
class JournalSamplesTest {
    @TempDir
    Path tmp;

    final class TradeCodec implements JournalCodec<Trade> {
        public int encodedLength(Trade trade) {
            return 16;
        }

        public void encode(Trade trade, ByteBuffer out) {
            out.putLong(trade.price).putLong(trade.quantity);
        }

        public void decode(ByteBuffer in, Trade trade) {
            trade.price = in.getLong();
            trade.quantity = in.getLong();
        }
    }

    /** Starts (or restarts) the engine on the journal in {@code dir} and sends it {@code live} trades. */
    private void engine(final Path dir, final EventHandler<Trade> matching, final int live) throws Exception {
        Files.createDirectories(dir);
        try (Journal journal = Journal.open(JournalConfig.of(dir).syncPolicy(SyncPolicy.everyBatch()))) {
            System.out.println("journal: " + journal.recovery());       // a torn last record is cut and reported
            long journalled = journal.nextSequence();
            JournalStage<Trade> journalling = journal.stage(new TradeCodec(), 0);   // ring sequence 0 = journal sequence 0
            Slipstream<Trade> engine = Slipstream.builder(Trade::new).ringSize(1024).build();
            engine.handleEventsWith(journalling.spec("journal")).then(matching);    // matching sees durable trades only
            engine.start();
            journal.newReader().replayInto(engine, 0, journalled - 1, new TradeCodec());   // rebuild before live traffic
            for (int i = 0; i < live; i++) {
                engine.publishEvent((trade, sequence) -> trade.price = 100 + sequence);   // live: journalled, then matched
            }
            engine.shutdown(Duration.ofSeconds(5));
        }
    }

    @Test
    void aRestartedEngineReplaysItsJournalThenTakesLiveTrades() throws Exception {
        final Path dir = tmp.resolve("journal");
        final List<Long> first = new ArrayList<>();
        engine(dir, (trade, sequence, endOfBatch) -> first.add(trade.price), 3);
        final List<Long> second = new ArrayList<>();
        engine(dir, (trade, sequence, endOfBatch) -> second.add(trade.price), 2);
        assertEquals(List.of(100L, 101L, 102L), first);
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L), second, "the journal's three, then two live ones");
    }

    @Test
    void aPretouchedJournalWritesAndReplaysAsAnyOther() throws Exception {
        final Path dir = tmp.resolve("pretouched");
        Files.createDirectories(dir);
        Journal journal = Journal.open(JournalConfig.of(dir)
                .syncPolicy(SyncPolicy.never())
                .pretouch(true));
        try (journal) {
            assertEquals(true, journal.config().pretouch());
            final JournalStage<Trade> stage = journal.stage(new TradeCodec());
            final Trade trade = new Trade();
            for (int i = 0; i < 3; i++) {
                trade.price = 100 + i;
                stage.onEvent(trade, i, i == 2);
            }
        }
        final List<Long> replayed = new ArrayList<>();
        JournalReader.open(dir).replay(0, Long.MAX_VALUE, new TradeCodec(), new Trade(),
                (trade, sequence, last) -> replayed.add(trade.price));
        assertEquals(List.of(100L, 101L, 102L), replayed);
    }
}

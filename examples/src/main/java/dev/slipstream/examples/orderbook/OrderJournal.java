package dev.slipstream.examples.orderbook;

import dev.slipstream.journal.Journal;
import dev.slipstream.journal.JournalCodec;
import dev.slipstream.journal.JournalConfig;
import dev.slipstream.journal.JournalReader;
import dev.slipstream.journal.JournalStage;
import dev.slipstream.journal.RecoveryReport;
import dev.slipstream.journal.SyncPolicy;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.StageSpec;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The engine's journal stage, on {@code slipstream-journal}: every order is encoded in place into
 * a memory-mapped segment with its sequence and a CRC32C, and each batch is forced to the disk
 * (one force per batch) before the stage's sequence advances, so the matching stage placed after
 * it only ever matches orders that a crash cannot take back. After a crash the engine replays the
 * journal into its ring and carries on ({@link RecoveryRun}).
 *
 * <p>Payload ({@value #PAYLOAD} bytes, little-endian): order id (8), price (8), quantity (8),
 * client id (4), type (1), side (1), reserved (2). The sequence is in the record header.
 */
final class OrderJournal implements EventHandler<OrderEvent>, AutoCloseable {
    static final int PAYLOAD = 32;

    /** Orders to journal payloads and back; allocation-free. */
    static final JournalCodec<OrderEvent> CODEC = new JournalCodec<>() {
        private final Side[] sides = Side.values();

        @Override
        public int encodedLength(final OrderEvent order) {
            return PAYLOAD;
        }

        @Override
        public void encode(final OrderEvent order, final ByteBuffer out) {
            out.putLong(order.orderId).putLong(order.price).putLong(order.quantity).putInt(order.clientId)
                    .put(order.type).put((byte) order.side.ordinal()).putShort((short) 0);   // reserved
        }

        @Override
        public void decode(final ByteBuffer in, final OrderEvent order) {
            final long orderId = in.getLong();
            final long price = in.getLong();
            final long quantity = in.getLong();
            final int clientId = in.getInt();
            final byte type = in.get();
            // a replayed order is "submitted" now: its latency is measured from its replay
            order.setOrder(type, sides[in.get()], orderId, price, quantity, clientId, System.nanoTime());
        }
    };

    private final Journal journal;
    private final JournalStage<OrderEvent> stage;

    /** Opens (creating the directory if needed, recovering if it holds a journal) with a force every batch. */
    OrderJournal(final Path directory) throws IOException {
        this(directory, -1);
    }

    /**
     * Opens the journal for a ring that first receives a replay from {@code ringStart}, or, with
     * {@code ringStart} -1, for a ring of new orders only.
     */
    OrderJournal(final Path directory, final long ringStart) throws IOException {
        Files.createDirectories(directory);
        this.journal = Journal.open(JournalConfig.of(directory).syncPolicy(SyncPolicy.everyBatch()));
        this.stage = ringStart < 0 ? journal.stage(CODEC) : journal.stage(CODEC, ringStart);
    }

    /** The stage, halting (and so stopping the pipeline) if an order cannot be journalled. */
    StageSpec<OrderEvent> spec() {
        return StageSpec.<OrderEvent>of("journal", this).exceptionHandler(
                dev.slipstream.processor.ExceptionHandlers.halt("journal"));
    }

    @Override
    public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) {
        stage.onEvent(order, sequence, endOfBatch);
    }

    @Override
    public void onShutdown() {
        stage.onShutdown();
    }

    RecoveryReport recovery() {
        return journal.recovery();
    }

    /** The sequence the next new order gets: how many orders the journal holds. */
    long nextSequence() {
        return journal.nextSequence();
    }

    /** The last order forced to disk, as a sequence of this stage's ring: orders up to it can be acknowledged. */
    long durableRingSequence() {
        return stage.durableRingSequence();
    }

    @Override
    public void close() {
        journal.close();
    }

    /** Receives the records of a journal, in order. */
    interface RecordVisitor {
        void record(long sequence, byte type, Side side, long orderId, long price, long quantity, int clientId);
    }

    /**
     * Reads a journal back, checking every record (sequence, length, CRC32C).
     *
     * @return the number of records
     * @throws dev.slipstream.journal.JournalException if a record is damaged or the directory is not a journal
     */
    static long replay(final Path directory, final RecordVisitor visitor) throws Exception {
        return JournalReader.open(directory).replay(0, Long.MAX_VALUE, CODEC, new OrderEvent(),
                (o, sequence, last) -> visitor.record(sequence, o.type, o.side, o.orderId, o.price, o.quantity,
                        o.clientId));
    }

    /** Deletes a journal directory and its files. */
    static void delete(final Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory)) {
            for (final Path file : files) {
                Files.delete(file);
            }
        }
        Files.delete(directory);
    }
}

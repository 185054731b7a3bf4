package dev.slipstream.examples.orderbook;

import dev.slipstream.processor.EventHandler;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The journal stage: appends a fixed-size binary record of every order, with its ring sequence,
 * to a file. Records collect in a direct buffer and reach the file once per batch (at
 * {@code endOfBatch}) or when the buffer is full: under load one write covers many orders, which
 * is the batching effect doing the work a real journal needs (a production journal would also
 * {@code force} the channel there).
 *
 * <p>Record layout ({@value #RECORD_SIZE} bytes, big-endian): sequence (8), order id (8),
 * price (8), quantity (8), client id (4), type (1), side (1), reserved (2).
 */
final class Journal implements EventHandler<OrderEvent>, AutoCloseable {
    static final int RECORD_SIZE = 40;

    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(RECORD_SIZE * 1024);
    private long records;

    Journal(final Path file) throws IOException {
        this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
    }

    @Override
    public void onEvent(final OrderEvent order, final long sequence, final boolean endOfBatch) throws IOException {
        buffer.putLong(sequence)
                .putLong(order.orderId)
                .putLong(order.price)
                .putLong(order.quantity)
                .putInt(order.clientId)
                .put(order.type)
                .put((byte) order.side.ordinal())
                .putShort((short) 0);
        records++;
        if (endOfBatch || buffer.remaining() < RECORD_SIZE) {
            drain();
        }
    }

    private void drain() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    @Override
    public void onShutdown() {
        close();
    }

    @Override
    public void close() {
        try {
            if (channel.isOpen()) {
                drain();
                channel.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not finish the journal", e);
        }
    }

    long records() {
        return records;
    }

    /** Receives the records of a journal file, in file order. */
    interface RecordVisitor {
        void record(long sequence, byte type, Side side, long orderId, long price, long quantity, int clientId);
    }

    /**
     * Reads a journal file back.
     *
     * @return the number of records
     * @throws IllegalStateException if the file is truncated or its sequences are not 0, 1, 2...
     */
    static long replay(final Path file, final RecordVisitor visitor) throws IOException {
        final Side[] sides = Side.values();
        long expected = 0;
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            if (in.size() % RECORD_SIZE != 0) {
                throw new IllegalStateException("journal " + file + " has " + in.size()
                        + " bytes, not a whole number of " + RECORD_SIZE + "-byte records");
            }
            final ByteBuffer chunk = ByteBuffer.allocate(RECORD_SIZE * 4096);
            while (in.read(chunk) > 0 || chunk.position() > 0) {
                chunk.flip();
                while (chunk.remaining() >= RECORD_SIZE) {
                    final long sequence = chunk.getLong();
                    if (sequence != expected) {
                        throw new IllegalStateException("journal record " + expected + " has sequence " + sequence);
                    }
                    final long orderId = chunk.getLong();
                    final long price = chunk.getLong();
                    final long quantity = chunk.getLong();
                    final int clientId = chunk.getInt();
                    final byte type = chunk.get();
                    final Side side = sides[chunk.get()];
                    chunk.getShort();
                    visitor.record(sequence, type, side, orderId, price, quantity, clientId);
                    expected++;
                }
                chunk.compact();
                if (chunk.position() == 0 && in.position() == in.size()) {
                    break;
                }
            }
        }
        return expected;
    }
}

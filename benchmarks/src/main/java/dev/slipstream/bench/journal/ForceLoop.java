package dev.slipstream.bench.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.HdrHistogram.Histogram;

/**
 * The physical limit of a durable journal on this machine: one thread, no ring, no codec, no
 * CRC, writing the same 80 bytes per event (a 16-byte header and the 64-byte payload) and forcing
 * them, paced like the pipeline. At each step it writes every event that is due, forces them with
 * one call (group commit, as the journal does per batch), and records for each the time from when
 * it was due until the force returned (no coordinated omission). Two ways to write and force:
 * a {@link MappedByteBuffer} and {@code force(index, length)} (msync, as the journal), or a
 * {@link FileChannel} {@code write} and {@code force(false)} (fdatasync).
 *
 * <pre>{@code
 * Histogram h = new ForceLoop(dir.resolve("limit"), true).run(10_000, 10_000, 20_000);
 * }</pre>
 */
final class ForceLoop implements AutoCloseable {
    static final int RECORD = 16 + Record64.PAYLOAD;
    private static final int FILE_SIZE = 1 << 30;

    private final FileChannel channel;
    private final MappedByteBuffer mapping;
    private final ByteBuffer batch = ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN);
    private final Histogram histogram = new Histogram(10_000_000_000L, 3);
    private int position;

    /**
     * @param file a new file
     * @param mapped write into a mapping and msync it, else write through the channel and fdatasync
     */
    ForceLoop(final Path file, final boolean mapped) throws IOException {
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        mapping = mapped ? channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_SIZE) : null;
        if (mapping != null) {
            mapping.order(ByteOrder.LITTLE_ENDIAN);
        }
    }

    /** Runs {@code warmup + measured} events at {@code rate} events/s. */
    Histogram run(final long rate, final long warmup, final long measured) {
        final long interval = 1_000_000_000L / rate;
        final long total = warmup + measured;
        final long start = System.nanoTime() + 10_000_000L;
        long next = 0;
        while (next < total) {
            final long firstDue = start + next * interval;
            long now;
            while ((now = System.nanoTime()) < firstDue) {
                Thread.onSpinWait();
            }
            // every event due by now goes into this batch
            long end = next + 1 + (now - firstDue) / interval;
            end = Math.min(Math.min(end, total), next + (batch.capacity() / RECORD));
            final int from = position;
            for (long i = next; i < end; i++) {
                write(i);
            }
            force(from);
            final long done = System.nanoTime();
            for (long i = next; i < end; i++) {
                if (i >= warmup) {
                    histogram.recordValue(Math.min(histogram.getHighestTrackableValue(), done - (start + i * interval)));
                }
            }
            next = end;
        }
        return histogram;
    }

    private void write(final long i) {
        if (position + RECORD > FILE_SIZE) {
            throw new IllegalStateException("the limit loop's file is full: fewer events or a lower rate");
        }
        if (mapping != null) {
            mapping.putLong(position + 8, i).putInt(position + 4, RECORD).putInt(position, (int) i);
            for (int k = 0; k < 8; k++) {
                mapping.putLong(position + 16 + 8 * k, i + k);
            }
        } else {
            batch.putInt((int) i).putInt(RECORD).putLong(i);
            for (int k = 0; k < 8; k++) {
                batch.putLong(i + k);
            }
        }
        position += RECORD;
    }

    private void force(final int from) {
        try {
            if (mapping != null) {
                mapping.force(from, position - from);
            } else {
                batch.flip();
                long at = from;
                while (batch.hasRemaining()) {
                    at += channel.write(batch, at);
                }
                batch.clear();
                channel.force(false);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.SyncMode;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Chronicle Queue (open source): one excerpt per event written through {@code writingDocument()}
 * as eight raw longs (its 4-byte excerpt header plus the same 64-byte payload), read back by a
 * tailer.
 *
 * <p>Its sync mode is set on the builder ({@code syncMode(...)}), never left to the default:
 * Chronicle's default ({@code MappedFile.DEFAULT_SYNC_MODE}, property
 * {@code mappedFile.defaultSyncMode}) is {@code ASYNC}, an {@code msync(MS_ASYNC)} that starts
 * write-back and does not wait for the device. {@link Sync#SYNC} ({@code msync(MS_SYNC)}, which
 * waits, like Slipstream's {@code force}) with {@code appender.sync()} at each end of batch is the
 * durable configuration; {@link Sync#NONE} with no {@code sync()} call is the append-only one.
 * Check with {@code strace -f -c -e trace=msync,fsync,fdatasync} which calls each side makes.
 *
 * <pre>{@code
 * try (JournalAdapter chronicle = new ChronicleQueueAdapter(dir, ChronicleQueueAdapter.Sync.SYNC, false)) {
 *     pipeline.handleEventsWith(chronicle.stage()).then(recorder);
 * }
 * }</pre>
 */
final class ChronicleQueueAdapter implements JournalAdapter {
    /** What happens at each end of batch. */
    enum Sync {
        /** {@code syncMode(SYNC)} and {@code appender.sync()}: waits for the device. */
        SYNC(SyncMode.SYNC),
        /** {@code syncMode(ASYNC)} and {@code appender.sync()}: Chronicle's default, does not wait. */
        ASYNC(SyncMode.ASYNC),
        /** {@code syncMode(NONE)} and no sync call: writes stay in the page cache. */
        NONE(SyncMode.NONE);

        final SyncMode mode;

        Sync(final SyncMode mode) {
            this.mode = mode;
        }
    }

    private final ChronicleQueue queue;
    private final Sync sync;
    private final boolean pretouch;
    private volatile boolean closing;
    private Thread pretoucher;

    ChronicleQueueAdapter(final Path dir, final Sync sync) {
        this(dir, sync, false);
    }

    /**
     * @param pretouch run Chronicle's pre-toucher ({@code appender.pretouch()}) every 100 ms on a
     *     sleeping thread of its own, as its documentation suggests
     */
    ChronicleQueueAdapter(final Path dir, final Sync sync, final boolean pretouch) {
        this.queue = SingleChronicleQueueBuilder.binary(dir).syncMode(sync.mode).build();
        this.sync = sync;
        this.pretouch = pretouch;
    }

    @Override
    public EventHandler<Record64> stage() {
        return new EventHandler<>() {
            private ExcerptAppender appender;

            @Override
            public void onStart() {
                // Chronicle's appenders belong to the thread that acquires them
                appender = queue.createAppender();
                if (pretouch && pretoucher == null) {
                    startPretoucher();
                }
            }

            @Override
            public void onEvent(final Record64 r, final long sequence, final boolean endOfBatch) {
                if (appender == null) {
                    onStart();
                }
                try (DocumentContext dc = appender.writingDocument()) {
                    final Bytes<?> bytes = dc.wire().bytes();
                    bytes.writeLong(r.a).writeLong(r.b).writeLong(r.c).writeLong(r.d)
                            .writeLong(r.e).writeLong(r.f).writeLong(r.g).writeLong(r.h);
                }
                if (endOfBatch && sync != Sync.NONE) {
                    appender.sync();
                }
            }

            @Override
            public void onShutdown() {
                if (appender != null) {
                    appender.close();
                }
            }
        };
    }

    private void startPretoucher() {
        pretoucher = new Thread(() -> {
            try (ExcerptAppender own = queue.createAppender()) {
                while (!closing) {
                    own.pretouch();
                    Thread.sleep(100);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                System.out.println("NOTE chronicle pretouch unavailable in this edition: " + e);
            }
        }, "chronicle-pretoucher");
        pretoucher.setDaemon(true);
        pretoucher.start();
    }

    @Override
    public long replayAll() {
        long sum = 0;
        try (ExcerptTailer tailer = queue.createTailer().toStart()) {
            while (true) {
                try (DocumentContext dc = tailer.readingDocument()) {
                    if (!dc.isPresent()) {
                        return sum;
                    }
                    final Bytes<?> bytes = dc.wire().bytes();
                    sum += bytes.readLong() + bytes.readLong() + bytes.readLong() + bytes.readLong()
                            + bytes.readLong() + bytes.readLong() + bytes.readLong() + bytes.readLong();
                }
            }
        }
    }

    @Override
    public void close() {
        closing = true;
        if (pretoucher != null) {
            try {
                pretoucher.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        queue.close();
    }
}

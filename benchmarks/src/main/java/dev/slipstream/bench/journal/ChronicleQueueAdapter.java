package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;
import java.nio.file.Path;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Chronicle Queue (open source): one excerpt per event written through {@code writingDocument()}
 * as eight raw longs (its 4-byte excerpt header plus the same 64-byte payload), read back by a
 * tailer; with a sync every batch, {@code appender.sync()} at the end of each batch.
 */
final class ChronicleQueueAdapter implements JournalAdapter {
    private final ChronicleQueue queue;
    private final boolean syncEveryBatch;

    ChronicleQueueAdapter(final Path dir, final boolean syncEveryBatch) {
        this.queue = SingleChronicleQueueBuilder.binary(dir).build();
        this.syncEveryBatch = syncEveryBatch;
    }

    @Override
    public EventHandler<Record64> stage() {
        return new EventHandler<>() {
            private ExcerptAppender appender;

            @Override
            public void onStart() {
                // Chronicle's appenders belong to the thread that acquires them
                appender = queue.createAppender();
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
                if (endOfBatch && syncEveryBatch) {
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
        queue.close();
    }
}

package dev.slipstream.bench.journal;

import dev.slipstream.journal.Journal;
import dev.slipstream.journal.JournalCodec;
import dev.slipstream.journal.JournalConfig;
import dev.slipstream.journal.JournalReader;
import dev.slipstream.journal.JournalStage;
import dev.slipstream.journal.SyncPolicy;
import dev.slipstream.processor.EventHandler;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** slipstream-journal: the journal stage with a sync policy, 256 MiB segments unless told, the pretoucher on or off. */
final class SlipstreamJournalAdapter implements JournalAdapter {
    static final JournalCodec<Record64> CODEC = new JournalCodec<>() {
        @Override
        public int encodedLength(final Record64 r) {
            return Record64.PAYLOAD;
        }

        @Override
        public void encode(final Record64 r, final ByteBuffer out) {
            out.putLong(r.a).putLong(r.b).putLong(r.c).putLong(r.d).putLong(r.e).putLong(r.f).putLong(r.g).putLong(r.h);
        }

        @Override
        public void decode(final ByteBuffer in, final Record64 r) {
            r.a = in.getLong();
            r.b = in.getLong();
            r.c = in.getLong();
            r.d = in.getLong();
            r.e = in.getLong();
            r.f = in.getLong();
            r.g = in.getLong();
            r.h = in.getLong();
        }
    };

    private final Path dir;
    private final Journal journal;
    private final JournalStage<Record64> stage;

    SlipstreamJournalAdapter(final Path dir, final boolean syncEveryBatch) {
        this(dir, syncEveryBatch ? SyncPolicy.everyBatch() : SyncPolicy.never());
    }

    SlipstreamJournalAdapter(final Path dir, final SyncPolicy policy) {
        this(dir, policy, false, 256 << 20);
    }

    SlipstreamJournalAdapter(final Path dir, final SyncPolicy policy, final boolean pretouch, final int segmentSize) {
        this.dir = dir;
        this.journal = Journal.open(JournalConfig.of(dir).segmentSize(segmentSize).syncPolicy(policy).pretouch(pretouch));
        this.stage = journal.stage(CODEC);
    }

    /** The sync policy named {@code batch}, {@code never} or {@code Nus} (at most every N microseconds). */
    static SyncPolicy policy(final String name) {
        if ("batch".equals(name)) {
            return SyncPolicy.everyBatch();
        }
        if ("never".equals(name)) {
            return SyncPolicy.never();
        }
        if (name.endsWith("us")) {
            return SyncPolicy.atMostEvery(java.time.Duration.ofNanos(1_000L * Long.parseLong(name.substring(0, name.length() - 2))));
        }
        throw new IllegalArgumentException("unknown --policy " + name + "; expected batch, never or Nus (e.g. 500us)");
    }

    @Override
    public EventHandler<Record64> stage() {
        return stage;
    }

    @Override
    public long replayAll() {
        final Record64 scratch = new Record64();
        final long[] sum = {0};
        try {
            JournalReader.open(dir).replay(0, Long.MAX_VALUE, CODEC, scratch, (r, sequence, last) -> sum[0] += r.sum());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        return sum[0];
    }

    @Override
    public void close() {
        journal.close();
    }
}

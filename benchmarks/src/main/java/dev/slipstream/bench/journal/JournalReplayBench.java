package dev.slipstream.bench.journal;

import dev.slipstream.bench.support.CommandLine;
import dev.slipstream.journal.Journal;
import dev.slipstream.journal.JournalConfig;
import dev.slipstream.journal.JournalReader;
import dev.slipstream.journal.JournalStage;
import dev.slipstream.journal.SyncPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Replay, open and locate against the number of segments, for the same records: the journal is
 * written once per segment size (64-byte payloads, 80-byte records, {@code never()} so that the
 * writing is quick), then read back. One {@code RESULT} line per figure and segment size:
 * {@code replay-ms} (best of {@code --repeats} full replays from the first sequence, with the
 * codec), {@code open-ms} ({@code Journal.open}, best of the repeats), {@code locate-us} (mean of
 * 1,000 {@code locate} calls at random sequences) and {@code segments}. A replay that stays
 * linear in the data gives about the same {@code replay-ms} at every segment count.
 *
 * <p>With the defaults (8,000,000 records, about 640 MB, segment sizes from 512 MiB down to
 * 64 KiB) the counts run from 2 to about 9,850 segments; the journal of one size is deleted
 * before the next is written.
 *
 * <pre>
 * java -cp benchmarks.jar dev.slipstream.bench.journal.JournalReplayBench --records 8000000 \
 *     --sizes 536870912,67108864,8388608,1048576,262144,65536 --repeats 3
 * </pre>
 */
public final class JournalReplayBench {
    private JournalReplayBench() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, String> o = CommandLine.pairs(args, Set.of("records", "sizes", "repeats", "dir"));
        final long records = Long.parseLong(o.getOrDefault("records", "8000000").replace("_", ""));
        final String sizes = o.getOrDefault("sizes", "536870912,67108864,8388608,1048576,262144,65536");
        final int repeats = Integer.parseInt(o.getOrDefault("repeats", "3"));
        final Path parent = Path.of(o.getOrDefault("dir", System.getProperty("java.io.tmpdir")));
        for (final String size : sizes.split(",")) {
            final Path dir = Files.createTempDirectory(parent, "journal-replay-");
            try {
                measure(dir, Integer.parseInt(size.trim()), records, repeats);
            } finally {
                JournalBench.deleteAll(dir);
            }
        }
    }

    private static void measure(final Path dir, final int segmentSize, final long records, final int repeats)
            throws Exception {
        final JournalConfig config = JournalConfig.of(dir).segmentSize(segmentSize).syncPolicy(SyncPolicy.never());
        int segments;
        try (Journal journal = Journal.open(config)) {
            final JournalStage<Record64> stage = journal.stage(SlipstreamJournalAdapter.CODEC);
            final Record64 r = new Record64();
            for (long i = 0; i < records; i++) {
                r.fill(i);
                stage.onEvent(r, i, (i & 255) == 255 || i == records - 1);
            }
            segments = journal.segments().size();
        }
        final String tag = "size=" + segmentSize + " segments=" + segments + " records=" + records;
        long bestOpen = Long.MAX_VALUE;
        for (int k = 0; k < repeats; k++) {
            final long t0 = System.nanoTime();
            try (Journal journal = Journal.open(config)) {
                bestOpen = Math.min(bestOpen, System.nanoTime() - t0);
                if (journal.nextSequence() != records) {
                    throw new IllegalStateException("reopened at " + journal.nextSequence() + ", expected " + records);
                }
            }
        }
        final JournalReader reader = JournalReader.open(dir);
        final Record64 scratch = new Record64();
        long expected = 0;
        for (long i = 0; i < records; i++) {
            expected += 8 * i + 28;
        }
        long bestReplay = Long.MAX_VALUE;
        for (int k = 0; k < repeats; k++) {
            final long[] sum = {0};
            final long t0 = System.nanoTime();
            final long n = reader.replay(0, Long.MAX_VALUE, SlipstreamJournalAdapter.CODEC, scratch,
                    (e, sequence, last) -> sum[0] += e.sum());
            bestReplay = Math.min(bestReplay, System.nanoTime() - t0);
            if (n != records || sum[0] != expected) {
                throw new IllegalStateException("replayed " + n + " records summing to " + sum[0] + ", expected "
                        + records + " summing to " + expected);
            }
        }
        final SplittableRandom random = new SplittableRandom(42);
        final int locates = 1_000;
        final long t0 = System.nanoTime();
        for (int k = 0; k < locates; k++) {
            reader.locate(random.nextLong(records));
        }
        final double locateUs = (System.nanoTime() - t0) / 1e3 / locates;
        System.out.printf("RESULT test=replay-segments %s figure=replay-ms value=%.3f%n", tag, bestReplay / 1e6);
        System.out.printf("RESULT test=replay-segments %s figure=open-ms value=%.3f%n", tag, bestOpen / 1e6);
        System.out.printf("RESULT test=replay-segments %s figure=locate-us value=%.3f%n", tag, locateUs);
    }
}

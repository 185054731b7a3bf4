package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The append and replay paths allocate nothing per event (per-thread allocated bytes, JDK's own counter). */
class JournalAllocationTest {
    /** Measured append runs at most; the least allocation counts. */
    private static final int MEASURED_RUNS = 3;

    @TempDir
    Path dir;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void appendingAndReplayingAllocateNothingPerEvent() throws Exception {
        final int events = 200_000;
        // 256 MiB: the warm-up and every measured run (at most 800,000 records of 12-132 bytes)
        // stay within the first segment, so no run opens a new one
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(256 << 20)
                .syncPolicy(SyncPolicy.never()))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            final Message m = new Message();
            // warm up (JIT), then measure
            for (long s = 0; s < events; s++) {
                stage.onEvent(m.fill(s), s, (s & 63) == 63);
            }
            // The least of up to three measured runs: a one-off allocation by the runtime (a
            // recompilation finishing mid-run) can land in any one of them, while an allocation per
            // event (at least 16 bytes each) would put megabytes into every run
            long appendBytes = Long.MAX_VALUE;
            long next = events;
            for (int run = 0; run < MEASURED_RUNS && appendBytes >= 1024; run++) {
                final long before = allocatedBytes();
                for (long s = next; s < next + events; s++) {
                    stage.onEvent(m.fill(s), s, (s & 63) == 63);
                }
                appendBytes = Math.min(appendBytes, allocatedBytes() - before);
                next += events;
            }
            assertTrue(appendBytes < 1024, "append allocated " + appendBytes + " bytes for " + events
                    + " events in the least of " + MEASURED_RUNS + " runs");
            assertEquals(next, journal.nextSequence());
        }
        final JournalReader reader = JournalReader.open(dir);
        final Message scratch = new Message();
        final long[] sum = {0};
        final Message.Codec codec = new Message.Codec();
        reader.replay(0, Long.MAX_VALUE, codec, scratch, (e, s, last) -> sum[0] += e.bodyLength);
        final long before = allocatedBytes();
        reader.replay(0, Long.MAX_VALUE, codec, scratch, (e, s, last) -> sum[0] += e.bodyLength);
        final long replayBytes = allocatedBytes() - before;
        // per replay call: the cursor, the directory listing and the segment mapping, not per event
        assertTrue(replayBytes < 64 * 1024, "replay of " + 2 * events + " events allocated " + replayBytes + " bytes");
    }
}

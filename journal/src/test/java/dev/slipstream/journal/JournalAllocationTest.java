package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The append and replay paths allocate nothing per event (per-thread allocated bytes, JDK's own counter). */
class JournalAllocationTest {
    @TempDir
    Path dir;

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    void appendingAndReplayingAllocateNothingPerEvent() throws Exception {
        final int events = 200_000;
        try (Journal journal = Journal.open(JournalConfig.of(dir).syncPolicy(SyncPolicy.never()))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            final Message m = new Message();
            // warm up (JIT), then measure a run that stays within one segment
            for (long s = 0; s < events; s++) {
                stage.onEvent(m.fill(s), s, (s & 63) == 63);
            }
            final long before = allocatedBytes();
            for (long s = events; s < 2L * events; s++) {
                stage.onEvent(m.fill(s), s, (s & 63) == 63);
            }
            final long appendBytes = allocatedBytes() - before;
            assertTrue(appendBytes < 1024, "append allocated " + appendBytes + " bytes for " + events + " events");
            assertEquals(2 * events, journal.nextSequence());
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

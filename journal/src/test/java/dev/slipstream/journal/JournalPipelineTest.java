package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalPipelineTest {
    @TempDir
    Path dir;

    /** After the journal: checks that every event it sees is durable already and is the expected one. */
    static final class DurableOnly implements EventHandler<Message> {
        final JournalStage<Message> journal;
        long seen;
        long notDurable;
        String wrong;

        DurableOnly(final JournalStage<Message> journal) {
            this.journal = journal;
        }

        @Override
        public void onEvent(final Message m, final long ringSequence, final boolean endOfBatch) {
            final long sequence = ringSequence + journal.ringStart();
            if (journal.durableSequence() < sequence) {
                notDurable++;
            }
            final String difference = m.differenceFrom(sequence);
            if (difference != null && wrong == null) {
                wrong = "event " + sequence + ": " + difference;
            }
            seen++;
        }
    }

    private static Slipstream<Message> pipeline() {
        return Slipstream.builder(Message::new).ringSize(1024).waitStrategy(new YieldingWaitStrategy()).build();
    }

    @Test
    void aStageAfterTheJournalSeesOnlyDurableEvents() throws Exception {
        final int events = 50_000;
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(1 << 20))) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            final DurableOnly after = new DurableOnly(stage);
            final Slipstream<Message> pipeline = pipeline();
            pipeline.handleEventsWith(stage.spec("journal")).then(after);
            pipeline.start();
            for (long i = 0; i < events; i++) {
                pipeline.publishEvent((m, ringSequence) -> m.fill(ringSequence));
            }
            final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(30));
            assertTrue(result.isClean(), result.toString());
            assertEquals(events, after.seen);
            assertEquals(0, after.notDurable, "events seen after the journal before they were durable");
            assertNull(after.wrong);
            assertEquals(events - 1, stage.durableRingSequence());
        }
        assertEquals(events, JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aRestartReplaysTheJournalIntoTheRingThenContinuesWithLiveEvents() throws Exception {
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 3_000, 100);
        }
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            final long replayFrom = 1_000;
            final long next = journal.nextSequence();
            final JournalStage<Message> stage = journal.stage(new Message.Codec(), replayFrom);
            final DurableOnly after = new DurableOnly(stage);
            final Slipstream<Message> pipeline = pipeline();
            pipeline.handleEventsWith(stage.spec("journal")).then(after);
            pipeline.start();
            final long replayed = journal.newReader().replayInto(pipeline, replayFrom, next - 1, new Message.Codec());
            assertEquals(2_000, replayed);
            for (long i = 0; i < 500; i++) {
                pipeline.publishEvent((m, ringSequence) -> m.fill(ringSequence + replayFrom));
            }
            assertTrue(pipeline.shutdown(Duration.ofSeconds(30)).isClean());
            assertEquals(2_500, after.seen);
            assertNull(after.wrong);
            assertEquals(0, after.notDurable);
            assertEquals(3_500, journal.nextSequence());
        }
        assertEquals(3_500, JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aFailingJournalStopsThePipelineBeforeLaterStagesSeeTheEvent() throws Exception {
        final JournalCodec<Message> failsAt = new Message.Codec() {
            @Override
            public void encode(final Message m, final java.nio.ByteBuffer out) {
                if (m.sequence == 700) {
                    throw new IllegalArgumentException("unencodable");
                }
                super.encode(m, out);
            }
        };
        try (Journal journal = Journal.open(JournalConfig.of(dir))) {
            final JournalStage<Message> stage = journal.stage(failsAt);
            final DurableOnly after = new DurableOnly(stage);
            final Slipstream<Message> pipeline = pipeline();
            pipeline.handleEventsWith(stage.spec("journal")).then(after);
            pipeline.start();
            try {
                for (long i = 0; i < 1_000; i++) {
                    pipeline.publishEvent((m, ringSequence) -> m.fill(ringSequence));
                }
            } catch (RuntimeException closedAfterTheFailure) {
                // the failure closes the ring: a producer is told
            }
            final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(10));
            assertFalse(result.isClean());
            assertFalse(pipeline.failures().isEmpty());
            // the journal's reason is in the result and the failure, not only the halting wrapper's
            assertTrue(result.toString().contains("JournalException: codec "), result::toString);
            assertTrue(result.toString().contains("unencodable"), result::toString);
            assertTrue(pipeline.failures().get(0).toString().contains("threw while encoding for sequence 700"),
                    pipeline.failures().get(0)::toString);
            assertTrue(pipeline.failures().get(0).cause().getCause() instanceof JournalException);
            assertEquals(700, after.seen, "the stage after the journal saw exactly the journalled events");
            assertEquals(0, after.notDurable);
            assertEquals(699, journal.durableSequence());
        }
        assertEquals(700, JournalTest.replayAndCheck(dir, 0));
    }
}

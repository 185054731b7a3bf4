package dev.slipstream.journal;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.nio.file.Path;

/**
 * The process {@link JournalCrashTest} kills: opens the journal, runs a pipeline with the journal
 * stage, publishes messages as fast as it can and prints {@code D <sequence>} whenever more is
 * durable (as acknowledged to a client), until it is killed. Each message's content is a function
 * of its journal sequence, so the parent can check every record byte for byte.
 *
 * <p>Modes: {@code correct}; two seeded bugs the crash test must catch:
 * {@code report-beside-journal} (the reporting stage runs beside the journal instead of after it,
 * so it reports events that may not be written yet) and {@code ack-at-batch-start} (the
 * acknowledged sequence is raised to the end of a batch when the batch starts, before its events
 * are written: a stage that reports durability before doing the work).
 */
public final class CrashChild {
    static final int SEGMENT_SIZE = 1 << 20;

    private CrashChild() {
    }

    /** Reports every event it sees, as the last stage of the pipeline. */
    static final class Reporter implements EventHandler<Message> {
        private final long ringStart;
        volatile long seen = -1;

        Reporter(final long ringStart) {
            this.ringStart = ringStart;
        }

        @Override
        public void onEvent(final Message m, final long ringSequence, final boolean endOfBatch) {
            if (endOfBatch) {
                seen = ringSequence + ringStart;
            }
        }
    }

    /** Seeded bug: acknowledges a batch when it starts, then journals it. */
    static final class AckAtBatchStart implements EventHandler<Message> {
        private final JournalStage<Message> journal;
        private long next;
        volatile long acknowledged = -1;

        AckAtBatchStart(final JournalStage<Message> journal) {
            this.journal = journal;
            this.next = journal.ringStart();
        }

        @Override
        public void onBatchStart(final long batchSize, final long queueDepth) {
            acknowledged = next + batchSize - 1;
        }

        @Override
        public void onEvent(final Message m, final long ringSequence, final boolean endOfBatch) {
            journal.onEvent(m, ringSequence, endOfBatch);
            next = ringSequence + journal.ringStart() + 1;
        }
    }

    public static void main(final String[] args) throws Exception {
        final Path dir = Path.of(args[0]);
        final String mode = args[1];
        final Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SEGMENT_SIZE).pretouch("pretouch".equals(mode)));
        System.out.println("OPENED " + journal.nextSequence() + " " + journal.recovery().truncated());
        final JournalStage<Message> stage = journal.stage(new Message.Codec());
        final long base = stage.ringStart();
        final Reporter reporter = new Reporter(base);
        final Slipstream<Message> pipeline = Slipstream.builder(Message::new).ringSize(4096)
                .waitStrategy(new YieldingWaitStrategy()).build();
        final AckAtBatchStart early = new AckAtBatchStart(stage);
        switch (mode) {
            case "correct", "pretouch" -> pipeline.handleEventsWith(stage.spec("journal")).then(reporter);
            case "report-beside-journal" -> pipeline.handleEventsWith(stage.spec("journal"), StageSpec.of("report", reporter));
            case "ack-at-batch-start" -> pipeline.handleEventsWith(
                    StageSpec.of("journal", early).exceptionHandler(ExceptionHandlers.halt("journal")));
            default -> throw new IllegalArgumentException("mode " + mode);
        }
        pipeline.start();
        final Thread acknowledger = new Thread(() -> {
            long reported = -1;
            while (true) {
                // the sequence a client would be told is safe
                final long safe = switch (mode) {
                    case "ack-at-batch-start" -> early.acknowledged;
                    case "report-beside-journal" -> reporter.seen;
                    // both are claims of durability: the stage after the journal, and the journal's own count
                    default -> Math.max(reporter.seen, stage.durableSequence());
                };
                if (safe > reported) {
                    reported = safe;
                    System.out.println("D " + safe);
                }
                Thread.onSpinWait();
                Thread.yield();
            }
        }, "acknowledger");
        acknowledger.setDaemon(true);
        acknowledger.start();
        while (true) {
            pipeline.publishEvent((m, ringSequence) -> m.fill(ringSequence + base));
        }
    }
}

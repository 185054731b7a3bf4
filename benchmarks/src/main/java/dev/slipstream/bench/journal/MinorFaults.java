package dev.slipstream.bench.journal;

import dev.slipstream.processor.EventHandler;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Counts minor page faults (Linux {@code /proc}, field 10 {@code minflt} of {@code stat}) of the
 * whole process and of the thread that runs a stage: wraps the stage and finds its thread's
 * {@code /proc/self/task/<tid>} when the stage starts. Elsewhere than Linux every count is -1.
 *
 * <pre>{@code
 * MinorFaults faults = new MinorFaults(journal.stage());
 * pipeline.handleEventsWith(faults.stage()).then(recorder);
 * long before = faults.stageThread();   // ... run ...   long during = faults.stageThread() - before;
 * }</pre>
 */
final class MinorFaults {
    private static final Path SELF_STAT = Path.of("/proc/self/stat");

    private final EventHandler<Record64> stage;
    private volatile Path stageStat;

    MinorFaults(final EventHandler<Record64> inner) {
        this.stage = new EventHandler<>() {
            @Override
            public void onEvent(final Record64 event, final long sequence, final boolean endOfBatch) throws Exception {
                inner.onEvent(event, sequence, endOfBatch);
            }

            @Override
            public void onStart() {
                try {
                    // "/proc/thread-self" links to "<pid>/task/<tid>" for the thread that reads it
                    stageStat = Path.of("/proc").resolve(Files.readSymbolicLink(Path.of("/proc/thread-self")))
                            .resolve("stat");
                } catch (IOException | UnsupportedOperationException notLinux) {
                    stageStat = null;
                }
                inner.onStart();
            }

            @Override
            public void onShutdown() {
                inner.onShutdown();
            }

            @Override
            public void onBatchStart(final long batchSize, final long queueDepth) {
                inner.onBatchStart(batchSize, queueDepth);
            }

            @Override
            public void onTimeout(final long sequence) throws Exception {
                inner.onTimeout(sequence);
            }
        };
    }

    /** The stage to put in the pipeline in place of the wrapped one. */
    EventHandler<Record64> stage() {
        return stage;
    }

    /** Minor faults of the stage's thread so far, or -1 before it started or off Linux. */
    long stageThread() {
        final Path stat = stageStat;
        return stat == null ? -1 : read(stat);
    }

    /** Minor faults of the whole process so far (every thread, the pretoucher's included), or -1. */
    static long process() {
        return read(SELF_STAT);
    }

    private static long read(final Path stat) {
        try {
            final String line = Files.readString(stat);
            // fields after the command name in parentheses (which may hold spaces): state is field 3, minflt 10
            final String[] after = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(after[10 - 3]);
        } catch (IOException | RuntimeException unavailable) {
            return -1;
        }
    }
}

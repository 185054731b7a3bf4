package dev.slipstream.processor;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * 56 bytes before the counters, so that no other object's hot field shares their cache line. The
 * int fills the gap after a compressed object header, where the JVM could otherwise place a small
 * field.
 */
abstract class ProcessorCountersLhsPadding {
    int p00;
    long p01, p02, p03, p04, p05, p06, p07;
}

/** Written once per batch by the processor thread, read at any time by monitoring threads. */
abstract class ProcessorCountersValues extends ProcessorCountersLhsPadding {
    long events;
    long batches;
    long exceptions;
    long rewinds;
}

/** 56 bytes after the counters. */
abstract class ProcessorCountersRhsPadding extends ProcessorCountersValues {
    long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * A processor's monitoring counters, on their own cache line (the processor's sequence is a
 * separate, padded object), so that updating them disturbs neither the sequence nor the fields
 * the processor reads on every batch. Single writer: the processor thread.
 */
final class ProcessorCounters extends ProcessorCountersRhsPadding {
    private static final VarHandle EVENTS = counter("events");
    private static final VarHandle BATCHES = counter("batches");
    private static final VarHandle EXCEPTIONS = counter("exceptions");
    private static final VarHandle REWINDS = counter("rewinds");

    private static VarHandle counter(final String field) {
        try {
            return MethodHandles.lookup().findVarHandle(ProcessorCountersValues.class, field, long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // The writer reads its own fields plainly; opaque stores give readers whole (untorn) values
    // that become visible promptly, without the fences of release or volatile: counters publish
    // nothing else. Readers get a whole, recent value, in no particular order with other memory.

    void batchDone(final long size) {
        srEvents(events + size);
        srBatches(batches + 1L);
    }

    void eventsDone(final long count) {
        srEvents(events + count);
    }

    void exceptionHandled() {
        srExceptions(exceptions + 1L);
    }

    void rewound() {
        srRewinds(rewinds + 1L);
    }

    long lrEvents() {
        return (long) EVENTS.getOpaque(this);
    }

    long lrBatches() {
        return (long) BATCHES.getOpaque(this);
    }

    long lrExceptions() {
        return (long) EXCEPTIONS.getOpaque(this);
    }

    long lrRewinds() {
        return (long) REWINDS.getOpaque(this);
    }

    private void srEvents(final long value) {
        EVENTS.setOpaque(this, value);
    }

    private void srBatches(final long value) {
        BATCHES.setOpaque(this, value);
    }

    private void srExceptions(final long value) {
        EXCEPTIONS.setOpaque(this, value);
    }

    private void srRewinds(final long value) {
        REWINDS.setOpaque(this, value);
    }
}

package dev.slipstream.topology;

import dev.slipstream.processor.RewindableException;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many exceptions one stage's exception handler let pass, for its {@link ShutdownResult}:
 * events skipped (the handler threw, the exception handler returned), and of those, how many were
 * a {@link RewindableException} whose rewind strategy gave up. Every thread of a work pool reports
 * into the same tally at once, so the counts are adders, not plain fields; they are touched only
 * when a handler throws, never on an event that succeeds.
 *
 * <pre>{@code
 * ExceptionTally tally = new ExceptionTally();
 * tally.skipped(new IllegalStateException("bad price"));   // on any stage thread
 * long skipped = tally.skipped();                          // read after the threads are joined
 * }</pre>
 */
final class ExceptionTally {
    private final LongAdder skipped = new LongAdder();
    private final LongAdder retriesGivenUp = new LongAdder();

    /** The exception handler took {@code cause} and let the stage go on: one event skipped. */
    void skipped(final Throwable cause) {
        // LongAdder: many worker threads of one pool may add at once; no count may be lost
        skipped.increment();
        if (cause instanceof RewindableException) {
            retriesGivenUp.increment();
        }
    }

    /** Events (and failed batch-start or timeout callbacks) skipped after an exception. */
    long skipped() {
        return skipped.sum();
    }

    /** Of {@link #skipped()}, those whose batch the rewind strategy stopped retrying. */
    long retriesGivenUp() {
        return retriesGivenUp.sum();
    }
}

package dev.slipstream.topology;

import dev.slipstream.processor.RewindableException;
import java.util.concurrent.atomic.LongAdder;

/**
 * How many exceptions one stage's exception handler let pass, for its {@link ShutdownResult}:
 * events skipped, and of those, {@link RewindableException}s whose rewind gave up. Adders, as a
 * pool's threads report at once; touched only when a handler throws.
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

package dev.slipstream.stress.processor;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.TimeoutBlockingWaitStrategy;
import java.util.concurrent.TimeUnit;

/**
 * A batch event processor and a concurrent {@code halt()}, with no delay between them: the halt
 * may come before {@code run()} starts, while it handles its first batch, or while it waits. A
 * lost halt must not hang the test, so the processor waits with a 1 ms timeout, and if it sees
 * three timeouts after {@code halt()} has returned (it went round its loop three times without
 * noticing the halt) it throws {@link LostHalt} out of {@code run()}.
 *
 * <pre>{@code
 * HaltRaceFixture f = new HaltRaceFixture();
 * long[] seen = f.run();   // on one thread
 * f.halt();                // on another
 * }</pre>
 */
public final class HaltRaceFixture {
    /** Thrown out of run() when the processor keeps going after halt() returned. */
    static final class LostHalt extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LostHalt() {
            super("the processor ignored a halt", null, false, false);
        }
    }

    /** A ring slot. */
    public static final class Slot {
        /** Unused payload. */
        public long value;
    }

    private final BatchEventProcessor<Slot> processor;
    private volatile boolean haltReturned;
    /** Written and read by the processor's thread only. */
    private int timeoutsAfterHalt;
    /** Written by the processor's thread, read by the same thread after run() returns. */
    private long processed;

    /** Creates a ring with two published events and a processor over it. */
    public HaltRaceFixture() {
        final RingBuffer<Slot> ring = RingBuffer.createSingleProducer(Slot::new, 4,
                new TimeoutBlockingWaitStrategy(1, TimeUnit.MILLISECONDS));
        processor = new BatchEventProcessor<>(ring, ring.newBarrier(), new EventHandler<Slot>() {
            @Override
            public void onEvent(final Slot event, final long sequence, final boolean endOfBatch) {
                processed++;
            }

            @Override
            public void onTimeout(final long sequence) {
                if (haltReturned && ++timeoutsAfterHalt >= 3) {
                    throw new LostHalt();
                }
            }
        });
        processor.setExceptionHandler(new RethrowQuietly());
        ring.addGatingSequences(processor.getSequence());
        for (int i = 0; i < 2; i++) {
            ring.publish(ring.next());
        }
    }

    /**
     * Runs the processor until it stops.
     *
     * @return {1 if it ignored the halt, else 0; the events it processed}
     */
    public long[] run() {
        try {
            processor.run();
            return new long[] {0, processed};
        } catch (LostHalt lost) {
            return new long[] {1, processed};
        }
    }

    /** Halts the processor, then lets the lost-halt check start counting. */
    public void halt() {
        processor.halt();
        haltReturned = true;
    }

    /** Lets the handler's exceptions out of run(), without logging. */
    private static final class RethrowQuietly implements ExceptionHandler<Slot> {
        @Override
        public void handleEventException(final Throwable ex, final long sequence, final Slot event) {
            throw ex instanceof RuntimeException ? (RuntimeException) ex : new IllegalStateException(ex);
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
            handleEventException(ex, -1, null);
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
            handleEventException(ex, -1, null);
        }
    }
}

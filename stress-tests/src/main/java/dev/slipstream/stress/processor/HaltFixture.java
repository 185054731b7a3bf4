package dev.slipstream.stress.processor;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;

/**
 * A batch event processor on a ring with two published events: run() processes them, then
 * waits for the third. halt() must end run() whether it comes before run() starts, while the
 * processor is handling the two events, or while it waits (parked, spinning, or spinning on a
 * slot that a producer has claimed but not published).
 *
 * <pre>{@code
 * HaltFixture f = new HaltFixture(new BlockingWaitStrategy(), false);
 * f.run();     // on one thread: returns once the other thread calls f.halt()
 * }</pre>
 */
public final class HaltFixture {
    /** A ring slot. */
    public static final class Slot {
        /** Written by the producer, read by the handler. */
        public long value;
    }

    /** Reads each event; does nothing else, so the processor is quickly back to waiting. */
    private static final EventHandler<Slot> READ = (event, sequence, endOfBatch) -> {
        if (event.value != sequence + 1) {
            throw new IllegalStateException("event " + sequence + " holds " + event.value);
        }
    };

    private final BatchEventProcessor<Slot> processor;

    /**
     * Creates the ring, publishes two events and builds the processor.
     *
     * @param waitStrategy how the processor waits
     * @param pendingClaim true for a multi-producer ring whose third slot is claimed and never
     *     published: the barrier keeps handing out less than asked for
     */
    public HaltFixture(final WaitStrategy waitStrategy, final boolean pendingClaim) {
        final RingBuffer<Slot> ring = RingBuffer.create(pendingClaim ? ProducerType.MULTI : ProducerType.SINGLE,
                Slot::new, 4, waitStrategy, ProducerWaitStrategies.yielding());
        processor = new BatchEventProcessor<>(ring, ring.newBarrier(), READ);
        ring.addGatingSequences(processor.getSequence());
        for (int i = 0; i < 2; i++) {
            final long seq = ring.next();
            ring.get(seq).value = seq + 1;
            ring.publish(seq);
        }
        if (pendingClaim) {
            ring.next();
        }
    }

    /** Runs the processor until it is halted. */
    public void run() {
        processor.run();
    }

    /** Halts the processor. */
    public void halt() {
        processor.halt();
    }
}

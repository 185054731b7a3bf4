package dev.slipstream.bench.queue;

import dev.slipstream.queue.LprqQueue;
import dev.slipstream.queue.LscqQueue;
import dev.slipstream.queue.ScqQueue;
import dev.slipstream.queue.SlotSequenceQueue;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.jctools.queues.MpmcArrayQueue;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;

/** The queues compared, built the same way in every benchmark. */
final class Queues {
    /** Capacity of every bounded queue in the comparison. */
    static final int CAPACITY = 1 << 16;
    /** Segment (ring, chunk) size of the unbounded array-based queues: LSCQ, LPRQ and JCTools' xadd queue. */
    static final int SEGMENT = 1 << 12;
    /**
     * A thread whose own successful offers exceed its own successful polls by this much polls
     * that many back, inside the measured time, so that no queue grows without bound; with at
     * most two threads the bounded queues (capacity {@link #CAPACITY}) then never fill.
     */
    static final int DRAIN_AT = 1 << 14;

    private Queues() {
    }

    static Queue<Integer> create(final String impl, final int order, final boolean remap) {
        return switch (impl) {
            case "ScqQueue" -> new ScqQueue<>(1 << order, remap);
            case "LscqQueue" -> new LscqQueue<>(1 << order, remap);
            case "LprqQueue" -> new LprqQueue<>(1 << order);
            // the candidates (LprqQueue.Contention, a larger ring, the slot-sequence bounded queue)
            case "LprqQueue-BACK_OFF" -> new LprqQueue<>(1 << order, LprqQueue.Contention.BACK_OFF);
            case "LprqQueue-WAIT_FOR_OFFER" -> new LprqQueue<>(1 << order, LprqQueue.Contention.WAIT_FOR_OFFER);
            case "LprqQueue-64K" -> new LprqQueue<>(1 << 16);
            case "SlotSequenceQueue" -> new SlotSequenceQueue<>(1 << order, remap);
            case "SlotSequenceQueue-BACK_OFF" -> SlotSequenceQueue.backingOff(1 << order);
            case "MpmcArrayQueue" -> new MpmcArrayQueue<>(CAPACITY);
            case "MpmcUnboundedXaddArrayQueue" -> new MpmcUnboundedXaddArrayQueue<>(SEGMENT);
            case "ConcurrentLinkedQueue" -> new ConcurrentLinkedQueue<>();
            case "LinkedBlockingQueue" -> new LinkedBlockingQueue<>();
            case "ArrayBlockingQueue" -> new ArrayBlockingQueue<>(CAPACITY);
            default -> throw new IllegalArgumentException("unknown queue implementation: " + impl);
        };
    }

    /** The default order of the Slipstream queue of this name in the comparison. */
    static int defaultOrder(final String impl) {
        return "ScqQueue".equals(impl) || impl.startsWith("SlotSequenceQueue") ? Integer.numberOfTrailingZeros(CAPACITY)
                : Integer.numberOfTrailingZeros(SEGMENT);
    }
}

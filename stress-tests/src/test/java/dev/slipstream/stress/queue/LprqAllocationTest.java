package dev.slipstream.stress.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.queue.LprqQueue;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link LprqQueue} allocates nothing per element while the backlog fits one ring: the ring is
 * used lap after lap. Measured with HotSpot's per-thread allocation counter, in each thread that
 * offers or polls (elements are boxed before the measured phase).
 */
class LprqAllocationTest {
    /** Elements each thread moves before it starts measuring. */
    private static final int WARM_UP = 100_000;
    /**
     * Bytes a measured phase of a million elements may show without any per-element allocation:
     * 0.016 bytes per element (a single object per element would be 16 or more).
     */
    private static final long NOISE = 16 * 1_024;

    @BeforeAll
    static void needsTheAllocationCounter() {
        Assumptions.assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean,
                "needs HotSpot's ThreadMXBean");
    }

    /** One thread, backlog below a ring: offer and poll allocate nothing. */
    @Test
    void offerAndPollAllocateNothingWhileTheBacklogFitsTheRing() {
        final LprqQueue<Integer> q = new LprqQueue<>(1024);
        final Integer[] values = new Integer[1000];
        for (int i = 0; i < values.length; i++) {
            values[i] = i; // boxed up front: the queue's allocation is what is measured
        }
        for (int warm = 0; warm < 200; warm++) {
            cycle(q, values);
        }
        final long before = allocatedBytes();
        for (int round = 0; round < 1_000; round++) {
            cycle(q, values);
        }
        final long bytes = allocatedBytes() - before;
        // 2,000,000 operations: one 16-byte object per element would be 16 MB; the JVM's own
        // bookkeeping (the measuring calls, compilation transitions) stays far below NOISE
        assertTrue(bytes < NOISE, "allocated " + bytes + " bytes over 2,000,000 operations");
        assertEquals(1, q.ringsAllocated());
    }

    private static void cycle(final LprqQueue<Integer> q, final Integer[] values) {
        for (final Integer v : values) {
            q.offer(v);
        }
        for (int i = 0; i < values.length; i++) {
            if (q.poll() == null) {
                throw new AssertionError("lost an element");
            }
        }
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    /** One producer and one consumer, backlog kept below a ring: neither allocates per element. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aProducerAndAConsumerAllocateNothingPerElement() throws Exception {
        final LprqQueue<Integer> q = new LprqQueue<>(4096);
        final int count = 1_100_000;
        final Integer[] values = new Integer[1024];
        for (int i = 0; i < values.length; i++) {
            values[i] = i;
        }
        final AtomicLong consumed = new AtomicLong();
        final long[] bytes = new long[2];
        // each thread measures after a warm-up of its own (its reservation, lazy class set-up)
        final Thread producer = new Thread(() -> {
            long before = allocatedBytes();
            for (int i = 0; i < count; i++) {
                if (i == WARM_UP) {
                    before = allocatedBytes();
                }
                while (i - consumed.get() > 2_000) {
                    Thread.yield();
                }
                q.offer(values[i & 1023]);
            }
            bytes[0] = allocatedBytes() - before;
        });
        final Thread consumer = new Thread(() -> {
            long before = allocatedBytes();
            long n = 0;
            while (n < count) {
                if (n == WARM_UP) {
                    before = allocatedBytes();
                }
                if (q.poll() != null) {
                    consumed.lazySet(++n);
                } else {
                    Thread.yield();
                }
            }
            bytes[1] = allocatedBytes() - before;
        });
        producer.start();
        consumer.start();
        producer.join();
        consumer.join();
        // a ring closed because one offer was starved would cost 12 bytes per cell
        final long ringBytes = 12L * 4096 + 1024;
        assertTrue(bytes[0] <= ringBytes * (q.ringsAllocated() - 1) + NOISE,
                "producer allocated " + bytes[0] + " bytes, rings " + q.ringsAllocated());
        assertTrue(bytes[1] < NOISE, "consumer allocated " + bytes[1] + " bytes");
        assertTrue(q.ringsAllocated() <= 2, "rings allocated: " + q.ringsAllocated());
        assertNull(q.poll());
    }

}

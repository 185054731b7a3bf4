package dev.slipstream.bench.support;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/** Padding before the sink's fields. */
abstract class SinkLhsPadding {
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** The sink's fields, all written by the one stage thread that owns the sink. */
abstract class SinkFields extends SinkLhsPadding {
    protected long sum;
    protected long seen;
    protected long orderErrors;
    protected long published;
}

/** Padding after the sink's fields. */
abstract class SinkRhsPadding extends SinkFields {
    protected long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * The state of a last stage: a running checksum and a count of the events seen, on its own
 * cache line, read by the benchmark thread without a latch.
 *
 * <p>The stage thread adds each value and stores the new count (release); the benchmark thread
 * waits until the count reaches its target (acquire), then reads the checksum, which that
 * release made visible. Every implementation (Slipstream, LMAX Disruptor, queues) ends in the
 * same sink, so the per-event cost of the check is the same for all of them.
 *
 * <pre>{@code
 * sink.add(event.value);                    // stage thread, per event
 * sink.await(target, "unicast", topology);  // benchmark thread
 * Work.check("unicast", expected, sink.sum() - sumBefore);
 * }</pre>
 */
public final class Sink extends SinkRhsPadding {
    private static final VarHandle PUBLISHED;
    private static final long TIMEOUT_NANOS = Long.getLong("bench.timeoutSeconds", 30L) * 1_000_000_000L;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(SinkFields.class, "published", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] lastByProducer;

    /** Creates a sink that also checks that each producer's values arrive in increasing order. */
    public Sink(final int producers) {
        lastByProducer = new long[Math.max(producers, 1)];
        java.util.Arrays.fill(lastByProducer, Long.MIN_VALUE);
    }

    /** Adds one value to the checksum and publishes the new count. Stage thread only. */
    public void add(final long x) {
        sum += x;
        // release: publishes the checksum written just above to the benchmark thread
        PUBLISHED.setRelease(this, ++seen);
    }

    /** As {@link #add(long)}, and checks that {@code producer}'s values increase. */
    public void addOrdered(final int producer, final long x) {
        final long[] last = lastByProducer;
        if (x <= last[producer]) {
            orderErrors++;
        }
        last[producer] = x;
        add(x);
    }

    /** The count, as last published. */
    public long count() {
        // acquire: pairs with the release in add(), so sum() afterwards is at least this fresh
        return (long) PUBLISHED.getAcquire(this);
    }

    /**
     * The checksum; read it only after {@link #await} returned (or {@link #count()} showed that
     * no event is in flight).
     *
     * @return the running sum of every value seen
     */
    public long sum() {
        return sum;
    }

    /** How many values arrived out of order for their producer; read after {@link #await}. */
    public long orderErrors() {
        return orderErrors;
    }

    /**
     * Waits until the count reaches {@code target}: spins briefly, yields, then parks for 20 us
     * at a time so that on a small machine the waiting benchmark thread leaves the cores to the
     * stages. Every implementation is waited for in this same way.
     *
     * @param target the count to reach
     * @param what the topology and stage, for the timeout message
     * @param failures checked while waiting, so that a dead producer fails the batch at once
     * @throws IllegalStateException if a producer failed, or the count does not arrive within
     *     the timeout ({@code -Dbench.timeoutSeconds}, default 30)
     */
    public void await(final long target, final String what, final FailureSource failures) {
        int spins = 0;
        long deadline = 0;
        while (count() < target) {
            final Throwable failed = failures.failure();
            if (failed != null) {
                throw new IllegalStateException(what + ": a producer failed after " + count() + " of " + target
                        + " events", failed);
            }
            if (spins < 100) {
                Thread.onSpinWait();
            } else if (spins < 200) {
                Thread.yield();
            } else {
                final long now = System.nanoTime();
                if (deadline == 0) {
                    deadline = now + TIMEOUT_NANOS;
                } else if (now - deadline > 0) {
                    throw new IllegalStateException("timed out waiting for " + what + ": saw "
                            + count() + " of " + target + " events");
                }
                LockSupport.parkNanos(20_000L);
            }
            spins++;
        }
    }
}

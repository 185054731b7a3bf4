package dev.slipstream.bench.latency;

import dev.slipstream.bench.ring.RingLibrary;
import org.HdrHistogram.SingleWriterRecorder;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Padding before the sink's fields. */
abstract class LatencySinkLhs {
    protected long p01, p02, p03, p04, p05, p06, p07;
}

/** Fields written by the recording stage thread only. */
abstract class LatencySinkFields extends LatencySinkLhs {
    protected long sum;
    protected long seen;
    protected long published;
}

/** Padding after the sink's fields. */
abstract class LatencySinkRhs extends LatencySinkFields {
    protected long p11, p12, p13, p14, p15, p16, p17;
}

/**
 * The recording end of a latency run: the last stage records {@code now - intended} for each
 * event into a single-writer recorder (a reporter thread takes interval histograms from it), adds
 * the event's value to a checksum and publishes its count.
 *
 * <pre>{@code
 * sink.record(event.value, event.intendedNanos);   // last stage, per event
 * long n = sink.count();                           // driver
 * }</pre>
 */
public final class LatencySink extends LatencySinkRhs implements RingLibrary.Recorder {
    /** Latencies above one hour are clamped to it (a run that slow has failed anyway). */
    public static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    private static final VarHandle PUBLISHED;

    static {
        try {
            PUBLISHED = MethodHandles.lookup().findVarHandle(LatencySinkFields.class, "published", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final SingleWriterRecorder recorder = new SingleWriterRecorder(1, HIGHEST_TRACKABLE_NANOS, 3);

    /**
     * Records one event: its latency from the intended send time, and its value.
     *
     * @param value the producer's value
     * @param intendedNanos when the producer meant to send it ({@link System#nanoTime()})
     */
    @Override
    public void record(final long value, final long intendedNanos) {
        final long latency = System.nanoTime() - intendedNanos;
        recorder.recordValue(Math.min(Math.max(latency, 0L), HIGHEST_TRACKABLE_NANOS));
        sum += value;
        // release: publishes the checksum to the driver thread
        PUBLISHED.setRelease(this, ++seen);
    }

    /** How many events were recorded. */
    public long count() {
        // acquire: pairs with record(), so checksum() afterwards covers this many events
        return (long) PUBLISHED.getAcquire(this);
    }

    /** The sum of every value recorded; read after {@link #count()} showed them all. */
    public long checksum() {
        return sum;
    }

    /** The recorder the reporter takes interval histograms from. */
    public SingleWriterRecorder recorder() {
        return recorder;
    }
}

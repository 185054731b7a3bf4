package dev.slipstream.bench.ring;

import dev.slipstream.bench.support.ValueEvent;

import java.util.List;

/**
 * One ring library, as the benchmarks drive it: its ring, barriers, batch event processors and
 * producer loop, behind one small adapter per library ({@link SlipstreamRing}, {@link LmaxRing}),
 * so that each rig and topology is written once and differs between the libraries only in the
 * adapter it is given. The types are the library's own: every call a rig makes per event (claim,
 * fill, publish; the handlers' {@code onEvent}) reaches the library's classes directly, and a JVM
 * runs one library, so each adapter call site sees one class and is inlined.
 *
 * <pre>{@code
 * RingLibrary<R, B, S, H, P> lib = ...;                  // SlipstreamRing.INSTANCE or LmaxRing.INSTANCE
 * R ring = lib.ring(false, 65536, "yielding");
 * P stage = lib.processor(ring, lib.barrier(ring, List.of()), handler);
 * lib.gate(ring, lib.sequenceOf(stage));
 * }</pre>
 *
 * @param <R> the ring buffer type
 * @param <B> the sequence barrier type
 * @param <S> the sequence type
 * @param <H> the event handler type
 * @param <P> the batch event processor type
 */
public abstract class RingLibrary<R, B, S, H, P extends Runnable> {
    private final String name;

    /** @param name the implementation name the benchmarks use ({@code slipstream}, {@code lmax}) */
    protected RingLibrary(final String name) {
        this.name = name;
    }

    /** @return the implementation name, for thread names and messages */
    public final String name() {
        return name;
    }

    /** @return a ring of {@link ValueEvent}s of {@code size} slots, for many producers or one */
    public abstract R ring(boolean multiProducer, int size, String wait);

    /** @return a barrier behind the {@code upstream} stages' sequences, or behind the producers if none */
    public abstract B barrier(R ring, List<S> upstream);

    /** @return a batch event processor running {@code handler} behind {@code barrier}, not started */
    public abstract P processor(R ring, B barrier, H handler);

    /** @return the sequence a processor publishes its progress through */
    public abstract S sequenceOf(P processor);

    /** Makes the ring's producers wait for {@code sequence}. */
    public abstract void gate(R ring, S sequence);

    /** Asks a processor to stop. */
    public abstract void halt(P processor);

    /** @return a fresh sequence, for a consumer that reads without a processor */
    public abstract S newSequence();

    /** Stores {@code value} into {@code sequence}. */
    public abstract void set(S sequence, long value);

    /**
     * @return the highest available sequence, once {@code sequence} is
     * @throws Exception what the library's wait throws
     */
    public abstract long waitFor(B barrier, long sequence) throws Exception;

    /** @return the sequence of the next slot, claimed once there is space */
    public abstract long next(R ring);

    /** @return the event in the slot of {@code sequence} */
    public abstract ValueEvent get(R ring, long sequence);

    /** Publishes the claimed slot of {@code sequence}. */
    public abstract void publish(R ring, long sequence);

    /**
     * The throughput producer loop: claims, fills and publishes {@code n} events one at a time
     * ({@code next / get / publish}), values {@code first ..}, tagged with {@code producer}.
     */
    public abstract void publishRange(R ring, int producer, long first, int n);

    /** After a producer failed: releases producers waiting for space, if the library can. */
    public abstract void abort(R ring, Throwable cause);

    /** @return the latency rigs' first pipeline stage ({@code a = value + 1}), of the library's interface */
    public abstract H passA();

    /** @return the latency rigs' second pipeline stage ({@code b = a + 1}) */
    public abstract H passB();

    /** @return the latency rigs' recording stage */
    public abstract H record(Recorder recorder);

    /** @return the ping-pong rig's echo, which publishes each event's value into {@code out} */
    public abstract H echo(R out);

    /** Where the latency rigs' last stage reports each event's value and intended send time. */
    @FunctionalInterface
    public interface Recorder {
        /** Records one event. */
        void record(long value, long intendedNanos);
    }
}

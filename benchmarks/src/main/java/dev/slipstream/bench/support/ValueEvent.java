package dev.slipstream.bench.support;

/**
 * The event every benchmark moves: a value written by the producer and two result fields
 * written by intermediate stages.
 *
 * <p>The same class is used by all implementations (Slipstream, LMAX Disruptor, queues), so
 * each of them moves exactly the same bytes and does exactly the same work per event.
 *
 * <pre>{@code
 * ValueEvent e = ring.get(seq);
 * e.value = 42;                 // producer
 * e.a = Work.pipelineA(e.value); // stage A
 * }</pre>
 */
public final class ValueEvent {
    /** Written by the producer. */
    public long value;
    /** Written by stage A (pipeline, diamond). */
    public long a;
    /** Written by stage B (pipeline, diamond). */
    public long b;
    /** The intended send time in {@link System#nanoTime()} units (latency runs). */
    public long intendedNanos;
    /** Which producer wrote the event (sequencer topology). */
    public int producer;

}

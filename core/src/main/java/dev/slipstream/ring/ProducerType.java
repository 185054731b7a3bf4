package dev.slipstream.ring;

/**
 * How many threads publish into a ring, which decides the sequencer it uses.
 *
 * <pre>{@code
 * RingBuffer<Event> ring = RingBuffer.create(ProducerType.MULTI, Event::new, 1024,
 *         new BlockingWaitStrategy(), ProducerWaitStrategies.defaultStrategy());
 * }</pre>
 */
public enum ProducerType {
    /** Exactly one publishing thread: claims are plain increments. */
    SINGLE,
    /** Any number of publishing threads: claims are atomic, slots carry availability flags. */
    MULTI
}

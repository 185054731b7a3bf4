package dev.slipstream.ring;

/**
 * Gives the event stored for a sequence. {@link RingBuffer} is the usual one; processors depend
 * on this narrow view so that they can be tested and reused without a ring.
 *
 * <pre>{@code
 * DataProvider<Event> events = ringBuffer;
 * Event e = events.get(sequence);
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface DataProvider<E> {
    /**
     * The event for a sequence.
     *
     * @param sequence the sequence
     * @return the event in that slot
     */
    E get(long sequence);
}

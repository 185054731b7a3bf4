package dev.slipstream.ring;

/**
 * Creates the events that fill a ring buffer once, when it is built. The events are then reused
 * for every publication: publishing allocates nothing.
 *
 * <pre>{@code
 * final class PriceEvent { long instrument; long price; }
 * RingBuffer<PriceEvent> ring = RingBuffer.createSingleProducer(PriceEvent::new, 4096, waitStrategy);
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface EventFactory<E> {
    /**
     * Creates one event.
     *
     * @return a new event, never null
     */
    E newInstance();
}

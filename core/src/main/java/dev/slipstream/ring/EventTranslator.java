package dev.slipstream.ring;

/**
 * Writes data the translator holds into a claimed event; the ring buffer publishes the slot afterwards, even if this
 * throws. A non-capturing lambda or a static instance allocates nothing per event.
 *
 * <pre>{@code
 * ring.publishEvent((event, sequence) -> event.timestamp = System.nanoTime());
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface EventTranslator<E> {
    /**
     * Fills the event.
     *
     * @param event the preallocated event of the claimed slot
     * @param sequence the slot's sequence
     */
    void translateTo(E event, long sequence);
}

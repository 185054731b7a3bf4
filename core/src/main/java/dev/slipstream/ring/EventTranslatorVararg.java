package dev.slipstream.ring;

/**
 * Writes any number of arguments into a claimed event; the ring buffer publishes the slot afterwards, even if this
 * throws. A non-capturing lambda or a static instance allocates nothing per event.
 *
 * <pre>{@code
 * ring.publishEvent((event, sequence, args) -> event.fields = args.length, "a", "b");
 * }</pre>
 *
 * @param <E> the event type
 */
@FunctionalInterface
public interface EventTranslatorVararg<E> {
    /**
     * Fills the event.
     *
     * @param event the preallocated event of the claimed slot
     * @param sequence the slot's sequence
     * @param args the arguments
     */
    void translateTo(E event, long sequence, Object... args);
}

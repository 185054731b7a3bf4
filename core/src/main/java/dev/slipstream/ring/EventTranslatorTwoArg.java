package dev.slipstream.ring;

/**
 * Writes two arguments into a claimed event; the ring buffer publishes the slot afterwards, even if this
 * throws. A non-capturing lambda or a static instance allocates nothing per event.
 *
 * <pre>{@code
 * ring.publishEvent((event, sequence, id, qty) -> { event.id = id; event.qty = qty; }, 7L, 100);
 * }</pre>
 *
 * @param <E> the event type
 * @param <A> the first argument type
 * @param <B> the second argument type
 */
@FunctionalInterface
public interface EventTranslatorTwoArg<E, A, B> {
    /**
     * Fills the event.
     *
     * @param event the preallocated event of the claimed slot
     * @param sequence the slot's sequence
     * @param arg0 the first argument
     * @param arg1 the second argument
     */
    void translateTo(E event, long sequence, A arg0, B arg1);
}

package dev.slipstream.ring;

/**
 * Writes one argument into a claimed event; the ring buffer publishes the slot afterwards, even if this
 * throws. A non-capturing lambda or a static instance allocates nothing per event.
 *
 * <pre>{@code
 * static final EventTranslatorOneArg<Trade, Long> PRICE = (event, sequence, price) -> event.price = price;
 * ring.publishEvent(PRICE, 105L);
 * }</pre>
 *
 * @param <E> the event type
 * @param <A> the argument type
 */
@FunctionalInterface
public interface EventTranslatorOneArg<E, A> {
    /**
     * Fills the event.
     *
     * @param event the preallocated event of the claimed slot
     * @param sequence the slot's sequence
     * @param arg0 the argument
     */
    void translateTo(E event, long sequence, A arg0);
}

package dev.slipstream.ring;

/**
 * Writes three arguments into a claimed event; the ring buffer publishes the slot afterwards, even if this
 * throws. A non-capturing lambda or a static instance allocates nothing per event.
 *
 * <pre>{@code
 * ring.publishEvent((event, sequence, side, price, qty) -> event.set(side, price, qty), BUY, 101L, 10);
 * }</pre>
 *
 * @param <E> the event type
 * @param <A> the first argument type
 * @param <B> the second argument type
 * @param <C> the third argument type
 */
@FunctionalInterface
public interface EventTranslatorThreeArg<E, A, B, C> {
    /**
     * Fills the event.
     *
     * @param event the preallocated event of the claimed slot
     * @param sequence the slot's sequence
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param arg2 the third argument
     */
    void translateTo(E event, long sequence, A arg0, B arg1, C arg2);
}

package dev.slipstream.topology;

import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.EventTranslatorThreeArg;
import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.ring.EventTranslatorVararg;

/**
 * Forwards every {@link EventSink} method to one sink: how the pipeline publishes into its ring
 * without a delegating method of its own per signature.
 *
 * @param <E> the event type
 */
interface ForwardingEventSink<E> extends EventSink<E> {
    /**
     * Where the calls go.
     *
     * @return the sink
     */
    EventSink<E> sink();

    @Override
    default void publishEvent(final EventTranslator<E> translator) {
        sink().publishEvent(translator);
    }

    @Override
    default boolean tryPublishEvent(final EventTranslator<E> translator) {
        return sink().tryPublishEvent(translator);
    }

    @Override
    default <A> void publishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        sink().publishEvent(translator, arg0);
    }

    @Override
    default <A> boolean tryPublishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        return sink().tryPublishEvent(translator, arg0);
    }

    @Override
    default <A, B> void publishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        sink().publishEvent(translator, arg0, arg1);
    }

    @Override
    default <A, B> boolean tryPublishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        return sink().tryPublishEvent(translator, arg0, arg1);
    }

    @Override
    default <A, B, C> void publishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0, final B arg1, final C arg2) {
        sink().publishEvent(translator, arg0, arg1, arg2);
    }

    @Override
    default <A, B, C> boolean tryPublishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0, final B arg1, final C arg2) {
        return sink().tryPublishEvent(translator, arg0, arg1, arg2);
    }

    @Override
    default void publishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        sink().publishEvent(translator, args);
    }

    @Override
    default boolean tryPublishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        return sink().tryPublishEvent(translator, args);
    }

    @Override
    default void publishEvents(final EventTranslator<E>[] translators) {
        sink().publishEvents(translators);
    }

    @Override
    default void publishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        sink().publishEvents(translators, batchStartsAt, batchSize);
    }

    @Override
    default boolean tryPublishEvents(final EventTranslator<E>[] translators) {
        return sink().tryPublishEvents(translators);
    }

    @Override
    default boolean tryPublishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        return sink().tryPublishEvents(translators, batchStartsAt, batchSize);
    }

    @Override
    default <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        sink().publishEvents(translator, args);
    }

    @Override
    default <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt, final int batchSize, final A[] args) {
        sink().publishEvents(translator, batchStartsAt, batchSize, args);
    }

    @Override
    default <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        return sink().tryPublishEvents(translator, args);
    }

    @Override
    default <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt, final int batchSize, final A[] args) {
        return sink().tryPublishEvents(translator, batchStartsAt, batchSize, args);
    }

    @Override
    default <A, B> void publishEvents(final EventTranslatorTwoArg<E, A, B> translator, final A[] arg0, final B[] arg1) {
        sink().publishEvents(translator, arg0, arg1);
    }

    @Override
    default <A, B, C> void publishEvents(final EventTranslatorThreeArg<E, A, B, C> translator, final A[] arg0, final B[] arg1, final C[] arg2) {
        sink().publishEvents(translator, arg0, arg1, arg2);
    }

    @Override
    default void publishEvents(final EventTranslatorVararg<E> translator, final Object[]... args) {
        sink().publishEvents(translator, args);
    }
}

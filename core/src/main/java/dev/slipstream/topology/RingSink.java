package dev.slipstream.topology;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.ring.EventSink;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.EventTranslatorOneArg;
import dev.slipstream.ring.EventTranslatorThreeArg;
import dev.slipstream.ring.EventTranslatorTwoArg;
import dev.slipstream.ring.EventTranslatorVararg;

/**
 * A ring buffer seen as an {@link EventSink}. Once {@code RingBuffer} implements {@code EventSink}
 * itself, the pipeline forwards to its ring directly and this class goes.
 *
 * @param <E> the event type
 */
final class RingSink<E> implements EventSink<E> {
    private final RingBuffer<E> ring;

    RingSink(final RingBuffer<E> ring) {
        this.ring = ring;
    }

    @Override
    public void publishEvent(final EventTranslator<E> translator) {
        ring.publishEvent(translator);
    }

    @Override
    public boolean tryPublishEvent(final EventTranslator<E> translator) {
        return ring.tryPublishEvent(translator);
    }

    @Override
    public <A> void publishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        ring.publishEvent(translator, arg0);
    }

    @Override
    public <A> boolean tryPublishEvent(final EventTranslatorOneArg<E, A> translator, final A arg0) {
        return ring.tryPublishEvent(translator, arg0);
    }

    @Override
    public <A, B> void publishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        ring.publishEvent(translator, arg0, arg1);
    }

    @Override
    public <A, B> boolean tryPublishEvent(final EventTranslatorTwoArg<E, A, B> translator, final A arg0, final B arg1) {
        return ring.tryPublishEvent(translator, arg0, arg1);
    }

    @Override
    public <A, B, C> void publishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0, final B arg1, final C arg2) {
        ring.publishEvent(translator, arg0, arg1, arg2);
    }

    @Override
    public <A, B, C> boolean tryPublishEvent(final EventTranslatorThreeArg<E, A, B, C> translator, final A arg0, final B arg1, final C arg2) {
        return ring.tryPublishEvent(translator, arg0, arg1, arg2);
    }

    @Override
    public void publishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        ring.publishEvent(translator, args);
    }

    @Override
    public boolean tryPublishEvent(final EventTranslatorVararg<E> translator, final Object... args) {
        return ring.tryPublishEvent(translator, args);
    }

    @Override
    public void publishEvents(final EventTranslator<E>[] translators) {
        ring.publishEvents(translators);
    }

    @Override
    public void publishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        ring.publishEvents(translators, batchStartsAt, batchSize);
    }

    @Override
    public boolean tryPublishEvents(final EventTranslator<E>[] translators) {
        return ring.tryPublishEvents(translators);
    }

    @Override
    public boolean tryPublishEvents(final EventTranslator<E>[] translators, final int batchStartsAt, final int batchSize) {
        return ring.tryPublishEvents(translators, batchStartsAt, batchSize);
    }

    @Override
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        ring.publishEvents(translator, args);
    }

    @Override
    public <A> void publishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt, final int batchSize, final A[] args) {
        ring.publishEvents(translator, batchStartsAt, batchSize, args);
    }

    @Override
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final A[] args) {
        return ring.tryPublishEvents(translator, args);
    }

    @Override
    public <A> boolean tryPublishEvents(final EventTranslatorOneArg<E, A> translator, final int batchStartsAt, final int batchSize, final A[] args) {
        return ring.tryPublishEvents(translator, batchStartsAt, batchSize, args);
    }

    @Override
    public <A, B> void publishEvents(final EventTranslatorTwoArg<E, A, B> translator, final A[] arg0, final B[] arg1) {
        ring.publishEvents(translator, arg0, arg1);
    }

    @Override
    public <A, B, C> void publishEvents(final EventTranslatorThreeArg<E, A, B, C> translator, final A[] arg0, final B[] arg1, final C[] arg2) {
        ring.publishEvents(translator, arg0, arg1, arg2);
    }

    @Override
    public void publishEvents(final EventTranslatorVararg<E> translator, final Object[]... args) {
        ring.publishEvents(translator, args);
    }
}

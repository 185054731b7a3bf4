package dev.slipstream.ring;

/**
 * Where producers publish: claim a slot, let a translator fill it, publish it. Implemented by
 * {@link RingBuffer} and by the topology's pipeline, which delegates to its ring; code that only
 * publishes can take an {@code EventSink<E>} and work with either.
 *
 * <p>Accounting: a call that returns normally (or a {@code try...} that returns true) was
 * accepted, and a pipeline either hands the event to every stage or reports it as not handled
 * when it shuts down. Once the sink is closed (a ring closed, a pipeline shut down, halted or
 * stopped by a failure), a {@code publish...} call throws
 * {@link dev.slipstream.sequence.SequencerClosedException} and a {@code try...} call returns
 * false; neither was accepted. A loop that retries a {@code try...} until it succeeds should
 * stop when the ring {@link RingBuffer#isClosed() is closed}.
 *
 * <pre>{@code
 * void feed(EventSink<Order> sink, String line) {
 *     sink.publishEvent((order, seq, text) -> order.parse(text), line);
 * }
 * }</pre>
 *
 * @param <E> the event type
 */
public interface EventSink<E> {
    /**
     * Claims a slot, lets {@code translator} fill it and publishes it.
     *
     * @param translator writes the event
     */
    void publishEvent(EventTranslator<E> translator);

    /**
     * Publishes if there is space now.
     *
     * @param translator writes the event
     * @return false if there was no space or the sink is closed (nothing published)
     */
    boolean tryPublishEvent(EventTranslator<E> translator);

    /**
     * Claims a slot, fills it from one argument and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the argument
     * @param <A> the argument type
     */
    <A> void publishEvent(EventTranslatorOneArg<E, A> translator, A arg0);

    /**
     * Publishes from one argument if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the argument
     * @param <A> the argument type
     * @return false if there was no space or the sink is closed
     */
    <A> boolean tryPublishEvent(EventTranslatorOneArg<E, A> translator, A arg0);

    /**
     * Claims a slot, fills it from two arguments and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     */
    <A, B> void publishEvent(EventTranslatorTwoArg<E, A, B> translator, A arg0, B arg1);

    /**
     * Publishes from two arguments if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @return false if there was no space or the sink is closed
     */
    <A, B> boolean tryPublishEvent(EventTranslatorTwoArg<E, A, B> translator, A arg0, B arg1);

    /**
     * Claims a slot, fills it from three arguments and publishes it.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param arg2 the third argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     */
    <A, B, C> void publishEvent(EventTranslatorThreeArg<E, A, B, C> translator, A arg0, B arg1, C arg2);

    /**
     * Publishes from three arguments if there is space now.
     *
     * @param translator writes the event
     * @param arg0 the first argument
     * @param arg1 the second argument
     * @param arg2 the third argument
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     * @return false if there was no space or the sink is closed
     */
    <A, B, C> boolean tryPublishEvent(EventTranslatorThreeArg<E, A, B, C> translator, A arg0, B arg1, C arg2);

    /**
     * Claims a slot, fills it from any number of arguments and publishes it.
     *
     * @param translator writes the event
     * @param args the arguments
     */
    void publishEvent(EventTranslatorVararg<E> translator, Object... args);

    /**
     * Publishes from any number of arguments if there is space now.
     *
     * @param translator writes the event
     * @param args the arguments
     * @return false if there was no space or the sink is closed
     */
    boolean tryPublishEvent(EventTranslatorVararg<E> translator, Object... args);

    /**
     * Publishes one event per translator, as one batch.
     *
     * @param translators the translators
     */
    void publishEvents(EventTranslator<E>[] translators);

    /**
     * Publishes {@code batchSize} events from {@code translators[batchStartsAt ..]}, as one batch.
     *
     * @param translators the translators
     * @param batchStartsAt the first translator used
     * @param batchSize how many events
     */
    void publishEvents(EventTranslator<E>[] translators, int batchStartsAt, int batchSize);

    /**
     * Publishes the batch if there is space for all of it now.
     *
     * @param translators the translators
     * @return false if there was no room for the batch or the sink is closed
     */
    boolean tryPublishEvents(EventTranslator<E>[] translators);

    /**
     * Publishes {@code batchSize} events from {@code translators[batchStartsAt ..]} if there is
     * space for all of them now.
     *
     * @param translators the translators
     * @param batchStartsAt the first translator used
     * @param batchSize how many events
     * @return false if there was no room for the batch or the sink is closed
     */
    boolean tryPublishEvents(EventTranslator<E>[] translators, int batchStartsAt, int batchSize);

    /**
     * Publishes one event per argument, as one batch.
     *
     * @param translator writes each event
     * @param args one per event
     * @param <A> the argument type
     */
    <A> void publishEvents(EventTranslatorOneArg<E, A> translator, A[] args);

    /**
     * Publishes {@code batchSize} events from {@code args[batchStartsAt ..]}, as one batch.
     *
     * @param translator writes each event
     * @param batchStartsAt the first argument used
     * @param batchSize how many events
     * @param args the arguments
     * @param <A> the argument type
     */
    <A> void publishEvents(EventTranslatorOneArg<E, A> translator, int batchStartsAt, int batchSize, A[] args);

    /**
     * Publishes one event per argument if there is space for all of them now.
     *
     * @param translator writes each event
     * @param args one per event
     * @param <A> the argument type
     * @return false if there was no room for the batch or the sink is closed
     */
    <A> boolean tryPublishEvents(EventTranslatorOneArg<E, A> translator, A[] args);

    /**
     * Publishes {@code batchSize} events from {@code args[batchStartsAt ..]} if there is space for
     * all of them now.
     *
     * @param translator writes each event
     * @param batchStartsAt the first argument used
     * @param batchSize how many events
     * @param args the arguments
     * @param <A> the argument type
     * @return false if there was no room for the batch or the sink is closed
     */
    <A> boolean tryPublishEvents(EventTranslatorOneArg<E, A> translator, int batchStartsAt, int batchSize,
                                 A[] args);

    /**
     * Publishes one event per pair of arguments, as one batch.
     *
     * @param translator writes each event
     * @param arg0 first arguments
     * @param arg1 second arguments, as many
     * @param <A> the first argument type
     * @param <B> the second argument type
     */
    <A, B> void publishEvents(EventTranslatorTwoArg<E, A, B> translator, A[] arg0, B[] arg1);

    /**
     * Publishes one event per triple of arguments, as one batch.
     *
     * @param translator writes each event
     * @param arg0 first arguments
     * @param arg1 second arguments, as many
     * @param arg2 third arguments, as many
     * @param <A> the first argument type
     * @param <B> the second argument type
     * @param <C> the third argument type
     */
    <A, B, C> void publishEvents(EventTranslatorThreeArg<E, A, B, C> translator, A[] arg0, B[] arg1, C[] arg2);

    /**
     * Publishes one event per argument list, as one batch.
     *
     * @param translator writes each event
     * @param args one argument list per event
     */
    void publishEvents(EventTranslatorVararg<E> translator, Object[]... args);
}

package dev.slipstream.sequence;

/**
 * What a consumer waits on before it reads: the producer's cursor and the sequences of the
 * stages it depends on.
 *
 * <p>{@link #waitFor(long)} returns the highest sequence that is published <em>and</em>
 * processed by every upstream stage, which may be more than was asked for: the consumer then
 * processes the whole range as one batch. A barrier is alertable, which is how a waiting
 * consumer is told to stop.
 *
 * <pre>{@code
 * SequenceBarrier barrier = ringBuffer.newBarrier(upstream.getSequence());
 * long next = mySequence.get() + 1;
 * long available = barrier.waitFor(next);      // blocks per the wait strategy
 * for (long s = next; s <= available; s++) {
 *     handle(ringBuffer.get(s));
 * }
 * mySequence.set(available);                   // release: frees the slots for the producer
 * }</pre>
 */
public interface SequenceBarrier {
    /**
     * Waits until {@code sequence} is available to this consumer.
     *
     * @param sequence the sequence wanted
     * @return the highest contiguous available sequence, at least {@code sequence} unless the
     *     wait strategy timed out, in which case it may be lower
     * @throws AlertException if the barrier was alerted (the consumer should stop)
     * @throws InterruptedException if the waiting thread was interrupted
     * @throws TimeoutException if the wait strategy gave up waiting
     */
    long waitFor(long sequence) throws AlertException, InterruptedException, TimeoutException;

    /**
     * The highest sequence readable through this barrier without waiting: every event up to it
     * is published (and processed by the upstream stages, if there are any). Not for hot loops:
     * with many producers it scans availability flags.
     *
     * @return the highest readable sequence
     */
    long getCursor();

    /**
     * Whether the barrier has been alerted.
     *
     * @return true after {@link #alert()} and before {@link #clearAlert()}
     */
    boolean isAlerted();

    /** Alerts the barrier: a consumer waiting in {@link #waitFor(long)} wakes and throws. */
    void alert();

    /** Clears the alert so that the barrier can be waited on again. */
    void clearAlert();

    /**
     * Throws if the barrier is alerted; wait strategies call this inside their loops.
     *
     * @throws AlertException if the barrier is alerted
     */
    void checkAlert() throws AlertException;
}

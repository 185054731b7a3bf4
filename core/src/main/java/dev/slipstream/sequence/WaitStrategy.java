package dev.slipstream.sequence;

/**
 * How a consumer waits for a sequence to become available.
 *
 * <p>The trade-off is latency against CPU: a busy-spinning strategy reacts in nanoseconds but
 * burns a whole core while idle; a blocking one costs nothing while idle but needs a signal
 * (and a wake-up of a parked thread) per publication. Implementations live in
 * {@code dev.slipstream.wait}; the guide has a table of measured latency and CPU for each.
 *
 * <pre>{@code
 * WaitStrategy waitStrategy = new HybridWaitStrategy();   // spin, then yield, then park
 * RingBuffer<Event> ring = RingBuffer.createSingleProducer(Event::new, 1024, waitStrategy);
 * }</pre>
 */
public interface WaitStrategy {
    /**
     * Waits until the cursor has reached {@code sequence} and {@code dependentSequence} too.
     *
     * @param sequence the sequence wanted
     * @param cursor the producers' cursor; a blocking strategy waits on it being advanced
     * @param dependentSequence the sequence the caller depends on: the cursor itself, or the
     *     minimum of the upstream stages; a strategy must not return before it reaches
     *     {@code sequence}, and must not block forever on it either (upstream stages do not
     *     signal)
     * @param barrier the barrier waited on, polled with {@link SequenceBarrier#checkAlert()}
     * @return the value of {@code dependentSequence} seen, which may exceed {@code sequence};
     *     a timing-out strategy may instead throw {@link TimeoutException}
     * @throws AlertException if the barrier was alerted
     * @throws InterruptedException if the thread was interrupted while parked
     * @throws TimeoutException if the strategy gave up
     */
    long waitFor(long sequence, Sequence cursor, Sequence dependentSequence, SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException;

    /**
     * Called by producers after they publish: wakes consumers parked in
     * {@link #waitFor}. Strategies that never park make this a no-op.
     */
    void signalAllWhenBlocking();
}

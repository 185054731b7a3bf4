package dev.slipstream.processor;

import dev.slipstream.sequence.Sequence;

/**
 * A runnable stage that reads events from a ring and tracks its progress in a
 * {@link Sequence}. Run it on its own thread; {@link #halt()} stops it.
 *
 * <pre>{@code
 * EventProcessor processor = new BatchEventProcessor<>(ringBuffer, barrier, handler);
 * ringBuffer.addGatingSequences(processor.getSequence());
 * Thread thread = new Thread(processor, "journal");
 * thread.start();
 * ...
 * processor.halt();
 * thread.join();
 * }</pre>
 */
public interface EventProcessor extends Runnable {
    /**
     * The sequence of the last event this processor finished with.
     *
     * @return its sequence, to gate producers or downstream stages on
     */
    Sequence getSequence();

    /** Stops the processor after the event it is handling now. */
    void halt();

    /**
     * Whether {@link #run()} is executing.
     *
     * @return true while running
     */
    boolean isRunning();
}

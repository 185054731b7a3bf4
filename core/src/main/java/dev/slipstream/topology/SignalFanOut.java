package dev.slipstream.topology;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.TimeoutException;
import dev.slipstream.sequence.WaitStrategy;
import java.util.Arrays;

/**
 * The ring's wait strategy as the pipeline sees it: waits with the configured strategy, and when
 * producers signal, also signals the strategies of stages that wait their own way. Without such
 * stages the extra cost per publication is one load of an empty array.
 */
final class SignalFanOut implements WaitStrategy {
    private static final WaitStrategy[] NONE = new WaitStrategy[0];

    private final WaitStrategy primary;
    /** Copy on write under the pipeline's lock; producers read a stable array. */
    private volatile WaitStrategy[] extra = NONE;

    SignalFanOut(final WaitStrategy primary) {
        this.primary = primary;
    }

    WaitStrategy primary() {
        return primary;
    }

    /** Adds a stage's strategy; called under the pipeline's lock. */
    void add(final WaitStrategy strategy) {
        final WaitStrategy[] current = extra;
        final WaitStrategy[] updated = Arrays.copyOf(current, current.length + 1);
        updated[current.length] = strategy;
        // volatile store: producers that read the new array signal the new strategy too
        extra = updated;
    }

    /** Removes one occurrence of a stage's strategy; called under the pipeline's lock. */
    void remove(final WaitStrategy strategy) {
        final WaitStrategy[] current = extra;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == strategy) {
                final WaitStrategy[] updated = new WaitStrategy[current.length - 1];
                System.arraycopy(current, 0, updated, 0, i);
                System.arraycopy(current, i + 1, updated, i, current.length - i - 1);
                extra = updated;
                return;
            }
        }
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier)
            throws AlertException, InterruptedException, TimeoutException {
        return primary.waitFor(sequence, cursor, dependentSequence, barrier);
    }

    @Override
    public void signalAllWhenBlocking() {
        primary.signalAllWhenBlocking();
        final WaitStrategy[] others = extra;
        for (int i = 0; i < others.length; i++) {
            others[i].signalAllWhenBlocking();
        }
    }

    @Override
    public String toString() {
        return primary.toString();
    }
}

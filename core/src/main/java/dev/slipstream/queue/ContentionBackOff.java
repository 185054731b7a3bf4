package dev.slipstream.queue;

/**
 * The pause of a thread that lost a step to another thread, for the queues' back-off candidates
 * ({@link LprqQueue.Contention#BACK_OFF}, {@link SlotSequenceQueue#backingOff(int)}): it spins on
 * nothing shared, so that the lines the threads fight over stay with the thread that won, as a
 * queued lock's waiter spins on its own line.
 */
final class ContentionBackOff {
    /** The most spins of one pause (1, 2, 4 ... up to this): about a contended cache miss per doubling. */
    static final int MAX_SPINS = 64;

    private ContentionBackOff() {
    }

    /**
     * Spins {@code 2^(failures - 1)} pauses, at most {@link #MAX_SPINS}.
     *
     * @param failures the steps this thread has lost in a row, from 1
     */
    static void pause(final int failures) {
        final int spins = Math.min(MAX_SPINS, 1 << Math.min(failures - 1, 30));
        for (int i = 0; i < spins; i++) {
            Thread.onSpinWait();
        }
    }
}

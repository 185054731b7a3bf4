package dev.slipstream.wait;

/**
 * One consumer thread's adaptive spin and yield windows for {@link HybridWaitStrategy}: how long
 * it spins, then yields, before it parks. Plain fields: only the owning thread reads and writes
 * them.
 *
 * <p>The rule is the one of optimistic spinning: a wait that ended while spinning says spinning
 * pays, so the next wait may spin twice as long as this one needed (at least the current window);
 * a wait that ended only after parking says it did not, so both windows halve. Yields succeed
 * in between: they keep the spin window and grow the yield window a little.
 */
final class SpinWindow {
    /** The smallest spin window: a few hundred nanoseconds, which a park costs anyway. */
    static final int MIN_SPINS = 32;
    /** The smallest yield window. */
    static final int MIN_YIELDS = 1;

    int spins;
    int yields;

    SpinWindow() {
        // start small: a new consumer has no evidence that spinning pays
        spins = MIN_SPINS;
        yields = MIN_YIELDS;
    }

    /**
     * Adjusts the windows after a wait that ended.
     *
     * @param parked whether the wait had to park
     * @param yielded whether it got as far as yielding
     * @param maxSpins the strategy's largest spin window
     * @param maxYields the strategy's largest yield window
     */
    void learn(final boolean parked, final boolean yielded, final int maxSpins, final int maxYields) {
        if (parked) {
            spins = Math.max(MIN_SPINS, spins >>> 1);
            yields = Math.max(MIN_YIELDS, yields >>> 1);
        } else if (yielded) {
            // the event came soon after the spin window: a larger spin window would have caught it
            spins = (int) Math.min(maxSpins, (long) spins << 1);
            yields = Math.min(maxYields, yields + 1);
        } else {
            spins = (int) Math.min(maxSpins, spins + (spins >>> 1) + 1L);
        }
    }
}

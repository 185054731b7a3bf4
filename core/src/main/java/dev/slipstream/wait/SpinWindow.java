package dev.slipstream.wait;

/**
 * One consumer thread's adaptive spin and yield windows for {@link HybridWaitStrategy}: how long
 * it spins, then yields, before it parks. Plain fields: only the owning thread reads and writes
 * them.
 *
 * <p>The rule is the one of optimistic spinning: a wait that ended while spinning says spinning
 * pays, so the next wait may spin half as long again; a wait that ended only after parking, later
 * than the longest spin allowed, says it did not, so both windows halve; a wait that parked but
 * ended within the longest spin says the window was too small, so it opens fully. A wait that
 * ended while yielding doubles the spin window and grows the yield window a little.
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
     * Lowers the spin window to {@code spins} if it is larger: what a wait could spin before
     * its time ran out.
     *
     * @param spins the spins that fit in the strategy's longest spin
     */
    void clamp(final int spins) {
        this.spins = Math.max(MIN_SPINS, Math.min(this.spins, spins));
    }

    /**
     * Adjusts the windows after a wait that ended.
     *
     * @param parked whether the wait had to park
     * @param yielded whether it got as far as yielding
     * @param brief whether a wait that parked ended within the strategy's longest spin: a window
     *     as large as allowed would have caught its event
     * @param maxSpins the strategy's largest spin window
     * @param maxYields the strategy's largest yield window
     */
    void learn(final boolean parked, final boolean yielded, final boolean brief, final int maxSpins,
               final int maxYields) {
        if (parked && brief) {
            // the park was a mistake: open the window (the strategy's time bound clamps it to
            // what the longest spin covers on this CPU at the next wait that spins that long)
            spins = maxSpins;
        } else if (parked) {
            spins = Math.max(MIN_SPINS, spins >>> 1);
            yields = Math.max(MIN_YIELDS, yields >>> 1);
        } else if (yielded) {
            // the event came soon after the spin window: a larger spin window would have caught it
            spins = (int) Math.min(maxSpins, (long) spins << 1);
            yields = Math.min(maxYields, yields + 1);
        } else {
            // long arithmetic: a window near Integer.MAX_VALUE grows to the largest, not past the sign
            spins = (int) Math.min(maxSpins, (long) spins + (spins >>> 1) + 1L);
        }
    }
}

package dev.slipstream.sequence;

import java.util.concurrent.locks.LockSupport;

/**
 * How a thread with nothing to do waits before it looks again: a bounded number of spins
 * ({@link Thread#onSpinWait()}), then a bounded number of yields ({@link Thread#yield()}), then
 * parks ({@link LockSupport#parkNanos(Object, long)}) that start at {@code minParkNanos} and
 * double up to {@code maxParkNanos}. Every back-off in the library is one of these, with its
 * bounds named where it is made.
 *
 * <p>The state is the number of attempts since the last reset; the phase follows from it:
 * <pre>
 *   attempt:  0 .. spins-1 | spins .. spins+yields-1 | spins+yields ...
 *   phase:    SPIN         | YIELD                   | PARK (min, 2 min, 4 min, ... max, max, ...)
 * </pre>
 * A back-off whose park bounds are both 0 has no park of its own: in its park phase it yields.
 *
 * <p>Two ways to use one:
 * <ul>
 *   <li><b>Owned</b> by one thread, which keeps its state in it: {@link #idle(int)} with the work
 *   it just found (any work resets it), or {@link #idle()} and {@link #reset()}; {@link
 *   #spinOrYield()} for a thread that parks its own way (a wake-up protocol) once the spins and
 *   yields are spent. Plain fields: not for two threads at once.</li>
 *   <li><b>Shared</b>, by a strategy that many threads call, each with its own count of
 *   attempts: {@link #idleAt(long)}, or {@link #idleAt(long, long)} for a wait with a deadline.
 *   It reads only final fields and is safe from any thread.</li>
 * </ul>
 * No method allocates.
 *
 * <pre>{@code
 * Backoff backoff = new Backoff(100, 10, 1_000, 100_000);   // owned by this thread
 * while (running) {
 *     int work = poll();
 *     backoff.idle(work);          // work found: reset; none: spin, then yield, then park
 * }
 *
 * static final Backoff ON_FULL = new Backoff(100, 10, 1_000, 100_000);  // shared
 * ProducerWaitStrategy onFull = attempt -> ON_FULL.idleAt(attempt);
 * }</pre>
 */
public final class Backoff {
    /** What a back-off does at an attempt. */
    public enum Phase {
        /** One {@link Thread#onSpinWait()}. */
        SPIN,
        /** One {@link Thread#yield()}. */
        YIELD,
        /** One park (or, for a back-off without parks, one yield). */
        PARK
    }

    private final int spins;
    private final int yields;
    private final long minParkNanos;
    private final long maxParkNanos;
    /** The first attempt that parks: spins + yields, in a long so that two large counts cannot overflow. */
    private final long parkFrom;
    /** How many times the first park doubles before it reaches the longest. */
    private final int doublings;
    /** Attempts since the last reset; plain: only the owning thread reads and writes it. */
    private long attempts;

    /**
     * Creates a back-off with these bounds.
     *
     * @param spins attempts that spin, {@code >= 0}
     * @param yields attempts that yield after the spins, {@code >= 0}
     * @param minParkNanos the first park, {@code > 0}; or 0, with {@code maxParkNanos} 0, for a
     *     back-off that yields instead of parking
     * @param maxParkNanos the longest park, {@code >= minParkNanos}; 0 only with {@code minParkNanos} 0
     * @throws IllegalArgumentException naming the bound that is out of range
     */
    public Backoff(final int spins, final int yields, final long minParkNanos, final long maxParkNanos) {
        if (spins < 0) {
            throw new IllegalArgumentException("spins must be >= 0, got " + spins);
        }
        if (yields < 0) {
            throw new IllegalArgumentException("yields must be >= 0, got " + yields);
        }
        if (minParkNanos < 0 || maxParkNanos < minParkNanos || (minParkNanos == 0) != (maxParkNanos == 0)) {
            throw new IllegalArgumentException("parks must satisfy 0 < minParkNanos <= maxParkNanos (or both 0 for"
                    + " no park), got minParkNanos " + minParkNanos + ", maxParkNanos " + maxParkNanos);
        }
        this.spins = spins;
        this.yields = yields;
        this.minParkNanos = minParkNanos;
        this.maxParkNanos = maxParkNanos;
        this.parkFrom = (long) spins + yields;
        int k = 0;
        for (long park = minParkNanos; park > 0 && park < maxParkNanos; park <<= 1) {
            k++;
        }
        this.doublings = k;
    }

    // ====================================================================== owned by one thread

    /**
     * Resets if the caller found work, else waits one step: the loop of a thread that polls.
     *
     * @param workCount what the caller's last look found; {@code > 0} resets, else one step
     */
    public void idle(final int workCount) {
        if (workCount > 0) {
            // Stored only when it changes: a busy thread calls this after every step, and a store
            // per step, even of the same zero, takes the line from every other core that reads an
            // object the allocator placed beside this one (a producer, say: a cache miss per step).
            if (attempts != 0) {
                attempts = 0;
            }
        } else {
            idle();
        }
    }

    /** Waits one step (spin, yield or park, as the attempts so far say) and counts it. */
    public void idle() {
        idleAt(attempts++, Long.MAX_VALUE);
    }

    /**
     * Spins or yields one step if the spins and yields are not yet spent, for a thread that
     * parks in its own way after them (a wake-up protocol); never parks.
     *
     * @return true if it waited a step; false if the next step would park (nothing done)
     */
    public boolean spinOrYield() {
        if (attempts >= parkFrom) {
            return false;
        }
        idleAt(attempts++, Long.MAX_VALUE);
        return true;
    }

    /** Starts again with the spins: the thread found work. */
    public void reset() {
        attempts = 0;
    }

    /**
     * What the next {@link #idle()} does.
     *
     * @return its phase
     */
    public Phase phase() {
        return phaseAt(attempts);
    }

    /**
     * How long the next {@link #idle()} parks.
     *
     * @return nanoseconds, or 0 if it spins or yields
     */
    public long nextParkNanos() {
        return parkNanosAt(attempts);
    }

    // ============================================================================ shared, stateless

    /**
     * Waits one step of this back-off at the given attempt, for a caller that counts its own
     * attempts (a strategy many threads share). Reads only final fields.
     *
     * @param attempt attempts the caller made before this one; a negative count (a counter
     *     that wrapped) parks the longest
     * @return the phase it waited in
     */
    public Phase idleAt(final long attempt) {
        return idleAt(attempt, Long.MAX_VALUE);
    }

    /**
     * As {@link #idleAt(long)}, with a park of at most {@code maxNanos} (what is left to a
     * deadline); no park if it is not positive.
     *
     * @param attempt attempts the caller made before this one
     * @param maxNanos the longest this park may last
     * @return the phase it waited in
     */
    public Phase idleAt(final long attempt, final long maxNanos) {
        final Phase phase = phaseAt(attempt);
        if (phase == Phase.SPIN) {
            Thread.onSpinWait();
        } else if (phase == Phase.YIELD || maxParkNanos == 0) {
            Thread.yield();
        } else if (maxNanos > 0) {
            LockSupport.parkNanos(this, Math.min(maxNanos, parkNanosAt(attempt)));
        }
        return phase;
    }

    /**
     * The phase of an attempt.
     *
     * @param attempt attempts made before this one
     * @return its phase
     */
    public Phase phaseAt(final long attempt) {
        if (attempt < 0 || attempt >= parkFrom) {
            return Phase.PARK;
        }
        return attempt < spins ? Phase.SPIN : Phase.YIELD;
    }

    /**
     * How long the park of an attempt lasts.
     *
     * @param attempt attempts made before this one
     * @return nanoseconds, or 0 if that attempt spins or yields (or the back-off has no park)
     */
    public long parkNanosAt(final long attempt) {
        if (phaseAt(attempt) != Phase.PARK) {
            return 0L;
        }
        final long parks = attempt - parkFrom;
        return parks < 0 || parks >= doublings ? maxParkNanos : minParkNanos << parks;
    }

    @Override
    public String toString() {
        return spins + " spins, " + yields + " yields, "
                + (maxParkNanos == 0 ? "then yields"
                : minParkNanos == maxParkNanos ? "then parks of " + maxParkNanos + " ns"
                : "then parks of " + minParkNanos + " ns doubling up to " + maxParkNanos + " ns");
    }
}

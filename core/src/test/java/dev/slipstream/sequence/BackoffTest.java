package dev.slipstream.sequence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.sequence.Backoff.Phase;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {
    /** The phase and park length of each of the next {@code steps} idles, taking them. */
    private static List<String> walk(final Backoff backoff, final int steps) {
        final List<String> seen = new ArrayList<>();
        for (int i = 0; i < steps; i++) {
            seen.add(backoff.phase() == Phase.PARK ? "PARK " + backoff.nextParkNanos() : backoff.phase().name());
            backoff.idle();
        }
        return seen;
    }

    @Test
    void spinsThenYieldsThenParksThatDoubleUpToTheLongest() {
        final Backoff backoff = new Backoff(2, 3, 1, 6);
        assertEquals(List.of("SPIN", "SPIN", "YIELD", "YIELD", "YIELD", "PARK 1", "PARK 2", "PARK 4", "PARK 6",
                "PARK 6"), walk(backoff, 10));
    }

    @Test
    void resetAndWorkStartAgainWithTheSpins() {
        final Backoff backoff = new Backoff(1, 1, 1, 1);
        walk(backoff, 3);
        assertEquals(Phase.PARK, backoff.phase());
        backoff.reset();
        assertEquals(Phase.SPIN, backoff.phase());
        backoff.idle(0);
        assertEquals(Phase.YIELD, backoff.phase(), "no work: one step");
        backoff.idle(5);
        assertEquals(Phase.SPIN, backoff.phase(), "work found: reset");
    }

    @Test
    void spinOrYieldStopsBeforeTheFirstPark() {
        final Backoff backoff = new Backoff(2, 1, 0, 0);
        assertTrue(backoff.spinOrYield());
        assertTrue(backoff.spinOrYield());
        assertTrue(backoff.spinOrYield());
        assertFalse(backoff.spinOrYield(), "the spins and the yield are spent");
        assertFalse(backoff.spinOrYield(), "and stay spent until a reset");
        backoff.reset();
        assertTrue(backoff.spinOrYield());
    }

    @Test
    void aBackoffWithoutParksYieldsInItsParkPhase() {
        final Backoff backoff = new Backoff(1, 0, 0, 0);
        assertEquals(List.of("SPIN", "PARK 0", "PARK 0"), walk(backoff, 3));
        assertEquals(Phase.PARK, backoff.idleAt(7));
    }

    @Test
    void theSharedFormFollowsTheCallersCountAndKeepsNoState() {
        final Backoff backoff = new Backoff(1, 1, 1, 1);
        assertEquals(Phase.SPIN, backoff.idleAt(0));
        assertEquals(Phase.YIELD, backoff.idleAt(1));
        assertEquals(Phase.PARK, backoff.idleAt(2));
        assertEquals(Phase.PARK, backoff.idleAt(-1), "a counter that wrapped parks");
        assertEquals(Phase.PARK, backoff.idleAt(Long.MAX_VALUE));
        assertEquals(Phase.PARK, backoff.idleAt(2, 0), "no time left: the park is skipped");
        assertEquals(Phase.SPIN, backoff.phase(), "the owned state did not move");
    }

    @Test
    void countsThatAddUpPastAnIntStillSpinThenYield() {
        final Backoff backoff = new Backoff(Integer.MAX_VALUE, Integer.MAX_VALUE, 1, 1);
        assertEquals(Phase.SPIN, backoff.phaseAt(Integer.MAX_VALUE - 1L));
        assertEquals(Phase.YIELD, backoff.phaseAt(Integer.MAX_VALUE + 5L));
        assertEquals(Phase.PARK, backoff.phaseAt(2L * Integer.MAX_VALUE));
    }

    @Test
    void theLongestParkIsReachedWithoutOverflow() {
        final Backoff backoff = new Backoff(0, 0, 3, Long.MAX_VALUE);
        assertEquals(3L << 61, backoff.parkNanosAt(61));
        assertEquals(Long.MAX_VALUE, backoff.parkNanosAt(62));
        assertEquals(Long.MAX_VALUE, backoff.parkNanosAt(1_000));
        assertEquals(0L, new Backoff(1, 0, 5, 5).parkNanosAt(0), "a spin does not park");
    }

    @Test
    void describesItsBounds() {
        assertEquals("100 spins, 10 yields, then parks of 1000 ns doubling up to 100000 ns",
                new Backoff(100, 10, 1_000, 100_000).toString());
        assertEquals("16 spins, 16 yields, then parks of 10000 ns", new Backoff(16, 16, 10_000, 10_000).toString());
        assertEquals("64 spins, 0 yields, then yields", new Backoff(64, 0, 0, 0).toString());
    }

    @Test
    void refusesBoundsOutOfRangeNamingThem() {
        assertMessage("spins must be >= 0, got -1", () -> new Backoff(-1, 0, 1, 1));
        assertMessage("yields must be >= 0, got -2", () -> new Backoff(0, -2, 1, 1));
        assertMessage("got minParkNanos 5, maxParkNanos 4", () -> new Backoff(0, 0, 5, 4));
        assertMessage("got minParkNanos 0, maxParkNanos 4", () -> new Backoff(0, 0, 0, 4));
        assertMessage("got minParkNanos -1, maxParkNanos 4", () -> new Backoff(0, 0, -1, 4));
    }

    private static void assertMessage(final String expected, final Runnable construct) {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, construct::run);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}

package dev.slipstream.wait;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The adaptive windows of the hybrid strategy: grow while spinning pays, shrink when it does not. */
class SpinWindowTest {
    private static final int MAX_SPINS = 4_000;
    private static final int MAX_YIELDS = 50;

    @Test
    void startsSmall() {
        final SpinWindow window = new SpinWindow();
        assertEquals(SpinWindow.MIN_SPINS, window.spins);
        assertEquals(SpinWindow.MIN_YIELDS, window.yields);
    }

    @Test
    void growsToTheLargestWindowWhileEventsArriveInsideIt() {
        final SpinWindow window = new SpinWindow();
        int previous = window.spins;
        for (int i = 0; i < 40; i++) {
            window.learn(false, false, false, MAX_SPINS, MAX_YIELDS);
            assertTrue(window.spins >= previous, "a wait that ended while spinning never shrinks the window");
            previous = window.spins;
        }
        assertEquals(MAX_SPINS, window.spins);
    }

    @Test
    void anEventJustAfterTheSpinWindowDoublesIt() {
        final SpinWindow window = new SpinWindow();
        window.learn(false, true, false, MAX_SPINS, MAX_YIELDS);
        assertEquals(2 * SpinWindow.MIN_SPINS, window.spins);
        assertEquals(SpinWindow.MIN_YIELDS + 1, window.yields);
    }

    @Test
    void shrinksToTheFloorWhenWaitsKeepEndingInAPark() {
        final SpinWindow window = new SpinWindow();
        for (int i = 0; i < 40; i++) {
            window.learn(false, false, false, MAX_SPINS, MAX_YIELDS);
        }
        for (int i = 0; i < 3; i++) {
            window.learn(true, true, false, MAX_SPINS, MAX_YIELDS);
        }
        assertEquals(MAX_SPINS / 8, window.spins, "each parked wait halves the window");
        for (int i = 0; i < 20; i++) {
            window.learn(true, true, false, MAX_SPINS, MAX_YIELDS);
        }
        assertEquals(SpinWindow.MIN_SPINS, window.spins);
        assertEquals(SpinWindow.MIN_YIELDS, window.yields);
    }

    @Test
    void aParkThatEndedWithinTheLongestSpinOpensTheWindow() {
        final SpinWindow window = new SpinWindow();
        window.learn(true, true, true, MAX_SPINS, MAX_YIELDS);
        assertEquals(MAX_SPINS, window.spins, "a spin as long as allowed would have caught the event");
        assertEquals(SpinWindow.MIN_YIELDS, window.yields);
        window.learn(true, true, false, MAX_SPINS, MAX_YIELDS);
        assertEquals(MAX_SPINS / 2, window.spins, "a park after a longer wait halves it");
    }

    @Test
    void aClampLowersTheSpinWindowButNotBelowTheFloor() {
        final SpinWindow window = new SpinWindow();
        for (int i = 0; i < 40; i++) {
            window.learn(false, false, false, MAX_SPINS, MAX_YIELDS);
        }
        window.clamp(700);
        assertEquals(700, window.spins);
        window.clamp(5_000);
        assertEquals(700, window.spins, "a clamp never raises the window");
        window.clamp(1);
        assertEquals(SpinWindow.MIN_SPINS, window.spins);
    }

    @Test
    void aWindowAsLargeAsAnIntCanHoldStopsThere() {
        final SpinWindow window = new SpinWindow();
        for (int i = 0; i < 80; i++) {
            window.learn(false, false, false, Integer.MAX_VALUE, MAX_YIELDS);
            assertTrue(window.spins >= SpinWindow.MIN_SPINS, "the window never wraps to negative");
        }
        assertEquals(Integer.MAX_VALUE, window.spins);
        window.learn(false, true, false, Integer.MAX_VALUE, MAX_YIELDS);
        assertEquals(Integer.MAX_VALUE, window.spins);
    }

    @Test
    void neverExceedsTheStrategysLargestWindows() {
        final SpinWindow window = new SpinWindow();
        for (int i = 0; i < 100; i++) {
            window.learn(false, true, false, 100, 3);
        }
        assertEquals(100, window.spins);
        assertEquals(3, window.yields);
    }
}

package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LifecycleTest {

    @Test
    void aTransitionHappensOnlyFromTheStateItExpects() {
        final Lifecycle lifecycle = new Lifecycle("ingress", () -> { });
        assertEquals(Lifecycle.NEW, lifecycle.state());
        assertFalse(lifecycle.casState(Lifecycle.STARTED, Lifecycle.STOPPING), "not started yet");
        assertEquals(Lifecycle.NEW, lifecycle.state());
        assertTrue(lifecycle.casState(Lifecycle.NEW, Lifecycle.STARTED));
        assertFalse(lifecycle.casState(Lifecycle.NEW, Lifecycle.STARTED), "a second start");
        assertTrue(lifecycle.casState(Lifecycle.STARTED, Lifecycle.STOPPING));
        assertTrue(lifecycle.casState(Lifecycle.STOPPING, Lifecycle.HALTING));
        assertEquals("ingress (halting)", lifecycle.toString());
        lifecycle.setState(Lifecycle.STOPPED);
        assertFalse(lifecycle.casState(Lifecycle.STOPPING, Lifecycle.HALTING), "already stopped");
        assertEquals(Lifecycle.STOPPED, lifecycle.state());
    }

    @Test
    void ofAStopAndAHaltThatRaceExactlyOneWins() throws Exception {
        for (int round = 0; round < 200; round++) {
            final Lifecycle lifecycle = new Lifecycle("ingress", () -> { });
            lifecycle.setState(Lifecycle.STARTED);
            final CountDownLatch go = new CountDownLatch(1);
            final AtomicInteger wins = new AtomicInteger();
            final List<Thread> threads = new ArrayList<>();
            for (final int next : new int[] {Lifecycle.STOPPING, Lifecycle.HALTING}) {
                threads.add(new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (lifecycle.casState(Lifecycle.STARTED, next)) {
                        wins.incrementAndGet();
                    }
                }));
            }
            threads.forEach(Thread::start);
            go.countDown();
            for (final Thread t : threads) {
                t.join();
            }
            assertEquals(1, wins.get());
            assertTrue(lifecycle.state() == Lifecycle.STOPPING || lifecycle.state() == Lifecycle.HALTING);
        }
    }

    @Test
    void everyStateHasAName() {
        assertEquals(List.of("new", "started", "stopping", "halting", "stopped"),
                List.of(Lifecycle.stateName(Lifecycle.NEW), Lifecycle.stateName(Lifecycle.STARTED),
                        Lifecycle.stateName(Lifecycle.STOPPING), Lifecycle.stateName(Lifecycle.HALTING),
                        Lifecycle.stateName(Lifecycle.STOPPED)));
        assertEquals("no lifecycle state 7; expected 0 (new) to 4 (stopped)",
                assertThrows(IllegalArgumentException.class, () -> Lifecycle.stateName(7)).getMessage());
        assertEquals("pipeline 'orders' (new)", new Lifecycle("pipeline 'orders'", () -> { }).toString());
    }
}

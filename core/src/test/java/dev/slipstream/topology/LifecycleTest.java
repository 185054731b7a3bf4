package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
        assertEquals(RunState.NEW, lifecycle.state());
        assertFalse(lifecycle.casState(RunState.RUNNING, RunState.STOPPING), "not started yet");
        assertEquals(RunState.NEW, lifecycle.state());
        assertTrue(lifecycle.casState(RunState.NEW, RunState.RUNNING));
        assertFalse(lifecycle.casState(RunState.NEW, RunState.RUNNING), "a second start");
        assertTrue(lifecycle.casState(RunState.RUNNING, RunState.STOPPING));
        assertTrue(lifecycle.casState(RunState.STOPPING, RunState.HALTING));
        assertEquals("ingress (halting)", lifecycle.toString());
        lifecycle.setState(RunState.STOPPED);
        assertFalse(lifecycle.casState(RunState.STOPPING, RunState.HALTING), "already stopped");
        assertEquals(RunState.STOPPED, lifecycle.state());
    }

    @Test
    void ofAStopAndAHaltThatRaceExactlyOneWins() throws Exception {
        for (int round = 0; round < 200; round++) {
            final Lifecycle lifecycle = new Lifecycle("ingress", () -> { });
            lifecycle.setState(RunState.RUNNING);
            final CountDownLatch go = new CountDownLatch(1);
            final AtomicInteger wins = new AtomicInteger();
            final List<Thread> threads = new ArrayList<>();
            for (final RunState next : new RunState[] {RunState.STOPPING, RunState.HALTING}) {
                threads.add(new Thread(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (lifecycle.casState(RunState.RUNNING, next)) {
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
            assertTrue(lifecycle.state() == RunState.STOPPING || lifecycle.state() == RunState.HALTING);
        }
    }

    @Test
    void everyStateHasAName() {
        assertEquals(List.of("new", "running", "stopping", "halting", "stopped"),
                List.of(Lifecycle.stateName(RunState.NEW), Lifecycle.stateName(RunState.RUNNING),
                        Lifecycle.stateName(RunState.STOPPING), Lifecycle.stateName(RunState.HALTING),
                        Lifecycle.stateName(RunState.STOPPED)));
        assertEquals("pipeline 'orders' (new)", new Lifecycle("pipeline 'orders'", () -> { }).toString());
    }
}

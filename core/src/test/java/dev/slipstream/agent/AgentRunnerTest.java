package dev.slipstream.agent;

import dev.slipstream.sequence.Backoff;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class AgentRunnerTest {
    /** A fresh back-off per runner: a runner owns its back-off. */
    private static Backoff spin() {
        return new Backoff(1, 0, 0L, 0L);
    }

    /** An agent that records its calls and does what {@code step} says on each doWork. */
    private static final class Recording implements Agent {
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());
        final IntSupplier step;
        RuntimeException onStartFailure;
        RuntimeException onCloseFailure;
        int steps;

        Recording(final IntSupplier step) {
            this.step = step;
        }

        @Override
        public void onStart() {
            calls.add("onStart");
            if (onStartFailure != null) {
                throw onStartFailure;
            }
        }

        @Override
        public int doWork() {
            steps++;
            return step.getAsInt();
        }

        @Override
        public void onHaltRequested() {
            calls.add("onHaltRequested");
        }

        @Override
        public void onClose() {
            calls.add("onClose");
            if (onCloseFailure != null) {
                throw onCloseFailure;
            }
        }

        @Override
        public String roleName() {
            return "recording";
        }
    }

    @Test
    void anAgentThatIsDoneIsClosedAndTheRunnerStops() {
        final int[] left = {3};
        final Recording agent = new Recording(() -> --left[0] > 0 ? 1 : Agent.DONE);
        final AgentRunner runner = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);
        assertEquals(RunState.NEW, runner.state());
        assertFalse(runner.isRunning());
        assertNull(runner.thread());

        runner.run();

        assertEquals(3, agent.steps);
        assertEquals(List.of("onStart", "onClose"), agent.calls);
        assertEquals(RunState.STOPPED, runner.state());
        assertFalse(runner.isRunning());
        assertSame(Thread.currentThread(), runner.thread());
        assertNull(runner.failure());
    }

    @Test
    void theStateIsRunningDuringWorkAndStoppingDuringClose() {
        final AgentRunner[] self = new AgentRunner[1];
        final List<RunState> seen = new ArrayList<>();
        final Agent agent = new Agent() {
            @Override
            public int doWork() {
                seen.add(self[0].state());
                assertTrue(self[0].isRunning());
                return DONE;
            }

            @Override
            public void onClose() {
                seen.add(self[0].state());
                assertTrue(self[0].isRunning());
            }

            @Override
            public String roleName() {
                return "states";
            }
        };
        self[0] = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);
        self[0].run();
        assertEquals(List.of(RunState.RUNNING, RunState.STOPPING), seen);
    }

    @Test
    void aRunnerRunsOnce() {
        final AgentRunner runner = new AgentRunner(new Recording(() -> Agent.DONE), spin(), AgentErrorHandler.STOP);
        runner.run();
        final IllegalStateException again = assertThrows(IllegalStateException.class, runner::run);
        assertTrue(again.getMessage().contains("recording has already started once"), again.getMessage());
    }

    @Test
    void aSecondRunWhileRunningIsRefused() throws InterruptedException {
        final CountDownLatch working = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final Recording agent = new Recording(() -> {
            working.countDown();
            awaitQuietly(release);
            return Agent.DONE;
        });
        final AgentRunner runner = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);
        final Thread thread = new Thread(runner);
        thread.start();
        working.await();

        final IllegalStateException concurrent = assertThrows(IllegalStateException.class, runner::run);
        assertTrue(concurrent.getMessage().contains("is already running"), concurrent.getMessage());
        release.countDown();
        thread.join();
        assertEquals(1, agent.steps);
    }

    @Test
    void aHaltBeforeRunMakesRunReturnAtOnceWithoutTouchingTheAgent() {
        final Recording agent = new Recording(() -> 1);
        final AgentRunner runner = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);
        runner.halt();
        assertEquals(RunState.HALTING, runner.state());
        assertFalse(runner.isRunning());

        runner.run();

        assertEquals(List.of("onHaltRequested"), agent.calls);
        assertEquals(0, agent.steps);
        assertEquals(RunState.STOPPED, runner.state());
        assertThrows(IllegalStateException.class, runner::run);
    }

    /**
     * An agent whose step blocks until {@link Agent#onHaltRequested()} wakes it: a runner that
     * forgot the hook would never return.
     */
    private static final class BlockingAgent implements Agent {
        final CountDownLatch waiting = new CountDownLatch(1);
        final CountDownLatch wake = new CountDownLatch(1);
        final List<String> calls = Collections.synchronizedList(new ArrayList<>());

        @Override
        public int doWork() throws InterruptedException {
            calls.add("doWork");
            waiting.countDown();
            wake.await();
            return 0;
        }

        @Override
        public void onHaltRequested() {
            wake.countDown();
        }

        @Override
        public void onClose() {
            calls.add("onClose");
        }

        @Override
        public String roleName() {
            return "blocking";
        }
    }

    @Test
    void aHaltWakesAnAgentBlockedInItsWaitAndTheRunEndsAfterThatStep() throws InterruptedException {
        final BlockingAgent agent = new BlockingAgent();
        final AgentRunner runner = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);

        assertTrue(haltEndsABlockedRun(runner, agent, runner::halt), "the halted runner did not return");
        assertEquals(List.of("doWork", "onClose"), agent.calls);
        assertEquals(RunState.STOPPED, runner.state());
        assertNull(runner.failure());
    }

    /** The same check catches a halt that moves the state without waking the agent (SilentHaltRunner). */
    @Test
    @Tag("stress")
    void theCheckCatchesAHaltThatDoesNotWakeTheAgent() throws InterruptedException {
        final BlockingAgent agent = new BlockingAgent();
        final SilentHaltRunner mutant = new SilentHaltRunner(agent);
        try {
            assertFalse(haltEndsABlockedRun(mutant, agent, mutant::halt), "the mutant's agent should sleep on");
        } finally {
            // what the halt should have done, so that the thread ends
            agent.wake.countDown();
        }
    }

    /**
     * Starts {@code runner} on a thread, waits until its agent is blocked in its step, halts, and
     * says whether the thread ended within 5 s. The agent stays blocked until woken, so a halt that
     * does not wake it fails every time, not by chance.
     */
    private static boolean haltEndsABlockedRun(final Runnable runner, final BlockingAgent agent, final Runnable halt)
            throws InterruptedException {
        final Thread thread = new Thread(runner);
        thread.start();
        agent.waiting.await();
        halt.run();
        thread.join(TimeUnit.SECONDS.toMillis(5));
        return !thread.isAlive();
    }

    @Test
    void aHaltAfterTheRunIsANoOp() {
        final Recording agent = new Recording(() -> Agent.DONE);
        final AgentRunner runner = new AgentRunner(agent, spin(), AgentErrorHandler.STOP);
        runner.run();
        runner.halt();
        assertEquals(RunState.STOPPED, runner.state());
        assertEquals(List.of("onStart", "onClose"), agent.calls);
    }

    @Test
    void anErrorHandlerThatSaysContinueKeepsTheRunGoing() {
        final RuntimeException boom = new IllegalStateException("boom");
        final int[] call = {0};
        final Recording agent = new Recording(() -> {
            if (++call[0] <= 2) {
                throw boom;
            }
            return Agent.DONE;
        });
        final List<Throwable> handled = new ArrayList<>();
        final AgentRunner runner = new AgentRunner(agent, spin(), failure -> handled.add(failure));

        runner.run();

        assertEquals(3, agent.steps);
        assertEquals(List.of(boom, boom), handled);
        assertNull(runner.failure());
        assertEquals(List.of("onStart", "onClose"), agent.calls);
    }

    @Test
    void anErrorHandlerThatSaysStopEndsTheRunAndKeepsTheFailure() {
        final RuntimeException boom = new IllegalStateException("boom");
        final Recording agent = new Recording(() -> {
            throw boom;
        });
        final List<Throwable> handled = new ArrayList<>();
        final AgentRunner runner = new AgentRunner(agent, spin(), failure -> !handled.add(failure));

        runner.run();

        assertEquals(1, agent.steps);
        assertEquals(List.of(boom), handled);
        assertSame(boom, runner.failure());
        assertEquals(List.of("onStart", "onClose"), agent.calls);
        assertEquals(RunState.STOPPED, runner.state());
    }

    @Test
    void anErrorHandlerThatThrowsStopsTheRunWithItsThrowableSuppressed() {
        final RuntimeException boom = new IllegalStateException("boom");
        final RuntimeException broken = new IllegalArgumentException("handler broken");
        final Recording agent = new Recording(() -> {
            throw boom;
        });
        final AgentRunner runner = new AgentRunner(agent, spin(), failure -> {
            throw broken;
        });
        runner.run();
        assertSame(boom, runner.failure());
        assertSame(broken, boom.getSuppressed()[0]);
        assertEquals(1, agent.steps);
    }

    @Test
    void aFailedStartDoesNoWorkButStillCloses() {
        final Recording agent = new Recording(() -> 1);
        agent.onStartFailure = new IllegalStateException("not ready");
        final List<Throwable> handled = new ArrayList<>();
        // a handler that says continue: a failed start stops the run anyway
        final AgentRunner runner = new AgentRunner(agent, spin(), failure -> handled.add(failure));

        runner.run();

        assertEquals(0, agent.steps);
        assertEquals(List.of("onStart", "onClose"), agent.calls);
        assertSame(agent.onStartFailure, runner.failure());
        assertEquals(List.of(agent.onStartFailure), handled);
    }

    @Test
    void aFailedCloseIsTheFailureOrIsSuppressedIntoAnEarlierOne() {
        final Recording clean = new Recording(() -> Agent.DONE);
        clean.onCloseFailure = new IllegalStateException("close failed");
        final AgentRunner first = new AgentRunner(clean, spin(), AgentErrorHandler.STOP);
        first.run();
        assertSame(clean.onCloseFailure, first.failure());

        final RuntimeException boom = new IllegalStateException("boom");
        final Recording failing = new Recording(() -> {
            throw boom;
        });
        failing.onCloseFailure = new IllegalStateException("close failed too");
        final AgentRunner second = new AgentRunner(failing, spin(), AgentErrorHandler.STOP);
        second.run();
        assertSame(boom, second.failure());
        assertSame(failing.onCloseFailure, boom.getSuppressed()[0]);
    }

    @Test
    void anEmptyStepIdlesWithTheBackoffAndWorkResetsIt() {
        // attempt 0 spins, 1 yields, 2 and later park for 1 us
        final Backoff backoff = new Backoff(1, 1, 1_000L, 1_000L);
        final List<Backoff.Phase> phases = new ArrayList<>();
        final int[] results = {0, 0, 1, Agent.DONE};
        final int[] call = {0};
        final Agent agent = new Agent() {
            @Override
            public int doWork() {
                // what the next idle would do, as the runner left it after the previous step
                phases.add(backoff.phase());
                return results[call[0]++];
            }

            @Override
            public String roleName() {
                return "idler";
            }
        };
        new AgentRunner(agent, backoff, AgentErrorHandler.STOP).run();
        assertEquals(List.of(Backoff.Phase.SPIN, Backoff.Phase.YIELD, Backoff.Phase.PARK, Backoff.Phase.SPIN),
                phases);
    }

    @Test
    void nullArgumentsAreNamed() {
        final Agent agent = new Recording(() -> 0);
        assertTrue(assertThrows(NullPointerException.class, () -> new AgentRunner(null, spin(), AgentErrorHandler.STOP))
                .getMessage().startsWith("agent must not be null"));
        assertTrue(assertThrows(NullPointerException.class, () -> new AgentRunner(agent, null, AgentErrorHandler.STOP))
                .getMessage().startsWith("idle must not be null"));
        assertTrue(assertThrows(NullPointerException.class, () -> new AgentRunner(agent, spin(), null))
                .getMessage().startsWith("errorHandler must not be null"));
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

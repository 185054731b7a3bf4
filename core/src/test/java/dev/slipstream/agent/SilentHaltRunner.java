package dev.slipstream.agent;

import java.util.concurrent.atomic.AtomicReference;

/**
 * A seeded bug for {@link AgentRunnerTest}: {@link AgentRunner}'s loop and halt with the wake-up
 * left out of the halt. The state moves to {@code HALTING}, but {@link Agent#onHaltRequested()}
 * is never called, so an agent blocked in a wait is never woken and the loop never gets to look
 * at the state again.
 *
 * <pre>{@code
 * SilentHaltRunner mutant = new SilentHaltRunner(blockingAgent);
 * new Thread(mutant).start();
 * mutant.halt();          // moves the state; the blocked agent sleeps on
 * }</pre>
 */
final class SilentHaltRunner implements Runnable {
    private final Agent agent;
    private final AtomicReference<RunState> state = new AtomicReference<>(RunState.NEW);

    SilentHaltRunner(final Agent agent) {
        this.agent = agent;
    }

    @Override
    public void run() {
        if (!state.compareAndSet(RunState.NEW, RunState.RUNNING)) {
            state.compareAndSet(RunState.HALTING, RunState.STOPPED);
            return;
        }
        try {
            agent.onStart();
            while (state.get() == RunState.RUNNING) {
                if (agent.doWork() < 0) {
                    break;
                }
            }
            state.set(RunState.STOPPING);
            agent.onClose();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            state.set(RunState.STOPPED);
        }
    }

    /** The mutation: the state moves, the agent is not woken. */
    void halt() {
        RunState s;
        while ((s = state.get()) == RunState.NEW || s == RunState.RUNNING) {
            if (state.compareAndSet(s, RunState.HALTING)) {
                return;
            }
        }
    }
}

package dev.slipstream.topology;

import dev.slipstream.agent.RunState;
import dev.slipstream.queue.LscqBlockingQueue;
import dev.slipstream.queue.QueueClosedException;
import dev.slipstream.wait.BlockingWaitStrategy;

/**
 * A seeded bug for {@link UnboundedIngressTest}: the ingress's wait-and-stop protocol (the
 * sequencing thread waits for items in the queue's {@code take()} and ends when the closed queue
 * is drained; a stop marks the state and closes the queue) with the close left out of the stop.
 * A sequencing thread parked in {@code take()} is then never woken by the stop.
 *
 * <pre>{@code
 * SilentStopIngress mutant = new SilentStopIngress();
 * mutant.thread.start();
 * mutant.stop();          // marks stopping; the parked thread sleeps on
 * mutant.release();       // what the test does to end it
 * }</pre>
 */
final class SilentStopIngress {
    final LscqBlockingQueue<Long> queue = new LscqBlockingQueue<>(64, new BlockingWaitStrategy());
    final Lifecycle lifecycle = new Lifecycle("silent-stop ingress", () -> { });
    final Thread thread = new Thread(this::run, "silent-stop-ingress");

    SilentStopIngress() {
        lifecycle.setState(RunState.RUNNING);
    }

    private void run() {
        try {
            while (true) {
                queue.take();
            }
        } catch (QueueClosedException | InterruptedException stopped) {
            lifecycle.setState(RunState.STOPPED);
        }
    }

    /** The mutation: the state moves, the queue is not closed, so nothing wakes the thread. */
    void stop() {
        lifecycle.casState(RunState.RUNNING, RunState.STOPPING);
    }

    /** Ends the thread after the check: what the stop should have done. */
    void release() throws InterruptedException {
        queue.close();
        thread.join();
    }
}

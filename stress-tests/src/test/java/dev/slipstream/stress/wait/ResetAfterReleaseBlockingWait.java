package dev.slipstream.stress.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;

import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * MUTANT of {@link dev.slipstream.wait.BlockingWaitStrategy}: the signaller zeroes the sleeper
 * count after it has released the monitor instead of under it. A consumer woken by that signal
 * can count itself again and go back to sleep in between; the late zero erases its count, and
 * the next publish skips the monitor. Test code only: it shows that {@link WakeUpPingPongTest}
 * catches a lost wake-up of this protocol.
 */
final class ResetAfterReleaseBlockingWait implements WaitStrategy {
    private final Object mutex = new Object();
    private final AtomicLong sleepers = new AtomicLong();

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException, InterruptedException {
        if (cursor.get() < sequence) {
            synchronized (mutex) {
                while (true) {
                    sleepers.incrementAndGet();
                    VarHandle.fullFence();
                    if (cursor.getVolatile() >= sequence) {
                        sleepers.decrementAndGet();
                        break;
                    }
                    mutex.wait();
                }
            }
        }
        return dependentSequence.get();
    }

    @Override
    public void signalAllWhenBlocking() {
        VarHandle.fullFence();
        if (sleepers.get() != 0L) {
            synchronized (mutex) {
                mutex.notifyAll();
            }
            // BUG: zeroed after the monitor is released; the yield widens that window so a run on
            // few cores reaches it within seconds
            Thread.yield();
            sleepers.set(0L);
        }
    }
}

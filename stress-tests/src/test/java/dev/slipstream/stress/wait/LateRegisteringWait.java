package dev.slipstream.stress.wait;

import dev.slipstream.sequence.AlertException;
import dev.slipstream.sequence.Sequence;
import dev.slipstream.sequence.SequenceBarrier;
import dev.slipstream.sequence.WaitStrategy;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A seeded bug, to prove the wake-up tests can fail: the parking protocol of
 * {@code HybridWaitStrategy} with its order broken. The waiter checks the cursor first and only
 * then announces itself, so a producer that publishes in between sees nobody to wake and the
 * waiter parks with nobody left to unpark it. (The correct order is: announce, fence, re-check.)
 */
final class LateRegisteringWait implements WaitStrategy {
    private final AtomicInteger waiters = new AtomicInteger();
    private final ConcurrentLinkedQueue<Thread> parked = new ConcurrentLinkedQueue<>();

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
                        final SequenceBarrier barrier) throws AlertException {
        while (cursor.get() < sequence) {
            barrier.checkAlert();
            // BUG: the re-check above happens before the announcement below; the yield widens
            // that window so a run on few cores reaches it within seconds
            Thread.yield();
            final Thread self = Thread.currentThread();
            parked.add(self);
            waiters.incrementAndGet();
            LockSupport.park(this);
            waiters.decrementAndGet();
            parked.remove(self);
        }
        return dependentSequence.get();
    }

    @Override
    public void signalAllWhenBlocking() {
        VarHandle.fullFence();
        if (waiters.get() != 0) {
            for (final Thread thread : parked) {
                LockSupport.unpark(thread);
            }
        }
    }
}

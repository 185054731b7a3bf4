package dev.slipstream.stress.topology;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.wait.ProducerWaitStrategies;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * MUTANT: a pipeline (a then b) hand-wired on a real ring, stopped by a copy of the drain logic
 * that did not use the close fence: its target is the highest gap-free published sequence, with
 * a 2 ms grace period for late publications. A claim still being written when the ring closes is
 * missed: the result says clean while an accepted event is never handled. Test code only.
 */
final class OldDrainMutant implements ShutdownRace.Subject {
    private static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final RingBuffer<AccountEvent> ring;
    private final BatchEventProcessor<AccountEvent> a;
    private final BatchEventProcessor<AccountEvent> b;
    private final Thread ta;
    private final Thread tb;

    OldDrainMutant(final ProducerType type, final int ringSize, final StageLedger la, final StageLedger lb) {
        ring = RingBuffer.create(type, AccountEvent::new, ringSize, new YieldingWaitStrategy(),
                ProducerWaitStrategies.defaultStrategy());
        a = new BatchEventProcessor<>(ring, ring.newBarrier(), la);
        b = new BatchEventProcessor<>(ring, ring.newBarrier(a.getSequence()), lb);
        ring.addGatingSequences(b.getSequence());
        ta = new Thread(a, "mutant-a");
        tb = new Thread(b, "mutant-b");
        ta.start();
        tb.start();
    }

    @Override
    public void publish(final int producer, final long index) {
        ring.publishEvent(ShutdownRace.SlowTranslator::write, producer, index);
    }

    private long highestPublished() {
        final long cursor = ring.getCursor();
        final long lowest = Math.min(cursor, Math.min(a.getSequence().get(), b.getSequence().get()));
        if (lowest >= cursor) {
            return cursor;
        }
        return ring.sequencer().getHighestPublishedSequence(lowest + 1, cursor);
    }

    @Override
    public ShutdownRace.Report stop(final ShutdownRace.Stop how) throws InterruptedException {
        ring.close("mutant stopped");
        long target = highestPublished();   // the bug: not ring.closeFence()
        if (how == ShutdownRace.Stop.SHUTDOWN || how == ShutdownRace.Stop.CLOSE_FROM_ANOTHER_THREAD) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean inGrace = false;
            long graceDeadline = 0;
            while (System.nanoTime() < deadline) {
                if (a.getSequence().get() >= target && b.getSequence().get() >= target) {
                    final long later = highestPublished();
                    if (later > target) {
                        target = later;
                        continue;
                    }
                    if (ring.getCursor() <= target || inGrace && graceDeadline - System.nanoTime() <= 0) {
                        break;
                    }
                    if (!inGrace) {
                        inGrace = true;
                        graceDeadline = System.nanoTime() + GRACE_NANOS;
                    }
                }
                LockSupport.parkNanos(10_000L);
            }
        }
        a.halt();
        b.halt();
        ta.join(10_000);
        tb.join(10_000);
        final long leftA = Math.max(0, target - a.getSequence().get());
        final long leftB = Math.max(0, target - b.getSequence().get());
        return new ShutdownRace.Report(leftA == 0 && leftB == 0, !ta.isAlive() && !tb.isAlive(),
                new long[] {leftA, leftB});
    }
}

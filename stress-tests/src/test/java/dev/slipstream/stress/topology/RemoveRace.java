package dev.slipstream.stress.topology;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.SequencerClosedException;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageRemoval;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.ProducerWaitStrategies;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Removing a stage while three producers keep a small ring full: the removed stage must never
 * read a slot that producers overwrote under it (each event carries its own sequence, and the
 * stage checks it after a short delay), and the stage that stays must account for every accepted
 * event. The real pipeline against {@link RegateFirstMutant}, a copy of the removal that lets the
 * producers past the stage before it halts and joins it.
 */
final class RemoveRace {
    private static final int PRODUCERS = 3;
    private static final int RING = 16;

    /** Reads slowly and counts events whose slot was overwritten while it read them. */
    static final class OverwriteDetector implements EventHandler<AccountEvent> {
        long overwritten;
        long read;

        @Override
        public void onEvent(final AccountEvent event, final long sequence, final boolean endOfBatch) {
            // slow enough (a short park every fourth event) that producers waiting for space get a
            // core while it is inside a batch, even on a loaded two-core machine
            if ((sequence & 3) == 0) {
                LockSupport.parkNanos(20_000L);
            } else {
                for (int i = 0; i < 40; i++) {
                    Thread.onSpinWait();
                }
            }
            read++;
            // a plain read racing the producers on purpose: a later sequence means an overwrite
            if (event.sequence != sequence) {
                overwritten++;
            }
        }
    }

    interface Subject {
        void publish(int producer, long index);

        /** Removes the slow stage; false if it reported that it did not stop. */
        boolean removeVictim() throws InterruptedException;

        /** Shuts down; the staying stage's left count, or -1 if not terminated. */
        long shutdownLeft() throws InterruptedException;
    }

    interface Factory {
        Subject create(StageLedger stays, OverwriteDetector victim);
    }

    record Outcome(int rounds, long accepted, long victimRead, long overwritten, long lost, int notRemoved) {
        boolean exact() {
            return overwritten == 0 && lost == 0 && notRemoved == 0;
        }
    }

    private RemoveRace() {
    }

    static Outcome run(final Factory factory, final int rounds, final long budgetNanos, final long seed)
            throws InterruptedException {
        final SplittableRandom random = new SplittableRandom(seed);
        final long deadline = System.nanoTime() + budgetNanos;
        int done = 0;
        int notRemoved = 0;
        long accepted = 0;
        long read = 0;
        long overwritten = 0;
        long lost = 0;
        while (done < rounds && System.nanoTime() < deadline) {
            final StageLedger stays = new StageLedger(PRODUCERS);
            final OverwriteDetector victim = new OverwriteDetector();
            final Subject subject = factory.create(stays, victim);
            final long[] acceptedPer = new long[PRODUCERS];
            final List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < PRODUCERS; p++) {
                final int producer = p;
                final Thread t = new Thread(() -> {
                    long index = 0;
                    try {
                        while (index < 10_000_000) {
                            subject.publish(producer, index);
                            index++;
                        }
                    } catch (SequencerClosedException notAccepted) {
                        // not counted
                    }
                    acceptedPer[producer] = index;
                }, "remove-producer-" + p);
                threads.add(t);
                t.start();
            }
            LockSupport.parkNanos(random.nextLong(200_000, 2_000_000));
            if (!subject.removeVictim()) {
                notRemoved++;
            }
            LockSupport.parkNanos(random.nextLong(100_000, 1_000_000));
            final long left = subject.shutdownLeft();
            for (final Thread t : threads) {
                t.join(30_000);
            }
            long total = 0;
            for (final long n : acceptedPer) {
                total += n;
            }
            accepted += total;
            read += victim.read;
            overwritten += victim.overwritten;
            if (left >= 0) {
                lost += Math.abs(total - stays.handledAccepted(acceptedPer) - left) + stays.duplicates;
            }
            done++;
        }
        return new Outcome(done, accepted, read, overwritten, lost, notRemoved);
    }

    /** The real pipeline: {@code stays} and {@code victim} both read behind the producers. */
    static final class Real implements Subject {
        private final Slipstream<AccountEvent> pipeline;

        Real(final StageLedger stays, final OverwriteDetector victim) {
            pipeline = Slipstream.builder(AccountEvent::new).name("remove-race").ringSize(RING)
                    .producers(ProducerType.MULTI).waitStrategy(new YieldingWaitStrategy()).build();
            pipeline.handleEventsWith(StageSpec.of("stays", stays), StageSpec.of("victim", victim));
            pipeline.start();
        }

        @Override
        public void publish(final int producer, final long index) {
            pipeline.publishEvent(AccountEvent::set, producer, index);
        }

        @Override
        public boolean removeVictim() {
            final StageRemoval removal = pipeline.removeStage(pipeline.stage("victim"), Duration.ofSeconds(10));
            return removal.isRemoved();
        }

        @Override
        public long shutdownLeft() {
            final ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(10));
            return result.isTerminated() ? result.eventsLeft("stays") : -1;
        }
    }

    /**
     * MUTANT: the removal order this issue fixed: stop gating on the stage first, then halt and join
     * it. Producers waiting for space overwrite the batch it is still reading. Test code only.
     */
    static final class RegateFirstMutant implements Subject {
        private final RingBuffer<AccountEvent> ring;
        private final BatchEventProcessor<AccountEvent> stays;
        private final BatchEventProcessor<AccountEvent> victim;
        private final Thread staysThread;
        private final Thread victimThread;

        RegateFirstMutant(final StageLedger staysLedger, final OverwriteDetector detector) {
            ring = RingBuffer.create(ProducerType.MULTI, AccountEvent::new, RING, new YieldingWaitStrategy(),
                    ProducerWaitStrategies.defaultStrategy());
            stays = new BatchEventProcessor<>(ring, ring.newBarrier(), staysLedger);
            victim = new BatchEventProcessor<>(ring, ring.newBarrier(), detector);
            ring.addGatingSequences(stays.getSequence(), victim.getSequence());
            staysThread = new Thread(stays, "mutant-stays");
            victimThread = new Thread(victim, "mutant-victim");
            staysThread.start();
            victimThread.start();
        }

        @Override
        public void publish(final int producer, final long index) {
            ring.publishEvent(AccountEvent::set, producer, index);
        }

        @Override
        public boolean removeVictim() throws InterruptedException {
            ring.removeGatingSequence(victim.getSequence());   // the bug: re-gate first
            victim.halt();
            victimThread.join(TimeUnit.SECONDS.toMillis(10));
            return !victimThread.isAlive();
        }

        @Override
        public long shutdownLeft() throws InterruptedException {
            ring.close("mutant stopped");
            final long fence = ring.closeFence();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (stays.getSequence().get() < fence && System.nanoTime() < deadline) {
                LockSupport.parkNanos(10_000L);
            }
            stays.halt();
            staysThread.join(10_000);
            return staysThread.isAlive() ? -1 : Math.max(0, fence - stays.getSequence().get());
        }
    }
}

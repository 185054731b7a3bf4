package dev.slipstream.stress.checksum;

import dev.slipstream.processor.BatchEventProcessor;
import dev.slipstream.ring.EventTranslator;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.sequence.WaitStrategy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Moves a bounded number of events from N producer threads through a real ring to one
 * {@link BatchEventProcessor} running a {@link ChecksumVerifier}, and hands the verifier back.
 * If the run does not finish in time, or a thread throws, it closes the ring and halts the
 * processor, so that no thread is left behind, and fails with how far it got.
 */
final class ChecksumRun {
    /** How a producer publishes: each exercises a different production path. */
    enum Publish {
        /** {@code publishEvent(translator)}. */
        TRANSLATOR,
        /** {@code next()}, {@code get}, {@code publish(seq)}. */
        SINGLE,
        /** {@code next(n)} with n cycling 1..8, {@code publish(lo, hi)}. */
        BATCH
    }

    private final RingBuffer<ChecksumEvent> ring;
    private final long perProducer;
    private final List<Publish> producers;
    private final ChecksumVerifier verifier;
    private final BatchEventProcessor<ChecksumEvent> processor;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private long elapsedNanos;

    ChecksumRun(final ProducerType type, final int ringSize, final WaitStrategy waitStrategy,
                final ProducerWaitStrategy onFull, final long perProducer, final List<Publish> producers) {
        this.ring = RingBuffer.create(type, ChecksumEvent::new, ringSize, waitStrategy, onFull);
        this.perProducer = perProducer;
        this.producers = List.copyOf(producers);
        this.verifier = new ChecksumVerifier(producers.size(), perProducer * producers.size() - 1);
        this.processor = new BatchEventProcessor<>(ring, ring.newBarrier(), verifier).setName("checksum");
        ring.addGatingSequences(processor.getSequence());
    }

    /**
     * Runs producers and consumer to the end.
     *
     * @param limit how long to wait before giving up
     * @return the consumer's verifier, read after its thread ended
     */
    ChecksumVerifier run(final Duration limit) throws InterruptedException {
        final long total = perProducer * producers.size();
        final CountDownLatch start = new CountDownLatch(1);
        final Thread consumer = thread("consumer", start, processor::run);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers.size(); p++) {
            final int id = p;
            threads.add(thread("producer-" + p, start, () -> produce(id, producers.get(id))));
        }
        consumer.start();
        threads.forEach(Thread::start);
        final long t0 = System.nanoTime();
        start.countDown();
        final long deadline = t0 + limit.toNanos();
        // Wait for the producers, then for the last event to be verified; stop early if a thread
        // threw (the others would then wait forever) or at the deadline.
        for (Thread t : threads) {
            while (t.isAlive() && failure.get() == null && System.nanoTime() < deadline) {
                t.join(100);
            }
        }
        while (failure.get() == null && !verifier.awaitLast(100, TimeUnit.MILLISECONDS)
                && System.nanoTime() < deadline) {
            // the processor is still catching up
        }
        elapsedNanos = System.nanoTime() - t0;
        final boolean finished = verifier.awaitLast(0, TimeUnit.MILLISECONDS);
        // Free every thread: producers waiting for space throw, the processor's wait is alerted.
        if (!finished) {
            ring.close("checksum run stopped");
        }
        processor.halt();
        threads.add(consumer);
        for (Thread t : threads) {
            t.join(10_000);
        }
        final Throwable thrown = failure.get() != null ? failure.get() : processor.getFailure();
        // After a halt the processor still ends its batch and releases it: the last sequence.
        final boolean released = processor.getSequence().get() == total - 1;
        if (thrown != null || !finished || consumer.isAlive() || !released) {
            throw new AssertionError((thrown != null ? thrown.getClass().getSimpleName() + " in a run thread"
                    : !finished ? "not finished after " + limit
                    : consumer.isAlive() ? "the processor did not stop after halt()"
                    : "the processor did not release its last batch")
                    + ": processor at sequence " + processor.getSequence().get() + " of " + (total - 1)
                    + ", cursor " + ring.getCursor() + ", events seen " + verifier.events()
                    + ", errors " + verifier.errors()
                    + (verifier.firstError() == null ? "" : " (first: " + verifier.firstError() + ")"), thrown);
        }
        return verifier;
    }

    /**
     * The wall time of the last run.
     *
     * @return milliseconds from start to the last thread's end
     */
    long elapsedMillis() {
        return TimeUnit.NANOSECONDS.toMillis(elapsedNanos);
    }

    private Thread thread(final String name, final CountDownLatch start, final ThrowingRunnable body) {
        final Thread t = new Thread(() -> {
            try {
                start.await();
                body.run();
            } catch (Throwable e) {
                // The first failure is the cause; later ones are usually the clean-up's close/alert.
                failure.compareAndSet(null, e);
            }
        }, "checksum-" + name);
        t.setDaemon(true);
        return t;
    }

    private void produce(final int id, final Publish style) {
        switch (style) {
            case TRANSLATOR -> {
                final CountingTranslator translator = new CountingTranslator(id);
                for (long i = 0; i < perProducer; i++) {
                    ring.publishEvent(translator);
                }
            }
            case SINGLE -> {
                for (long i = 0; i < perProducer; i++) {
                    final long seq = ring.next();
                    ring.get(seq).value = ChecksumEvent.encode(id, i);
                    ring.publish(seq);
                }
            }
            case BATCH -> {
                long i = 0;
                int n = 1;
                while (i < perProducer) {
                    final int batch = (int) Math.min(n, perProducer - i);
                    final long hi = ring.next(batch);
                    final long lo = hi - batch + 1;
                    for (long seq = lo; seq <= hi; seq++) {
                        ring.get(seq).value = ChecksumEvent.encode(id, i++);
                    }
                    ring.publish(lo, hi);
                    n = n == 8 ? 1 : n + 1;
                }
            }
            default -> throw new IllegalStateException("unknown style " + style);
        }
    }

    /** Writes the producer's next count; one instance per producer thread, so no allocation per event. */
    private static final class CountingTranslator implements EventTranslator<ChecksumEvent> {
        private final int producer;
        private long count;

        CountingTranslator(final int producer) {
            this.producer = producer;
        }

        @Override
        public void translateTo(final ChecksumEvent event, final long sequence) {
            event.value = ChecksumEvent.encode(producer, count++);
        }
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }
}

package dev.slipstream.processor;

import dev.slipstream.ring.RingBuffer;
import dev.slipstream.sequence.WaitStrategy;
import dev.slipstream.wait.BlockingWaitStrategy;

import java.util.concurrent.atomic.AtomicReference;

/** A ring of {@link LongEvent}s, one processor over it, and the thread that runs the processor. */
final class Fixture {
    final RingBuffer<LongEvent> ring;
    final BatchEventProcessor<LongEvent> processor;
    final AtomicReference<Throwable> uncaught = new AtomicReference<>();
    final AtomicReference<Boolean> interruptedAfterRun = new AtomicReference<>();
    private Thread thread;

    Fixture(final EventHandler<LongEvent> handler) {
        this(handler, new BlockingWaitStrategy(), 64);
    }

    Fixture(final EventHandler<LongEvent> handler, final WaitStrategy waitStrategy, final int ringSize) {
        ring = RingBuffer.createSingleProducer(LongEvent::new, ringSize, waitStrategy);
        processor = new BatchEventProcessor<>(ring, ring.newBarrier(), handler);
        ring.addGatingSequences(processor.getSequence());
    }

    /** Publishes values {@code from .. to - 1}, one event each. */
    Fixture publish(final long from, final long to) {
        for (long v = from; v < to; v++) {
            ring.publishEvent((event, sequence, value) -> event.value = value, v);
        }
        return this;
    }

    Fixture start() {
        thread = new Thread(() -> {
            try {
                processor.run();
            } finally {
                interruptedAfterRun.set(Thread.currentThread().isInterrupted());
            }
        }, "processor-under-test");
        thread.setUncaughtExceptionHandler((t, e) -> uncaught.set(e));
        thread.setDaemon(true);
        thread.start();
        return this;
    }

    Thread thread() {
        return thread;
    }

    /** Waits (bounded by the test's timeout) until the processor's sequence reaches {@code sequence}. */
    Fixture awaitSequence(final long sequence) {
        while (processor.getSequence().get() < sequence) {
            if (!thread.isAlive()) {
                throw new AssertionError("processor stopped at " + processor.getSequence().get()
                        + " before reaching " + sequence, uncaught.get());
            }
            Thread.yield();
        }
        return this;
    }

    /** Waits for the processor's thread to end on its own. */
    void join() throws InterruptedException {
        thread.join();
    }

    void haltAndJoin() throws InterruptedException {
        processor.halt();
        thread.join();
    }
}

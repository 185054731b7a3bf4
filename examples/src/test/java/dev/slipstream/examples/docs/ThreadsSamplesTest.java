package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.BusySpinWaitStrategy;
import java.time.Duration;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/threads-and-pinning.md, as written there (with a stand-in AffinityLock). */
class ThreadsSamplesTest {
    /** Each thread it makes holds a core (from an affinity library) for as long as it runs. */
    final class PinnedThreads implements ThreadFactory {
        private final Supplier<? extends AutoCloseable> acquireCore;   // e.g. AffinityLock::acquireCore

        PinnedThreads(Supplier<? extends AutoCloseable> acquireCore) {
            this.acquireCore = acquireCore;
        }

        @Override
        public Thread newThread(Runnable body) {
            Thread thread = new Thread(() -> {
                try (AutoCloseable core = acquireCore.get()) {          // released when the stage ends
                    body.run();
                } catch (Exception e) {
                    throw new IllegalStateException("could not release the core", e);
                }
            });
            thread.setDaemon(true);       // as the default factory's: a stuck stage cannot keep the JVM alive
            return thread;
        }
    }

    @Test
    void pinnedStage() throws Exception {
        final AtomicLong matched = new AtomicLong();
        final AtomicInteger heldWhileMatching = new AtomicInteger();
        final AtomicBoolean matcherOnDaemon = new AtomicBoolean();
        final EventHandler<Order> journal = (order, sequence, endOfBatch) -> { };
        final EventHandler<Order> matcher = (order, sequence, endOfBatch) -> {
            heldWhileMatching.set(AffinityLock.HELD.get());
            matcherOnDaemon.set(Thread.currentThread().isDaemon());
            matched.incrementAndGet();
        };
        Slipstream<Order> pipeline = Slipstream.builder(Order::new)
                .build();                                                      // most stages: the default daemon threads
        pipeline.handleEventsWith(StageSpec.of("journal", journal))           // unpinned, sleeps
                .then(StageSpec.of("match", matcher)
                        .threadFactory(new PinnedThreads(AffinityLock::acquireCore))   // the hot path, pinned
                        .waitStrategy(new BusySpinWaitStrategy()));
        pipeline.start();
        pipeline.publishEvent((order, sequence, id) -> order.set(id, 100, 1), 1L);
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertEquals(1, matched.get());
        assertEquals(1, heldWhileMatching.get());
        assertEquals(0, AffinityLock.HELD.get());
        assertTrue(matcherOnDaemon.get(), "PinnedThreads makes daemon threads");
    }
}

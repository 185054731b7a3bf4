package dev.slipstream.examples.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.BatchRewindStrategies;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandler;
import dev.slipstream.processor.RewindableException;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The code samples of docs/guide/lifecycle.md, as written there. */
class LifecycleSamplesTest {
    private final Support.Log log = new Support.Log();
    private final Support.DeadLetters deadLetters = new Support.DeadLetters();
    private final Support.Database database = new Support.Database();
    private final AtomicLong journalled = new AtomicLong();

    private Slipstream<Order> buildPipeline() {
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
        pipeline.handleEventsWith(StageSpec.of("journal", Support.<Order>counting(journalled)));
        return pipeline;
    }

    private static void publishAll(final Slipstream<Order> pipeline) {
        for (long i = 0; i < 1000; i++) {
            pipeline.publishEvent((order, sequence, id) -> order.set(id, 100, 1), i);
        }
    }

    @Test
    void closeAndShutdown() throws Exception {
        try (Slipstream<Order> pipeline = buildPipeline()) {
            pipeline.start();
            publishAll(pipeline);
        }   // close(): drain, stop, join, warn if not clean

        Slipstream<Order> pipeline = buildPipeline();     // or shut down yourself and look at the result
        pipeline.start();
        publishAll(pipeline);
        ShutdownResult result = pipeline.shutdown(Duration.ofSeconds(5));
        if (!result.isClean()) {
            log.warn(result.toString());   // "'orders' shut down in 5004 ms: NOT drained (target sequence 9999): journal left 12"
        }
        result.requireClean();             // or: throw IllegalStateException with that description
        assertEquals(2000, journalled.get());
        assertTrue(log.lines.isEmpty(), log.lines.toString());
    }

    @Test
    void exceptionHandler() throws Exception {
        ExceptionHandler<Order> deadLetter = new ExceptionHandler<>() {
            @Override
            public void handleEventException(Throwable ex, long sequence, Order order) {
                deadLetters.add(order.copy(), ex);            // copy: the slot is reused later
            }

            @Override
            public void handleOnStartException(Throwable ex) {
                throw new IllegalStateException("stage could not start", ex);   // stop the pipeline
            }

            @Override
            public void handleOnShutdownException(Throwable ex) {
                log.warn("stage did not shut down cleanly", ex);
            }
        };
        final Order order = new Order();
        order.set(7, 100, 1);
        deadLetter.handleEventException(new IllegalStateException("bad price"), 3, order);
        assertEquals(7, deadLetters.orders.get(0).id);
        assertThrows(IllegalStateException.class, () -> deadLetter.handleOnStartException(new RuntimeException()));
        deadLetter.handleOnShutdownException(new RuntimeException("late"));
        assertEquals(1, log.lines.size());
    }

    @Test
    void batchRewind() throws Exception {
        final Slipstream<Order> pipeline = Slipstream.builder(Order::new).name("orders").build();
        EventHandler<Order> writer = new EventHandler<>() {
            private final List<Order> batch = new ArrayList<>();

            @Override
            public void onEvent(Order order, long sequence, boolean endOfBatch) throws RewindableException {
                batch.add(order.copy());                  // copy: the slot is reused later
                if (endOfBatch) {
                    try {
                        database.insert(batch);           // one round trip per batch
                    } catch (SQLTransientException e) {
                        throw new RewindableException("insert failed, retrying the batch", e);
                    } finally {
                        batch.clear();                    // a rewind delivers the whole batch again
                    }
                }
            }
        };
        pipeline.handleEventsWith(StageSpec.of("db", writer)
                .rewindStrategy(BatchRewindStrategies.withPause(5, Duration.ofMillis(100))));
        pipeline.start();
        publishAll(pipeline);
        pipeline.shutdown(Duration.ofSeconds(10)).requireClean();
        assertEquals(1000, database.inserted.size());
    }
}

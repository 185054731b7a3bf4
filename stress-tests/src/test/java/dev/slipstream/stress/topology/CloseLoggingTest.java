package dev.slipstream.stress.topology;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.topology.QueueWorkerPool;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code QueueWorkerPool.close()} logs an unclean result. Here rather than in
 * core's tests because core's module does not read {@code java.logging}, which the test listens on.
 */
@Timeout(60)
class CloseLoggingTest {
    @Test
    void closeLogsAnUncleanResult() {
        final Logger logger = Logger.getLogger(QueueWorkerPool.class.getName());
        final List<LogRecord> records = new CopyOnWriteArrayList<>();
        final Handler handler = new Handler() {
            @Override
            public void publish(final LogRecord record) {
                records.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try {
            final EventHandler<Integer> failing = (item, s, end) -> {
                throw new IllegalArgumentException("always");
            };
            final QueueWorkerPool<Integer> pool = QueueWorkerPool.builder(new ConcurrentLinkedQueue<Integer>())
                    .name("logged").handlers(failing).exceptionHandler(ExceptionHandlers.rethrow()).build();
            pool.start();
            pool.offer(1);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pool.failures().isEmpty() && System.nanoTime() < deadline) {
                LockSupport.parkNanos(100_000L);
            }
            pool.close();
            assertTrue(records.stream().anyMatch(r -> r.getLevel() == Level.WARNING
                    && r.getMessage().contains("'logged'")), "close() logged the unclean result: " + records);
        } finally {
            logger.removeHandler(handler);
        }
    }
}

package dev.slipstream.examples.docs;

import dev.slipstream.processor.EventHandler;
import java.sql.SQLTransientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Types the documentation's code samples use, so that every sample compiles and runs as written. */
final class Support {
    private Support() {
    }

    /** A logger with the two calls the samples make. */
    static final class Log {
        final List<String> lines = new ArrayList<>();

        void warn(final String message) {
            lines.add(message);
        }

        void warn(final String message, final Throwable cause) {
            lines.add(message + ": " + cause);
        }
    }

    /** Where failed orders go in the lifecycle sample. */
    static final class DeadLetters {
        final List<Order> orders = new ArrayList<>();

        void add(final Order order, final Throwable cause) {
            orders.add(order);
        }
    }

    /** A database whose first insert fails transiently, to show a batch rewind. */
    static final class Database {
        final List<Order> inserted = new ArrayList<>();
        private boolean failedOnce;

        void insert(final List<Order> batch) throws SQLTransientException {
            if (!failedOnce) {
                failedOnce = true;
                throw new SQLTransientException("connection reset");
            }
            for (final Order order : batch) {
                inserted.add(order);
            }
        }
    }

    /** An order book that counts what it was given. */
    static final class Book {
        long applied;

        void apply(final Trade trade) {
            applied++;
        }
    }

    /** A handler that counts events, for stages whose work does not matter to a sample. */
    static <E> EventHandler<E> counting(final AtomicLong count) {
        return (event, sequence, endOfBatch) -> count.incrementAndGet();
    }
}

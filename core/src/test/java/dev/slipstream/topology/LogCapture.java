package dev.slipstream.topology;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Captures what the library logs through {@code System.Logger} (java.util.logging when no other
 * backend is installed) under the given logger names, and keeps it out of the test output.
 *
 * <pre>{@code
 * try (LogCapture log = LogCapture.of("dev.slipstream.processor")) {
 *     ...
 *     assertEquals(1, log.records().size());
 * }
 * }</pre>
 */
final class LogCapture extends Handler implements AutoCloseable {
    private final List<LogRecord> records = new ArrayList<>();
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Boolean> parents = new ArrayList<>();

    private LogCapture() {
        setLevel(Level.ALL);
    }

    static LogCapture of(final String... names) {
        final LogCapture capture = new LogCapture();
        for (final String name : names) {
            final Logger logger = Logger.getLogger(name);
            capture.loggers.add(logger);
            capture.parents.add(logger.getUseParentHandlers());
            logger.setUseParentHandlers(false);
            logger.addHandler(capture);
        }
        return capture;
    }

    @Override
    public synchronized void publish(final LogRecord record) {
        records.add(record);
    }

    synchronized List<LogRecord> records() {
        return new ArrayList<>(records);
    }

    /** The records at SEVERE (System.Logger's ERROR). */
    List<LogRecord> severe() {
        final List<LogRecord> severe = new ArrayList<>();
        for (final LogRecord record : records()) {
            if (record.getLevel() == Level.SEVERE) {
                severe.add(record);
            }
        }
        return severe;
    }

    @Override
    public void flush() {
    }

    @Override
    public void close() {
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).removeHandler(this);
            loggers.get(i).setUseParentHandlers(parents.get(i));
        }
    }
}

package dev.slipstream.topology;

import dev.slipstream.processor.ExceptionHandler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The check behind a stage's count of skipped events: several worker threads of one stage report
 * exceptions into the stage's one tally at the same time, as a work pool's workers do, and the
 * tally must count every one. A round starts the threads together on a latch, each reports
 * {@code perThread} exceptions, and the round compares the total with what was reported.
 *
 * <pre>{@code
 * Outcome outcome = ExceptionTallyRace.run(ExceptionTallyRace::real, 2, 200_000, 20);
 * assertEquals(0, outcome.lost());
 * }</pre>
 */
final class ExceptionTallyRace {
    private static final RuntimeException BAD = new RuntimeException("bad", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /** What one tally under test offers the race: report one exception, read the total. */
    interface Subject {
        void report(Throwable cause);

        long total();
    }

    /** The shipped path: a stage's {@link TrackingExceptionHandler} over a handler that returns. */
    static Subject real() {
        final TrackingExceptionHandler<Object> tracking = new TrackingExceptionHandler<>(QUIET);
        return new Subject() {
            @Override
            public void report(final Throwable cause) {
                tracking.handleEventException(cause, 0L, null);
            }

            @Override
            public long total() {
                return tracking.tally().skipped();
            }
        };
    }

    /**
     * The mutant: the tally as one volatile counter bumped with a read and a write, the
     * single-writer counter pattern of a processor's own counters used where many threads write.
     * Concurrent bumps overwrite each other.
     */
    static Subject plainCounterMutant() {
        final class PlainTally implements Subject {
            private volatile long skipped;

            @Override
            public void report(final Throwable cause) {
                skipped = skipped + 1;   // the seeded bug: read, then write, not atomic
            }

            @Override
            public long total() {
                return skipped;
            }
        }
        return new PlainTally();
    }

    private static final ExceptionHandler<Object> QUIET = new ExceptionHandler<>() {
        @Override
        public void handleEventException(final Throwable ex, final long sequence, final Object event) {
        }

        @Override
        public void handleOnStartException(final Throwable ex) {
        }

        @Override
        public void handleOnShutdownException(final Throwable ex) {
        }
    };

    /** Rounds run, and the exceptions reported but not counted over all of them. */
    record Outcome(int rounds, int roundsWithLoss, long reported, long lost) {
        @Override
        public String toString() {
            return rounds + " rounds, " + reported + " exceptions reported, " + lost + " not counted, in "
                    + roundsWithLoss + " rounds";
        }
    }

    private ExceptionTallyRace() {
    }

    /**
     * Runs {@code rounds} rounds, each with a fresh subject and {@code threads} threads
     * reporting {@code perThread} exceptions each.
     */
    static Outcome run(final Supplier<Subject> subjects, final int threads, final int perThread, final int rounds)
            throws InterruptedException {
        int withLoss = 0;
        long reported = 0;
        long lost = 0;
        int round = 0;
        while (round < rounds) {
            round++;
            final Subject subject = subjects.get();
            final CountDownLatch go = new CountDownLatch(1);
            final List<Thread> reporters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                final Thread reporter = new Thread(reportAll(subject, go, perThread), "reporter-" + t);
                reporters.add(reporter);
                reporter.start();
            }
            go.countDown();
            for (final Thread reporter : reporters) {
                reporter.join();
            }
            final long expected = (long) threads * perThread;
            reported += expected;
            // read after the joins: every report happened before
            final long missing = expected - subject.total();
            if (missing != 0) {
                withLoss++;
                lost += missing;
            }
        }
        return new Outcome(round, withLoss, reported, lost);
    }

    private static Runnable reportAll(final Subject subject, final CountDownLatch go, final int count) {
        final Consumer<Throwable> report = subject::report;
        return () -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            for (int i = 0; i < count; i++) {
                report.accept(BAD);
            }
        };
    }
}

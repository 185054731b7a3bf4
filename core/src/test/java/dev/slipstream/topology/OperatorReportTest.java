package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.EventHandler;
import dev.slipstream.processor.ExceptionHandlers;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What an operator is told: the programs a new user writes from the guide (three stages, a
 * diamond, a stage that always throws, a handler stuck during shutdown), and what their results,
 * logs and threads say.
 */
@Timeout(60)
class OperatorReportTest {
    private static Slipstream.Builder<TestEvent> builder(final String name) {
        return Slipstream.builder(TestEvent::new).name(name).ringSize(1024).producers(ProducerType.SINGLE)
                .waitStrategy(new YieldingWaitStrategy());
    }

    private static void publish(final Slipstream<TestEvent> s, final int count) {
        for (int i = 0; i < count; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
    }

    // ------------------------------------------------------------------ the result counts failures

    @Test
    void aThreeStagePipelineWithoutExceptionsIsClean() {
        final AtomicLong last = new AtomicLong();
        final Slipstream<TestEvent> s = builder("three").build();
        s.handleEventsWith(StageSpec.of("decode", Handlers.noop()))
                .then(StageSpec.of("price", Handlers.noop()))
                .then(StageSpec.of("send", (EventHandler<TestEvent>) (e, seq, end) -> last.set(e.value)));
        s.start();
        publish(s, 200_000);
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(20));
        assertTrue(result.isClean(), result::toString);
        assertEquals(199_999L, last.get());
        assertEquals(0L, result.totalEventsSkipped());
        assertEquals(Map.of("decode", 0L, "price", 0L, "send", 0L), result.eventsSkipped());
        assertFalse(result.toString().contains("skipped"), result::toString);
    }

    @Test
    void aStageThatAlwaysThrowsIsNotCleanAndItsLogDoesNotFlood() {
        final EventHandler<TestEvent> bad = (e, seq, end) -> {
            throw new IllegalStateException("bad event " + seq);
        };
        final ShutdownResult result;
        final List<LogRecord> records;
        try (LogCapture log = LogCapture.of("dev.slipstream.processor", "dev.slipstream.topology")) {
            final Slipstream<TestEvent> s = builder("throws").build();
            s.handleEventsWith(StageSpec.of("bad", bad));
            s.start();
            publish(s, 20_000);
            result = s.shutdown(Duration.ofSeconds(20));
            records = log.records();
        }
        assertFalse(result.isClean(), result::toString);
        assertTrue(result.isDrained(), "every event reached the stage, none was handled: " + result);
        assertEquals(20_000L, result.eventsSkipped("bad"));
        assertTrue(result.failures().isEmpty());
        assertTrue(result.toString().contains("bad skipped 20000 events after an exception"), result::toString);
        final IllegalStateException required = assertThrows(IllegalStateException.class, result::requireClean);
        assertTrue(required.getMessage().contains("skipped 20000"), required.getMessage());

        // the first exception in full, then one summary (the interval is 10 s; the last one is
        // written when the stage stops): 2 records, not 20,000
        assertEquals(2, records.size(), () -> records.stream().map(LogRecord::getMessage).toList().toString());
        final LogRecord first = records.get(0);
        assertNotNull(first.getThrown(), "the first exception is logged with its stack trace");
        assertTrue(first.getMessage().startsWith("stage 'throws/bad': exception at sequence 0"), first.getMessage());
        final LogRecord summary = records.get(1);
        assertNull(summary.getThrown(), "a summary has no stack trace");
        assertEquals("stage 'throws/bad': 19999 more exceptions since the last report (the stage is stopping),"
                + " at sequences 1 to 19999, types [java.lang.IllegalStateException]; those events were skipped",
                summary.getMessage());
    }

    @Test
    void theSummaryComesAtMostOncePerIntervalAndCountsEveryException() throws Exception {
        final AtomicLong published = new AtomicLong();
        final EventHandler<TestEvent> bad = (e, seq, end) -> {
            if (seq % 3 == 0) {
                throw new IllegalArgumentException("third");
            }
            throw new IllegalStateException("other");
        };
        final List<LogRecord> records;
        try (LogCapture log = LogCapture.of("dev.slipstream.processor")) {
            final Slipstream<TestEvent> s = builder("interval").build();
            s.handleEventsWith(StageSpec.of("bad", bad)
                    .exceptionHandler(ExceptionHandlers.logAndContinue("bad", Duration.ofMillis(50))));
            s.start();
            final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(400);
            while (System.nanoTime() < end) {
                s.publishEvent(TestEvent::set, published.getAndIncrement());
                if (published.get() % 64 == 0) {
                    Thread.sleep(1);
                }
            }
            assertEquals(published.get(), s.shutdown(Duration.ofSeconds(20)).eventsSkipped("bad"));
            records = log.records();
        }
        long logged = 1;
        for (final LogRecord record : records.subList(1, records.size())) {
            final String message = record.getMessage();
            assertTrue(message.contains(" more exception"), message);
            assertTrue(message.contains("java.lang.IllegalStateException") || message.contains("java.lang.IllegalArgumentException"),
                    message);
            logged += Long.parseLong(message.substring("stage 'bad': ".length(), message.indexOf(" more exception")));
        }
        assertEquals(published.get(), logged, "the first record plus the summaries count every exception");
        assertTrue(records.size() <= 2 + 400 / 50 + 2, "at most one summary per 50 ms: " + records.size());
    }

    @Test
    void aDiamondWithThreeThrowingEventsIsNotClean() {
        final EventHandler<TestEvent> flaky = (e, seq, end) -> {
            if (seq == 10 || seq == 500 || seq == 999) {
                throw new IllegalStateException("bad " + seq);
            }
        };
        final ShutdownResult result;
        try (LogCapture ignored = LogCapture.of("dev.slipstream.processor")) {
            final Slipstream<TestEvent> s = builder("dia").build();
            final StageGroup<TestEvent> a = s.handleEventsWith(StageSpec.of("a", Handlers.noop()));
            final StageGroup<TestEvent> b = s.handleEventsWith(StageSpec.of("b", flaky));
            s.after(a, b).handleEventsWith(StageSpec.of("c", Handlers.noop()));
            s.start();
            publish(s, 1000);
            result = s.shutdown(Duration.ofSeconds(20));
        }
        assertTrue(result.isDrained(), result::toString);
        assertFalse(result.isClean(), result::toString);
        assertEquals(Map.of("a", 0L, "b", 3L, "c", 0L), result.eventsSkipped());
        assertTrue(result.toString().endsWith("b skipped 3 events after an exception"), result::toString);
    }

    @Test
    void aPipelineWideBuiltInHandlerNamesTheStageAndAHaltIsLoggedOnce() {
        final EventHandler<TestEvent> skips = (e, seq, end) -> {
            throw new IllegalStateException("skip " + seq);
        };
        final EventHandler<TestEvent> halts = (e, seq, end) -> {
            if (seq == 3) {
                throw new IllegalStateException("fatal " + seq);
            }
        };
        final List<LogRecord> records;
        final List<LogRecord> severe;
        final ShutdownResult result;
        try (LogCapture log = LogCapture.of("dev.slipstream.processor", "dev.slipstream.topology")) {
            final Slipstream<TestEvent> s = builder("dia").exceptionHandler(ExceptionHandlers.logAndContinue()).build();
            s.handleEventsWith(StageSpec.of("a", skips),
                    StageSpec.of("h", halts).exceptionHandler(ExceptionHandlers.halt()));
            s.start();
            // the first halt stops every stage: let 'a' log its first exception before 'h' reaches sequence 3
            publish(s, 1);
            Await.until("stage 'a' logged its first exception", () -> log.records().stream()
                    .anyMatch(r -> r.getMessage().contains("exception at sequence 0")));
            publish(s, 4);
            Await.until("the halting stage failed", () -> !s.failures().isEmpty());
            result = s.shutdown(Duration.ofSeconds(20));
            records = log.records();
            severe = log.severe();
        }
        final LogRecord skipped = records.stream().filter(r -> r.getMessage().contains("skip 0")
                || r.getMessage().contains("exception at sequence 0")).findFirst().orElseThrow();
        assertTrue(skipped.getMessage().startsWith("stage 'dia/a': exception at sequence 0"), skipped.getMessage());
        assertFalse(records.stream().anyMatch(r -> r.getMessage().contains("unnamed stage")),
                () -> records.stream().map(LogRecord::getMessage).toList().toString());
        assertEquals(1, severe.size(), () -> "the halt is logged once: "
                + severe.stream().map(LogRecord::getMessage).toList());
        assertTrue(severe.get(0).getMessage().contains("stage 'h' failed at sequence 3"), severe.get(0).getMessage());
        assertTrue(severe.get(0).getMessage().contains("stage 'dia/h': exception at sequence 3"), severe.get(0).getMessage());
        assertEquals(1, result.failures().size(), result::toString);
    }

    // ------------------------------------------------------------------ a shutdown that ends

    @Test
    void aHandlerAsleepDuringShutdownIsInterruptedAndTheCallTakesTheTimeoutNotASecondMore() throws Exception {
        final CountDownLatch asleep = new CountDownLatch(1);
        final AtomicReference<Thread> stageThread = new AtomicReference<>();
        final AtomicBoolean interrupted = new AtomicBoolean();
        final EventHandler<TestEvent> sleeper = (e, seq, end) -> {
            if (seq == 5) {
                stageThread.set(Thread.currentThread());
                asleep.countDown();
                try {
                    Thread.sleep(Long.MAX_VALUE);
                } catch (InterruptedException stop) {
                    interrupted.set(true);
                    throw stop;
                }
            }
        };
        final ShutdownResult result;
        try (LogCapture ignored = LogCapture.of("dev.slipstream.processor")) {
            final Slipstream<TestEvent> s = builder("stuck").build();
            s.handleEventsWith(StageSpec.of("j", sleeper));
            s.start();
            publish(s, 10);
            assertTrue(asleep.await(10, TimeUnit.SECONDS));
            result = s.shutdown(Duration.ofSeconds(1));
        }
        assertTrue(interrupted.get(), "the sleeping handler was interrupted");
        assertTrue(stageThread.get().isDaemon(), "stage threads are daemons by default");
        stageThread.get().join(5_000);
        assertFalse(stageThread.get().isAlive());
        assertTrue(result.isTerminated(), result::toString);
        assertFalse(result.isClean(), result::toString);
        assertEquals(1L, result.eventsSkipped("j"), "the interrupted event: " + result);
        assertTrue(result.toString().contains("j skipped 1 event after an exception"), result::toString);
        final long millis = result.elapsed().toMillis();
        assertTrue(millis >= 1000 && millis < 1000 + Slipstream.STOP_GRACE.toMillis() / 2,
                "shutdown(1 s) took " + millis + " ms");
    }

    @Test
    void aHandlerThatIgnoresTheInterruptIsReportedAndDoesNotKeepTheJvmAlive() throws Exception {
        final AtomicBoolean release = new AtomicBoolean();
        final CountDownLatch spinning = new CountDownLatch(1);
        final AtomicReference<Thread> stageThread = new AtomicReference<>();
        final EventHandler<TestEvent> spinner = (e, seq, end) -> {
            if (seq == 5) {
                stageThread.set(Thread.currentThread());
                spinning.countDown();
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }
        };
        final Slipstream<TestEvent> s = builder("spin").build();
        s.handleEventsWith(StageSpec.of("j", spinner));
        s.start();
        publish(s, 10);
        assertTrue(spinning.await(10, TimeUnit.SECONDS));
        final ShutdownResult result = s.shutdown(Duration.ofMillis(200));
        try {
            assertEquals(List.of("spin-j"), result.threadsStillRunning(), result::toString);
            assertTrue(stageThread.get().isInterrupted(), "it was interrupted, and ignored it");
            assertTrue(stageThread.get().isDaemon(), "a daemon: it does not keep the JVM alive");
            final long millis = result.elapsed().toMillis();
            assertTrue(millis >= 200 && millis < 200 + Slipstream.STOP_GRACE.toMillis() + 300,
                    "shutdown(200 ms) took " + millis + " ms: at most the timeout plus STOP_GRACE");
            assertTrue(result.toString().contains("threads still running: [spin-j]"), result::toString);
        } finally {
            release.set(true);
        }
    }

    @Test
    void aThreadFactoryOfTheUserDecidesWhetherStageThreadsAreDaemons() throws Exception {
        final AtomicReference<Thread> seen = new AtomicReference<>();
        final Slipstream<TestEvent> s = builder("own-factory").threadFactory(r -> {
            final Thread t = new Thread(r);
            t.setDaemon(false);
            return t;
        }).build();
        s.handleEventsWith((EventHandler<TestEvent>) (e, seq, end) -> seen.set(Thread.currentThread()));
        s.start();
        publish(s, 1);
        Await.until("the stage ran", () -> seen.get() != null);
        assertFalse(seen.get().isDaemon());
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
    }

    @Test
    void haltInterruptsAStageStuckInItsHandler() throws Exception {
        final CountDownLatch asleep = new CountDownLatch(1);
        final EventHandler<TestEvent> sleeper = (e, seq, end) -> {
            asleep.countDown();
            Thread.sleep(Long.MAX_VALUE);
        };
        final ShutdownResult result;
        try (LogCapture ignored = LogCapture.of("dev.slipstream.processor")) {
            final Slipstream<TestEvent> s = builder("halt-stuck").build();
            s.handleEventsWith(StageSpec.of("j", sleeper));
            s.start();
            publish(s, 3);
            assertTrue(asleep.await(10, TimeUnit.SECONDS));
            result = s.halt();
        }
        assertTrue(result.wasHalted());
        assertTrue(result.isTerminated(), result::toString);
        final long millis = result.elapsed().toMillis();
        assertTrue(millis >= Slipstream.STOP_GRACE.toMillis() && millis < Slipstream.STOP_GRACE.toMillis() + 2_000,
                "halt() interrupts after STOP_GRACE: " + millis + " ms");
    }

    @Test
    void aJvmWhoseStageIsStuckExitsWhenMainReturns() throws Exception {
        final String java = System.getProperty("java.home") + "/bin/java";
        // the library and the test classes as plain class path (the tests may run as a module)
        final String classPath = Path.of("target/classes").toAbsolutePath() + File.pathSeparator
                + Path.of("target/test-classes").toAbsolutePath();
        final Process process = new ProcessBuilder(java, "-cp", classPath, StuckHandlerProgram.class.getName())
                .redirectErrorStream(true).start();
        final boolean exited = process.waitFor(30, TimeUnit.SECONDS);
        final String output = new String(process.getInputStream().readAllBytes());
        if (!exited) {
            process.destroyForcibly();
        }
        assertTrue(exited, "the JVM did not exit after main returned; output: " + output);
        assertEquals(0, process.exitValue(), output);
        assertTrue(output.contains("threads still running: [stuck-j]"), output);
    }

    // ------------------------------------------------------------------ messages

    @Test
    void aLambdaThatCapturesNothingIsOneObjectAndTheMessageSaysSo() {
        final EventHandler<TestEvent> shared = sharedLambda();
        assertTrue(shared == sharedLambda(), "the JVM hands out one instance of a non-capturing lambda");
        final Slipstream<TestEvent> one = builder("shard-1").build();
        one.handleEventsWith(sharedLambda());
        final Slipstream<TestEvent> two = builder("shard-2").build();
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> two.handleEventsWith(sharedLambda()));
        assertTrue(e.getMessage().contains("is already in pipeline 'shard-1'"), e.getMessage());
        assertTrue(e.getMessage().contains("a lambda that captures no variable is one shared object"), e.getMessage());
        one.halt();
        two.handleEventsWith(sharedLambda());
        two.halt();
    }

    private static EventHandler<TestEvent> sharedLambda() {
        return (e, seq, end) -> { };
    }

    @Test
    void unnamedPipelinesHaveDistinctNames() {
        final Slipstream<TestEvent> first = Slipstream.builder(TestEvent::new).build();
        final Slipstream<TestEvent> second = Slipstream.builder(TestEvent::new).build();
        assertTrue(first.name().matches("slipstream-\\d+"), first.name());
        assertFalse(first.name().equals(second.name()), first.name());
        final StageGroup<TestEvent> group = first.handleEventsWith(Handlers.noop());
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> second.after(group));
        assertEquals("stages " + group + " belong to pipeline '" + first.name() + "', not to '" + second.name()
                + "'; a stage can only follow stages of its own pipeline", e.getMessage());
        first.halt();
        second.halt();
    }

    @Test
    void stageMetricsPrintTheirSequenceAndLag() {
        final Slipstream<TestEvent> s = builder("printed").build();
        s.handleEventsWith(StageSpec.of("j", Handlers.noop()));
        s.start();
        publish(s, 3);
        Await.until("handled", () -> s.stage("j").metrics().sequence() == 2);
        assertEquals("[stage 'j' of pipeline 'printed': sequence 2, lag 0, 3 events, 0 exceptions]",
                s.metrics().stages().toString());
        s.shutdown(Duration.ofSeconds(10));
    }

    @Test
    void aRewindThatGivesUpSaysSoInTheLog() {
        final EventHandler<TestEvent> never = (e, seq, end) -> {
            throw new dev.slipstream.processor.RewindableException("database down");
        };
        final List<LogRecord> records;
        try (LogCapture log = LogCapture.of("dev.slipstream.processor")) {
            final Slipstream<TestEvent> s = builder("rewinds").build();
            s.handleEventsWith(StageSpec.of("db", never)
                    .rewindStrategy(dev.slipstream.processor.BatchRewindStrategies.atMost(2)));
            publish(s, 1);
            s.start();
            final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
            assertEquals(Map.of("db", 1L), result.retriesGivenUp());
            assertEquals(Map.of("db", 2L), result.batchesRetried());
            records = log.records();
        }
        final String message = records.get(0).getMessage();
        assertTrue(message.startsWith("stage 'rewinds/db': exception at sequence 0 on event "), message);
        assertTrue(message.contains("; the rewind strategy gave up retrying its batch; skipping the event;"), message);
    }
}

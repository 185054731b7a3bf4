package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.monitor.JfrMonitoring;
import dev.slipstream.monitor.PipelineMetrics;
import dev.slipstream.monitor.StageBacklogEvent;
import dev.slipstream.monitor.StageMetrics;
import dev.slipstream.monitor.StageStallEvent;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(60)
class SlipstreamMetricsTest {
    @Test
    void stageAndRingMetricsFollowProgress() {
        final CountDownLatch release = new CountDownLatch(1);
        final EventHandler<TestEvent> held = (e, seq, end) -> release.await();
        final EventHandler<TestEvent> failsOnEven = (e, seq, end) -> {
            if ((seq & 1) == 0) {
                throw new IllegalStateException("even");
            }
        };
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).name("metrics").ringSize(64)
                .producers(ProducerType.SINGLE).waitStrategy(new YieldingWaitStrategy())
                .exceptionHandler(new CountingExceptionHandler<>(new AtomicLong())).build();
        s.handleEventsWith(StageSpec.of("held", held).maxBatchSize(1), StageSpec.of("flaky", failsOnEven));
        s.start();
        for (int i = 0; i < 40; i++) {
            s.publishEvent(TestEvent::set, (long) i);
        }
        final PipelineMetrics metrics = s.metrics();
        assertSame(metrics, s.metrics());
        final StageMetrics flaky = metrics.stage("flaky");
        Await.until("flaky caught up", () -> flaky.sequence() == 39);
        assertEquals("metrics", metrics.pipelineName());
        assertEquals(64, metrics.bufferSize());
        assertEquals(39, metrics.cursor());
        assertEquals(0, flaky.lag());
        assertEquals(40, flaky.eventsProcessed());
        assertEquals(20, flaky.exceptionsHandled());
        assertTrue(flaky.batchesProcessed() >= 1);
        assertEquals(1, flaky.workers());
        final StageMetrics heldStage = metrics.stage("held");
        assertEquals(-1, heldStage.sequence());
        assertEquals(40, heldStage.lag());
        assertEquals(24, metrics.remainingCapacity(), "the held stage still holds 40 of 64 slots");
        final List<StageMetrics> stages = metrics.stages();
        assertSame(stages, metrics.stages(), "no copy per call");
        assertEquals(List.of("held", "flaky"), stages.stream().map(StageMetrics::stageName).toList());
        assertThrows(IllegalArgumentException.class, () -> metrics.stage("none"));
        release.countDown();
        Await.until("held caught up", () -> heldStage.lag() == 0);
        assertEquals(64, metrics.remainingCapacity());
        final ShutdownResult result = s.shutdown(Duration.ofSeconds(10));
        assertTrue(result.isDrained() && result.isTerminated(), result::toString);
        assertEquals(20, result.eventsSkipped("flaky"), result::toString);
    }

    @Test
    void jfrRecordsBacklogAndStallEventsWhileThePipelineRuns(@TempDir final Path dir) throws Exception {
        // JFR occasionally dumps a file without the periodic events its hook has already committed
        // (a chunk race in the recorder, not in the hook), backlog or stall events alike: record
        // again, at most three times.
        List<RecordedEvent> events = List.of();
        for (int attempt = 0; attempt < 3 && !(hasEvents(events, StageBacklogEvent.NAME)
                && hasEvents(events, StageStallEvent.NAME)); attempt++) {
            events = recordObservedPipeline(dir.resolve("pipeline-" + attempt + ".jfr"));
        }
        final List<RecordedEvent> backlog = events.stream()
                .filter(e -> e.getEventType().getName().equals(StageBacklogEvent.NAME)).toList();
        final List<RecordedEvent> stalls = events.stream()
                .filter(e -> e.getEventType().getName().equals(StageStallEvent.NAME)).toList();
        assertTrue(backlog.stream().anyMatch(e -> e.getString("stage").equals("stuck") && e.getLong("backlog") == 10
                && e.getString("pipeline").equals("observed") && e.getLong("cursor") == 9), backlog::toString);
        assertTrue(backlog.stream().anyMatch(e -> e.getString("stage").equals("fine") && e.getLong("backlog") == 0
                && e.getLong("eventsProcessed") == 10), backlog::toString);
        assertTrue(!stalls.isEmpty() && stalls.stream().allMatch(e -> e.getString("stage").equals("stuck")
                && e.getLong("backlog") == 10 && e.getLong("sequence") == -1
                && e.getDuration("stalledFor").toMillis() >= 100), stalls::toString);
    }

    private static boolean hasEvents(final List<RecordedEvent> events, final String type) {
        return events.stream().anyMatch(e -> e.getEventType().getName().equals(type));
    }

    private static List<RecordedEvent> recordObservedPipeline(final Path file) throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final EventHandler<TestEvent> stuck = (e, seq, end) -> release.await();
        final Slipstream<TestEvent> s = Slipstream.builder(TestEvent::new).name("observed").ringSize(64)
                .producers(ProducerType.SINGLE).waitStrategy(new YieldingWaitStrategy())
                .stallThreshold(Duration.ofMillis(100)).build();
        s.handleEventsWith(StageSpec.of("stuck", stuck), StageSpec.of("fine", Handlers.noop()));
        assertFalse(JfrMonitoring.hooksInstalled(), "no hooks before a pipeline runs");
        try (Recording recording = new Recording()) {
            recording.enable(StageBacklogEvent.NAME).withPeriod(Duration.ofMillis(20));
            recording.enable(StageStallEvent.NAME).withPeriod(Duration.ofMillis(20));
            recording.start();
            s.start();
            assertTrue(JfrMonitoring.hooksInstalled(), "hooks registered while running");
            for (int i = 0; i < 10; i++) {
                s.publishEvent(TestEvent::set, (long) i);
            }
            final JfrMonitoring.Registration registration = s.jfrRegistration();
            assertNotNull(registration);
            assertEquals(Duration.ofMillis(100), registration.stallThreshold());
            Await.until("a stall was detected", () -> registration.stallsDetected() >= 1);
            Await.until("backlog events were written", () -> registration.backlogEventsWritten() >= 4);
            recording.stop();
            recording.dump(file);
        } finally {
            release.countDown();
        }
        assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        assertFalse(JfrMonitoring.hooksInstalled(), "hooks removed at shutdown");

        assertTrue(Files.size(file) > 0);
        return RecordingFile.readAllEvents(file);
    }

    @Test
    void jfrRegistrationRejectsBadInput() {
        final PipelineMetrics metrics = Slipstream.builder(TestEvent::new).build().metrics();
        assertThrows(NullPointerException.class, () -> JfrMonitoring.register(null, Duration.ofSeconds(1)));
        assertThrows(NullPointerException.class, () -> JfrMonitoring.register(metrics, null));
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> JfrMonitoring.register(metrics, Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("stallThreshold must be positive"), e.getMessage());
        try (JfrMonitoring.Registration r = JfrMonitoring.register(metrics, Duration.ofSeconds(1))) {
            assertTrue(JfrMonitoring.hooksInstalled());
            assertEquals(0, r.stallsDetected());
        }
        assertFalse(JfrMonitoring.hooksInstalled());
    }
}

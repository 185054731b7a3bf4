package dev.slipstream.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.slipstream.processor.BatchRewindStrategies;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.ring.ProducerType;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SlipstreamGraphTest {
    private static Slipstream<TestEvent> pipeline(final String name) {
        return Slipstream.builder(TestEvent::new).name(name).ringSize(64).producers(ProducerType.SINGLE)
                .waitStrategy(new YieldingWaitStrategy()).build();
    }

    @Test
    void builderRejectsBadInput() {
        assertThrows(NullPointerException.class, () -> Slipstream.builder(null));
        final Slipstream.Builder<TestEvent> b = Slipstream.builder(TestEvent::new);
        final IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> b.ringSize(1000));
        assertEquals("ringSize must be a power of two, got 1000", size.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.ringSize(0));
        assertThrows(IllegalArgumentException.class, () -> b.ringSize(-8));
        assertThrows(NullPointerException.class, () -> b.producers(null));
        assertThrows(NullPointerException.class, () -> b.waitStrategy(null));
        assertThrows(NullPointerException.class, () -> b.producerWaitStrategy(null));
        assertThrows(NullPointerException.class, () -> b.threadFactory(null));
        assertThrows(NullPointerException.class, () -> b.exceptionHandler(null));
        assertThrows(NullPointerException.class, () -> b.name(null));
        final IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> b.name("  "));
        assertTrue(blank.getMessage().contains("pipeline name must not be blank"), blank.getMessage());
        final IllegalArgumentException stall =
                assertThrows(IllegalArgumentException.class, () -> b.stallThreshold(Duration.ZERO));
        assertTrue(stall.getMessage().contains("stallThreshold must be positive"), stall.getMessage());
    }

    @Test
    void aHandlerCanBeAddedOnlyOnce() {
        final Slipstream<TestEvent> s = pipeline("p");
        final EventHandler<TestEvent> h = Handlers.noop();
        final StageGroup<TestEvent> first = s.handleEventsWith(h);
        final IllegalArgumentException again = assertThrows(IllegalArgumentException.class, () -> s.handleEventsWith(h));
        assertTrue(again.getMessage().contains("already in pipeline 'p'"), again.getMessage());
        assertThrows(IllegalArgumentException.class, () -> first.then(h));
        final EventHandler<TestEvent> other = Handlers.noop();
        final IllegalArgumentException twiceInOneCall =
                assertThrows(IllegalArgumentException.class, () -> s.handleEventsWith(other, other));
        assertTrue(twiceInOneCall.getMessage().contains("given twice"), twiceInOneCall.getMessage());
        // nothing of the failed call was added
        assertEquals(1, s.stages().size());
        final IllegalArgumentException poolTwice =
                assertThrows(IllegalArgumentException.class, () -> s.handleEventsWithWorkerPool(other, other));
        assertTrue(poolTwice.getMessage().contains("own instance"), poolTwice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.handleEventsWithWorkerPool(h, Handlers.noop()));
    }

    @Test
    void stageNamesAreUniqueAndSpecsAreUsedOnce() {
        final Slipstream<TestEvent> s = pipeline("p");
        s.handleEventsWith(StageSpec.of("journal", Handlers.noop()));
        final IllegalArgumentException name = assertThrows(IllegalArgumentException.class,
                () -> s.handleEventsWith(StageSpec.of("journal", Handlers.noop())));
        assertTrue(name.getMessage().contains("stage name 'journal' is already used"), name.getMessage());
        final StageSpec<TestEvent> spec = StageSpec.of("once", Handlers.noop());
        s.handleEventsWith(spec);
        assertThrows(IllegalArgumentException.class, () -> s.handleEventsWith(spec));
        assertThrows(IllegalArgumentException.class, () -> StageSpec.of(" ", Handlers.noop()));
        assertThrows(NullPointerException.class, () -> StageSpec.of((EventHandler<TestEvent>) null));
    }

    @Test
    void aStageCannotFollowAStageOfAnotherPipeline() {
        final Slipstream<TestEvent> a = pipeline("alpha");
        final Slipstream<TestEvent> b = pipeline("beta");
        final StageGroup<TestEvent> alphaStage = a.handleEventsWith(Handlers.noop());
        final IllegalArgumentException group = assertThrows(IllegalArgumentException.class, () -> b.after(alphaStage));
        assertTrue(group.getMessage().contains("belong to pipeline 'alpha', not to 'beta'"), group.getMessage());
        final IllegalArgumentException stage =
                assertThrows(IllegalArgumentException.class, () -> b.after(alphaStage.stage()));
        assertTrue(stage.getMessage().contains("belongs to pipeline 'alpha', not to 'beta'"), stage.getMessage());
        final StageGroup<TestEvent> betaStage = b.handleEventsWith(Handlers.noop());
        assertThrows(IllegalArgumentException.class, () -> betaStage.and(alphaStage));
        final IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> b.after(Handlers.noop()));
        assertTrue(unknown.getMessage().contains("is not in pipeline 'beta'"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.after(new Stage[0]));
    }

    @Test
    void theGraphIsFixedOnceStarted() {
        final Slipstream<TestEvent> s = pipeline("fixed");
        final StageGroup<TestEvent> root = s.handleEventsWith(Handlers.noop());
        s.start();
        try {
            final IllegalStateException add =
                    assertThrows(IllegalStateException.class, () -> s.handleEventsWith(Handlers.noop()));
            assertTrue(add.getMessage().contains("already started") && add.getMessage().contains("addHandler"),
                    add.getMessage());
            assertThrows(IllegalStateException.class, () -> root.then(Handlers.noop()));
            assertThrows(IllegalStateException.class, () -> root.thenWorkerPool(Handlers.noop()));
            final IllegalStateException twice = assertThrows(IllegalStateException.class, s::start);
            assertTrue(twice.getMessage().contains("already started; start() may be called once"), twice.getMessage());
        } finally {
            assertTrue(s.shutdown(Duration.ofSeconds(10)).isClean());
        }
        final IllegalStateException afterStop = assertThrows(IllegalStateException.class, s::start);
        assertTrue(afterStop.getMessage().contains("stopped"), afterStop.getMessage());
        assertThrows(IllegalStateException.class, () -> s.handleEventsWith(Handlers.noop()));
        assertThrows(IllegalStateException.class, () -> s.addHandler(Handlers.noop()));
    }

    @Test
    void aPipelineNeedsAStageToStart() {
        final Slipstream<TestEvent> s = pipeline("empty");
        final IllegalStateException empty = assertThrows(IllegalStateException.class, s::start);
        assertTrue(empty.getMessage().contains("has no stages"), empty.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.handleEventsWith(new EventHandler[0]));
        assertThrows(NullPointerException.class, () -> s.handleEventsWith((EventHandler<TestEvent>) null));
    }

    @Test
    void describeListsStagesAndEdgesAndRendersThem() {
        final Slipstream<TestEvent> s = pipeline("orders");
        final StageGroup<TestEvent> decode = s.handleEventsWith(StageSpec.of("decode", Handlers.noop()));
        final StageGroup<TestEvent> both = decode.then(StageSpec.of("journal", Handlers.noop()),
                StageSpec.of("replicate", Handlers.noop()));
        final StageGroup<TestEvent> pool = s.after(both)
                .handleEventsWith(StageSpec.workerPool("match", Handlers.noop(), Handlers.noop()));
        assertTrue(pool.stage().isWorkerPool());
        assertEquals(2, pool.stage().workers());
        assertEquals(List.of("journal", "replicate"), pool.stage().upstream());

        final TopologyDescription d = s.describe();
        assertEquals(List.of("decode", "journal", "replicate", "match"), d.stageNames());
        assertEquals(List.of(new TopologyDescription.Edge("orders.ring", "decode"),
                new TopologyDescription.Edge("decode", "journal"),
                new TopologyDescription.Edge("decode", "replicate"),
                new TopologyDescription.Edge("journal", "match"),
                new TopologyDescription.Edge("replicate", "match")), d.edges());
        final String mermaid = d.toMermaid();
        assertTrue(mermaid.startsWith("flowchart LR\n"), mermaid);
        assertTrue(mermaid.contains("s0[\"decode\"]") && mermaid.contains("s3[[\"match x2\"]]")
                && mermaid.contains("ring --> s0") && mermaid.contains("s2 --> s3"), mermaid);
        final String dot = d.toDot();
        assertTrue(dot.startsWith("digraph \"orders\" {") && dot.contains("s1 -> s3;")
                && dot.contains("shape=box3d, label=\"match x2\"") && dot.trim().endsWith("}"), dot);
        assertTrue(d.toString().contains("decode -> journal"), d.toString());
        assertEquals("orders", d.pipelineName());
    }

    @Test
    void unnamedStagesGetNamesFromTheirHandlerOrTheirPosition() {
        final Slipstream<TestEvent> s = pipeline("names");
        s.handleEventsWith(new Handlers.Summing(), Handlers.noop());
        s.handleEventsWithWorkerPool(Handlers.noop(), Handlers.noop());
        assertEquals(List.of("Summing-1", "stage-2", "pool-3"), s.describe().stageNames());
        assertSame(s.stages().get(0), s.stage("Summing-1"));
        assertThrows(IllegalArgumentException.class, () -> s.stage("nope"));
    }

    @Test
    void specOptionsThatDoNotFitTheStageKindAreRefused() {
        final IllegalStateException rewind = assertThrows(IllegalStateException.class,
                () -> StageSpec.workerPool("p", Handlers.noop()).rewindStrategy(BatchRewindStrategies.atMost(2)));
        assertTrue(rewind.getMessage().contains("does not rewind"), rewind.getMessage());
        final IllegalStateException wake = assertThrows(IllegalStateException.class,
                () -> StageSpec.of("h", Handlers.noop()).wakePolicy(WakePolicy.UNBIASED));
        assertTrue(wake.getMessage().contains("single handler"), wake.getMessage());
        final IllegalArgumentException batch = assertThrows(IllegalArgumentException.class,
                () -> StageSpec.of(Handlers.noop()).maxBatchSize(0));
        assertEquals("maxBatchSize must be at least 1, got 0", batch.getMessage());
        assertThrows(NullPointerException.class, () -> StageSpec.of(Handlers.noop()).waitStrategy(null));
        assertThrows(NullPointerException.class, () -> StageSpec.of(Handlers.noop()).threadFactory(null));
        assertThrows(NullPointerException.class, () -> StageSpec.of(Handlers.noop()).exceptionHandler(null));
        assertThrows(NullPointerException.class, () -> StageSpec.of(Handlers.noop()).rewindStrategy(null));
        assertFalse(StageSpec.of(Handlers.noop()).isWorkerPool());
    }

    @Test
    void aWorkerPoolCanBeBuiltFromAHandlerFactory() {
        final Slipstream<TestEvent> s = pipeline("factory");
        final Stage pool = s.handleEventsWith(StageSpec.workerPool("pricers", 3, Handlers::noop)).stage();
        assertEquals(3, pool.workers());
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> StageSpec.<TestEvent>workerPool("p", 0, Handlers::noop));
        assertEquals("a worker pool needs at least 1 worker, got 0", none.getMessage());
        final EventHandler<TestEvent> shared = Handlers.noop();
        final IllegalArgumentException same = assertThrows(IllegalArgumentException.class,
                () -> StageSpec.<TestEvent>workerPool("p", 2, () -> shared));
        assertTrue(same.getMessage().contains("given twice"), same.getMessage());
        assertThrows(NullPointerException.class, () -> StageSpec.<TestEvent>workerPool("p", 2, null));
    }
}

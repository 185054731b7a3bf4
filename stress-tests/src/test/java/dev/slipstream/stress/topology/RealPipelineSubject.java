package dev.slipstream.stress.topology;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.topology.ShutdownResult;
import dev.slipstream.topology.Slipstream;
import dev.slipstream.topology.StageSpec;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;

/** The real pipeline, a then b, as a {@link ShutdownRace.Subject}. */
final class RealPipelineSubject implements ShutdownRace.Subject {
    private final Slipstream<AccountEvent> pipeline;

    RealPipelineSubject(final ProducerType type, final int ringSize, final StageLedger a, final StageLedger b) {
        pipeline = Slipstream.builder(AccountEvent::new).name("race").ringSize(ringSize).producers(type)
                .waitStrategy(new YieldingWaitStrategy()).build();
        pipeline.handleEventsWith(StageSpec.of("a", a)).then(StageSpec.of("b", b));
        pipeline.start();
    }

    @Override
    public void publish(final int producer, final long index) {
        pipeline.publishEvent(ShutdownRace.SlowTranslator::write, producer, index);
    }

    @Override
    public ShutdownRace.Report stop(final ShutdownRace.Stop how) throws InterruptedException {
        final ShutdownResult result;
        switch (how) {
            case HALT:
                result = pipeline.halt();
                break;
            case CLOSE_FROM_ANOTHER_THREAD:
                final Thread closer = new Thread(pipeline::close, "race-closer");
                closer.start();
                closer.join();
                // a second call returns the first result
                result = pipeline.shutdown(Duration.ZERO);
                break;
            default:
                result = pipeline.shutdown(Duration.ofSeconds(10));
        }
        return new ShutdownRace.Report(result.isClean(), result.isTerminated(),
                new long[] {result.eventsLeft("a"), result.eventsLeft("b")});
    }
}

package dev.slipstream.stress.checksum;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.slipstream.ring.ProducerType;
import dev.slipstream.sequence.ProducerWaitStrategy;
import dev.slipstream.wait.ProducerWaitStrategies;
import dev.slipstream.wait.YieldingWaitStrategy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Soak tests with checksums: a large, bounded number of events through the real ring buffer,
 * sequencers, barrier, yielding wait strategy and batch event processor: nothing lost, nothing
 * duplicated, each producer's order kept. Producers and consumer yield when they wait (with three
 * producers there are more threads than cores on a small machine). The multi-producer ring is
 * small (64) so that producers keep filling it, wait for space and interleave. Run with
 * {@code -Pstress} (tagged {@code stress}).
 */
@Tag("stress")
class RingChecksumTest {
    /** Producers on a full ring give the core back; there are more threads than cores. */
    private static final ProducerWaitStrategy YIELD = ProducerWaitStrategies.yielding();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void oneProducerOneConsumerHundredMillionEvents() throws Exception {
        final long events = 100_000_000L;
        final ChecksumRun run = new ChecksumRun(ProducerType.SINGLE, 1024, new YieldingWaitStrategy(), YIELD,
                events, List.of(ChecksumRun.Publish.TRANSLATOR));
        final ChecksumVerifier result = run.run(Duration.ofMinutes(4));
        assertClean(result, 1, events);
        System.out.printf("1P-1C: %,d events in %,d ms%n", events, run.elapsedMillis());
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void threeProducersOneConsumerTenMillionEventsEach() throws Exception {
        final long perProducer = 10_000_000L;
        final ChecksumRun run = new ChecksumRun(ProducerType.MULTI, 64, new YieldingWaitStrategy(), YIELD,
                perProducer, List.of(ChecksumRun.Publish.TRANSLATOR, ChecksumRun.Publish.SINGLE,
                        ChecksumRun.Publish.BATCH));
        final ChecksumVerifier result = run.run(Duration.ofMinutes(4));
        assertClean(result, 3, perProducer);
        System.out.printf("3P-1C: %,d events in %,d ms, %,d producer switches%n", 3 * perProducer,
                run.elapsedMillis(), result.producerSwitches());
    }

    private static void assertClean(final ChecksumVerifier result, final int producers, final long perProducer) {
        assertEquals(0, result.errors(), () -> result.errors() + " errors, first: " + result.firstError());
        assertEquals(producers * perProducer, result.events(), "events seen");
        assertEquals(producers * perProducer - 1, result.lastSequence(), "last sequence");
        for (int p = 0; p < producers; p++) {
            assertEquals(perProducer, result.nextCount(p), "events of producer " + p);
        }
        assertEquals(ChecksumVerifier.expectedSum(producers, perProducer), result.sum(), "checksum");
    }
}

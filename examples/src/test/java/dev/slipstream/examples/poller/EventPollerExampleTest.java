package dev.slipstream.examples.poller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class EventPollerExampleTest {

    @Test
    void pollsEveryTickInBoundedBatches() throws Exception {
        final long ticks = 70_000;    // a multiple of 7 and 100: the expected VWAP is exact

        final EventPollerExample.Summary summary = EventPollerExample.run(ticks);

        assertEquals(ticks, summary.ticks());
        assertTrue(summary.largestPoll() <= EventPollerExample.MAX_PER_POLL, "largest poll " + summary.largestPoll());
        long notional = 0;
        long volume = 0;
        for (long i = 0; i < ticks; i++) {
            notional += (10_000 + i % 100) * (1 + i % 7);
            volume += 1 + i % 7;
        }
        assertEquals((double) notional / volume, summary.vwap(), 1e-9);
        assertTrue(summary.polls() >= ticks / EventPollerExample.MAX_PER_POLL);
    }
}

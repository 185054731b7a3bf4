package dev.slipstream.examples.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Runs every topology example with a small event count, so none of them can rot. */
@Timeout(120)
class TopologyExamplesTest {
    private static final long EVENTS = 20_000;

    /** What {@link Trade#fill} makes the notional of trade {@code id}. */
    private static long expectedNotional(final long events) {
        long total = 0;
        for (long id = 0; id < events; id++) {
            total += (100 + (id & 63)) * (1 + (id & 7));
        }
        return total;
    }

    @Test
    void pipeline() {
        PipelineExample.main(new String[] {"1000"});
        assertEquals(expectedNotional(EVENTS), PipelineExample.run(EVENTS));
    }

    @Test
    void multicast() {
        MulticastExample.main(new String[] {"1000"});
        assertArrayEquals(new long[] {EVENTS, EVENTS, EVENTS}, MulticastExample.run(EVENTS));
    }

    @Test
    void diamond() {
        DiamondExample.main(new String[] {"1000"});
        assertEquals(EVENTS, DiamondExample.run(EVENTS));
    }

    @Test
    void fanIn() throws Exception {
        FanInExample.main(new String[] {"1000"});
        assertEquals(0, FanInExample.run(EVENTS));
    }

    @Test
    void workPool() {
        WorkPoolExample.main(new String[] {"1000"});
        assertEquals(expectedNotional(EVENTS), WorkPoolExample.run(EVENTS));
    }

    @Test
    void queueWorkPool() {
        QueueWorkPoolExample.main(new String[] {"1000"});
        assertEquals(EVENTS, QueueWorkPoolExample.run(EVENTS));
    }

    @Test
    void dynamicHandler() {
        DynamicHandlerExample.main(new String[] {"3000"});
        final long[] seen = DynamicHandlerExample.run(30_000);
        assertEquals(30_000, seen[0]);
        assertTrue(seen[1] > 0 && seen[1] <= 10_000, "audit saw " + seen[1] + " of the middle third");
    }

    @Test
    void batchRewind() {
        BatchRewindExample.main(new String[] {"1000"});
        final BatchRewindExample.Outcome outcome = BatchRewindExample.run(EVENTS);
        assertEquals(EVENTS - 1, outcome.stored, "every trade but 777 was stored, once");
        assertEquals(EVENTS / 1000, outcome.transientFailures);
        assertEquals(1, outcome.givenUp);
    }

    @Test
    void batchRewindSaysTheWarningOnCloseIsExpected() {
        final PrintStream out = System.out;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            BatchRewindExample.main(new String[] {"1000"});
        } finally {
            System.setOut(out);
        }
        final String printed = captured.toString(StandardCharsets.UTF_8);
        assertTrue(printed.contains("expected: the WARNING logged on close reports the 1 trade(s) given up"),
                printed);
    }

    @Test
    void badEventCountIsRefused() {
        final IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> PipelineExample.main(new String[] {"0"}));
        assertEquals("event count must be at least 1, got 0", e.getMessage());
    }
}

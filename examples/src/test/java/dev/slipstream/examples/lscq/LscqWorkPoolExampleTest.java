package dev.slipstream.examples.lscq;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class LscqWorkPoolExampleTest {

    @Test
    void everyJobIsHandledExactlyOnce() throws Exception {
        final LscqWorkPoolExample.Summary summary = LscqWorkPoolExample.run(50_000, 3, 3);

        assertTrue(summary.exactlyOnce(), "a job was lost or handled twice");
        assertTrue(summary.checksumOk(), "wrong results");
        assertEquals(50_000, Arrays.stream(summary.perWorker()).sum());
        assertTrue(summary.shutdown().isClean(), summary.shutdown()::toString);
    }

    @Test
    void refusesNonPositiveCounts() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LscqWorkPoolExample.run(10, 0, 1));
        assertEquals("jobs, producers and workers must be positive, got 10, 0, 1", e.getMessage());
    }
}

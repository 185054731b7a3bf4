package dev.slipstream.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The queues' counters count what happened, exactly where one thread makes it predictable, and
 * nothing when off. One thread filling {@code RINGS} rings of {@code CAPACITY}, then draining
 * them: each ring but the first was added after the one before refused an element and was closed,
 * the refused position is passed once by the dequeuer, and nothing else misses.
 */
class QueueCountersTest {
    private static final long ADDED = QueueCountersChild.RINGS - 1;
    /** The library and the test classes as a plain class path (the tests may run as a module). */
    private static final String CLASS_PATH = Path.of("target/classes").toAbsolutePath() + File.pathSeparator
            + Path.of("target/test-classes").toAbsolutePath();

    @Test
    void offThereIsNothingToCount() {
        assertFalse(QueueCounters.enabled(), "the build's JVMs run without -D" + QueueCounters.PROPERTY);
        final Map<String, Map<String, Long>> counts = childCounts(false);
        for (final Map<String, Long> queue : counts.values()) {
            queue.values().forEach(count -> assertEquals(0L, count, queue.toString()));
        }
    }

    @Test
    void onEachRingAddedAndClosedIsCountedAndNothingElseOnOneThread() {
        final Map<String, Map<String, Long>> counts = childCounts(true);
        final Map<String, Long> lprq = counts.get("LprqQueue");
        assertEquals(ADDED, lprq.get("RING_ADDED"), lprq.toString());
        assertEquals(ADDED, lprq.get("RING_CLOSED"), lprq.toString());
        assertEquals(ADDED, lprq.get("ENQUEUE_RETRY"), "the position that found each ring full: " + lprq);
        assertEquals(ADDED, lprq.get("CELL_OCCUPIED"), "that position's cell held the ring's first element: " + lprq);
        // that position stays in the closed ring, empty: the dequeuer takes it, finds nothing and
        // passes its cell, once per closed ring
        assertEquals(ADDED, lprq.get("DEQUEUE_RETRY"), lprq.toString());
        assertEquals(ADDED, lprq.get("CELL_PASSED"), lprq.toString());
        for (final String none : List.of("ENQUEUER_WAIT", "TAIL_FIXED", "CAS_FAILED")) {
            assertEquals(0L, lprq.get(none), none + " with one thread: " + lprq);
        }
        final Map<String, Long> lscq = counts.get("LscqQueue");
        assertEquals(ADDED, lscq.get("RING_ADDED"), lscq.toString());
        assertEquals(ADDED, lscq.get("RING_CLOSED"), "each full segment finalized once: " + lscq);
        assertEquals(0L, lscq.get("CAS_FAILED"), "no other thread to lose a CAS to: " + lscq);
    }

    /** @return per queue, each event's count, from a child JVM with counting on or off */
    private static Map<String, Map<String, Long>> childCounts(final boolean on) {
        try {
            final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-D" + QueueCounters.PROPERTY + "=" + on, "-cp", CLASS_PATH,
                    QueueCountersChild.class.getName()).redirectErrorStream(true).start();
            final String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child ends");
            assertEquals(0, child.exitValue(), out);
            final Map<String, Map<String, Long>> counts = new HashMap<>();
            for (final String line : out.split("\n")) {
                if (line.startsWith("COUNTS ")) {
                    final String[] words = line.trim().split(" ");
                    final Map<String, Long> queue = new HashMap<>();
                    for (int i = 2; i < words.length; i++) {
                        final String[] kv = words[i].split("=");
                        queue.put(kv[0], Long.parseLong(kv[1]));
                    }
                    counts.put(words[1], queue);
                }
            }
            assertEquals(2, counts.size(), out);
            return counts;
        } catch (final IOException e) {
            throw new AssertionError("could not run the child JVM", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}

package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a child JVM that journals through a pipeline ({@link CrashChild}) with SIGKILL
 * ({@link Process#destroyForcibly()}) at random moments, many times, on one journal. After each
 * kill the journal is opened (recovered) and read back: every event up to the last sequence the
 * child reported durable must be there, in order and byte-identical, and nothing else may be
 * returned (a torn record is cut, never replayed). Then the next child appends to the same journal.
 *
 * <p>Kills ({@code journal.crash.kills}, set by this module's pom): 8 in every build, 25 with
 * {@code -Pstress}; {@code -Djournal.crash.kills=200} runs the long version. Two seeded bugs in
 * {@link CrashChild} show that the check fails when durability is claimed too early (tagged
 * {@code stress}: with {@code -Pstress}).
 */
@Tag("scaled")
class JournalCrashTest {
    private static final long SEED = Long.getLong("journal.crash.seed", System.nanoTime());

    @TempDir
    Path dir;

    /** What a series of kills found. */
    record Outcome(int kills, int tornTails, long records, List<String> problems, int sparesLeft) {
    }

    @Test
    void noDurableEventIsLostAndNoTornRecordIsReturnedOverRandomKills() throws Exception {
        final int kills = Integer.getInteger("journal.crash.kills", 25);
        final long start = System.nanoTime();
        final Outcome outcome = killRepeatedly("correct", kills, new Random(SEED));
        System.out.printf("journal crash test: %d kills (seed %d), %d torn tails cut, %,d records checked, %d problems, %.1f s%n",
                outcome.kills(), SEED, outcome.tornTails(), outcome.records(), outcome.problems().size(),
                (System.nanoTime() - start) / 1e9);
        assertEquals(List.of(), outcome.problems(), "seed " + SEED);
        assertEquals(kills, outcome.kills());
    }

    @Test
    void withThePretoucherNoDurableEventIsLostAndALeftSpareIsRemovedOverRandomKills() throws Exception {
        final int kills = Math.max(4, Integer.getInteger("journal.crash.kills", 25) / 2);
        final Outcome outcome = killRepeatedly("pretouch", kills, new Random(SEED));
        System.out.printf("journal crash test with the pretoucher: %d kills, %d torn tails cut, %d spares left by a kill,"
                + " %,d records checked, %d problems%n", outcome.kills(), outcome.tornTails(), outcome.sparesLeft(),
                outcome.records(), outcome.problems().size());
        assertEquals(List.of(), outcome.problems(), "seed " + SEED);
        assertTrue(outcome.sparesLeft() > 0, "no kill left a spare segment: the case is not exercised");
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAReporterPlacedBesideTheJournal() throws Exception {
        final Outcome outcome = killRepeatedly("report-beside-journal", 15, new Random(SEED));
        System.out.printf("journal crash test, seeded bug report-beside-journal: caught after %d kill(s): %s%n", outcome.kills(),
                outcome.problems().isEmpty() ? "-" : outcome.problems().get(0));
        assertFalse(outcome.problems().isEmpty(), "the seeded bug went unnoticed over 15 kills");
        assertTrue(outcome.problems().get(0).contains("lost"), outcome.problems().get(0));
    }

    @Test
    @Tag("stress")
    void theCheckCatchesAStageThatAcknowledgesABatchBeforeWritingIt() throws Exception {
        final Outcome outcome = killRepeatedly("ack-at-batch-start", 15, new Random(SEED));
        System.out.printf("journal crash test, seeded bug ack-at-batch-start: caught after %d kill(s): %s%n", outcome.kills(),
                outcome.problems().isEmpty() ? "-" : outcome.problems().get(0));
        assertFalse(outcome.problems().isEmpty(), "the seeded bug went unnoticed over 15 kills");
        assertTrue(outcome.problems().get(0).contains("lost"), outcome.problems().get(0));
    }

    private Outcome killRepeatedly(final String mode, final int kills, final Random random) throws Exception {
        final Path journalDir = Files.createDirectory(dir.resolve("journal"));
        final List<String> problems = new ArrayList<>();
        int torn = 0;
        int sparesLeft = 0;
        long records = 0;
        for (int kill = 0; kill < kills; kill++) {
            final long reported = runAndKill(journalDir, mode, random);
            final int spares = spareFiles(journalDir);
            sparesLeft += spares > 0 ? 1 : 0;
            try (Journal journal = Journal.open(JournalConfig.of(journalDir).segmentSize(CrashChild.SEGMENT_SIZE))) {
                torn += journal.recovery().truncated() ? 1 : 0;
                final long first = journal.firstSequence();
                final long next = journal.nextSequence();
                final long[] expected = {first};
                final String[] wrong = {null};
                final long replayed = journal.newReader().replay(first, Long.MAX_VALUE, new Message.Codec(), new Message(),
                        (m, sequence, last) -> {
                            if (wrong[0] == null && (sequence != expected[0] || m.differenceFrom(sequence) != null)) {
                                wrong[0] = "record " + sequence + " (expected " + expected[0] + "): "
                                        + m.differenceFrom(sequence);
                            }
                            expected[0]++;
                        });
                records += replayed;
                if (wrong[0] != null) {
                    problems.add("kill " + kill + ": corrupt record returned: " + wrong[0]);
                }
                if (replayed != next - first) {
                    problems.add("kill " + kill + ": replay returned " + replayed + " records, the journal says "
                            + (next - first));
                }
                if (next - 1 < reported) {
                    problems.add("kill " + kill + ": durable events lost: the child reported " + reported
                            + " durable, the journal ends at " + (next - 1) + " (" + journal.recovery() + ")");
                }
                journal.deleteSegmentsBelow(next - 10_000);
            }
            if (spareFiles(journalDir) != 0) {
                problems.add("kill " + kill + ": opening left " + spareFiles(journalDir) + " spare segment file(s)");
            }
            if (!problems.isEmpty() && !"correct".equals(mode)) {
                return new Outcome(kill + 1, torn, records, problems, sparesLeft);
            }
        }
        return new Outcome(kills, torn, records, problems, sparesLeft);
    }

    /** The pretoucher's spare segment files ({@code spare-*.segment.tmp}) in a directory. */
    private static int spareFiles(final Path journalDir) throws IOException {
        try (var files = Files.newDirectoryStream(journalDir, "spare-*" + Segment.TEMP_SUFFIX)) {
            int n = 0;
            for (final Path ignored : files) {
                n++;
            }
            return n;
        }
    }

    /** Starts a child, lets it run a random time after its first durable report, kills it; returns the last report. */
    private long runAndKill(final Path journalDir, final String mode, final Random random) throws Exception {
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Path errors = dir.resolve("child-stderr.txt");
        final Process child = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(), journalDir.toString(), mode)
                .redirectError(errors.toFile())
                .start();
        final AtomicLong reported = new AtomicLong(-1);
        final AtomicLong reports = new AtomicLong();
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.startsWith("D ")) {
                        reported.accumulateAndGet(Long.parseLong(line.substring(2)), Math::max);
                        reports.incrementAndGet();
                    }
                }
            } catch (IOException killed) {
                // the pipe breaks when the child dies
            }
        }, "child-reader");
        reader.start();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (reports.get() == 0 && child.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        if (reports.get() == 0) {
            child.destroyForcibly().waitFor();
            throw new AssertionError("the child reported nothing (alive " + child.isAlive() + "): "
                    + Files.readString(errors));
        }
        Thread.sleep(random.nextInt(250));
        child.destroyForcibly();   // SIGKILL on Linux: no shutdown hook, no finally, no flush
        assertTrue(child.waitFor(30, TimeUnit.SECONDS));
        reader.join(TimeUnit.SECONDS.toMillis(30));
        return reported.get();
    }
}

package dev.slipstream.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pretoucher: same files with it and without it, a safe close at any point, and what a crash leaves. */
class JournalPretouchTest {
    private static final int SMALL_SEGMENT = JournalConfig.MIN_SEGMENT_SIZE;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    void isOffByDefaultAndEachSetterKeepsIt() {
        final JournalConfig plain = JournalConfig.of(dir);
        assertFalse(plain.pretouch());
        final JournalConfig on = plain.pretouch(true);
        assertTrue(on.pretouch());
        assertFalse(plain.pretouch(), "a configuration is immutable");
        assertTrue(on.segmentSize(SMALL_SEGMENT).syncPolicy(SyncPolicy.never()).indexInterval(8)
                .truncateAtCorruption(true).pretouch());
        assertFalse(on.pretouch(false).pretouch());
        assertTrue(on.toString().contains("pretouch=true"), on.toString());
        // the other settings still refuse bad input with the pretoucher on
        final IllegalArgumentException size = assertThrows(IllegalArgumentException.class, () -> on.segmentSize(4097));
        assertTrue(size.getMessage().contains("segmentSize must be a multiple of 4096"), size.getMessage());
        assertThrows(NullPointerException.class, () -> on.syncPolicy(null));
    }

    @Test
    void writesTheSameFilesAcrossManyRollsWithAndWithoutThePretoucher() throws Exception {
        for (final SyncPolicy policy : List.of(SyncPolicy.never(), SyncPolicy.everyBatch())) {
            final Path without = Files.createDirectory(dir.resolve("without-" + policy.kind()));
            final Path with = Files.createDirectory(dir.resolve("with-" + policy.kind()));
            final int records = 15_000;
            try (Journal journal = Journal.open(JournalConfig.of(without).segmentSize(SMALL_SEGMENT).syncPolicy(policy))) {
                appendWaitingForSpares(journal, records, 50);
            }
            final long taken;
            final int segments;
            try (Journal journal = Journal.open(JournalConfig.of(with).segmentSize(SMALL_SEGMENT).syncPolicy(policy)
                    .pretouch(true))) {
                appendWaitingForSpares(journal, records, 50);
                taken = journal.pretoucher().taken();
                segments = journal.segments().size();
            }
            assertTrue(segments >= 20, "the records span many segments: " + segments);
            assertEquals(segments - 1, taken, "every roll took a prepared segment");
            assertSameSegmentFiles(without, with);
            assertEquals(List.of(), temporaryFiles(with), "close removed the unused spare");
            assertEquals(records, JournalTest.replayAndCheck(with, 0));
            assertEquals(records, JournalTest.replayAndCheck(without, 0));
        }
    }

    @Test
    void touchingTheSegmentTheWriterStartsInChangesNoByte() throws Exception {
        final Path copy = Files.createDirectory(dir.resolve("copy"));
        final Path live = Files.createDirectory(dir.resolve("live"));
        try (Journal journal = Journal.open(JournalConfig.of(live).segmentSize(SMALL_SEGMENT))) {
            JournalTest.append(journal.stage(new Message.Codec()), 0, 500, 10);
        }
        final Path last = Journal.list(live).lastEntry().getValue();
        Files.copy(last, copy.resolve(last.getFileName()));
        // every page, those holding records included
        final Segment segment = Segment.open(last, true);
        segment.touchPages(0, Integer.MAX_VALUE);
        Unmapper.unmap(segment.mapping);
        assertEquals(-1L, Files.mismatch(last, copy.resolve(last.getFileName())));
        // and as opening does it, from the write position, then writing on
        try (Journal journal = Journal.open(JournalConfig.of(live).segmentSize(SMALL_SEGMENT).pretouch(true))) {
            assertEquals(-1L, Files.mismatch(last, copy.resolve(last.getFileName())));
            appendWaitingForSpares(journal, 700, 10);
        }
        assertEquals(1_200, JournalTest.replayAndCheck(live, 0));
    }

    @Test
    void aWriterThatRollsBeforeASpareIsReadyMakesItsOwnSegment() throws Exception {
        // the first spare is held half touched until the writer has rolled twice
        final CountDownLatch rolled = new CountDownLatch(1);
        final SegmentPretoucher.PageListener holdFirst = offset -> {
            if (offset == Segment.PAGE) {
                awaitUninterruptibly(rolled);
            }
        };
        try (Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT).pretouch(true), holdFirst)) {
            final JournalStage<Message> stage = journal.stage(new Message.Codec());
            long next = 0;
            while (journal.segments().size() < 3) {
                JournalTest.append(stage, next, 1, 1);
                next++;
            }
            assertEquals(0, journal.pretoucher().taken(), "no spare was ready: the writer never waits for one");
            rolled.countDown();
            assertEquals(next, JournalTest.replayAndCheck(dir, 0));
        }
        assertEquals(List.of(), temporaryFiles(dir));
    }

    @Test
    void closeWhileThePretoucherIsHalfWayThroughASegmentJoinsItAndRemovesTheSpare() throws Exception {
        final int stopAt = 8 * Segment.PAGE;
        final CountDownLatch halfWay = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger lastTouched = new AtomicInteger(-1);
        final AtomicReference<Thread> toucher = new AtomicReference<>();
        final SegmentPretoucher.PageListener listener = offset -> {
            lastTouched.set(offset);
            if (offset == stopAt && toucher.compareAndSet(null, Thread.currentThread())) {
                halfWay.countDown();
                awaitUninterruptibly(release);
            }
        };
        final Journal journal = Journal.open(JournalConfig.of(dir).segmentSize(SMALL_SEGMENT).syncPolicy(SyncPolicy.never())
                .pretouch(true), listener);
        JournalTest.append(journal.stage(new Message.Codec()), 0, 100, 10);
        assertTimeoutPreemptively(PATIENCE, () -> halfWay.await());
        assertEquals(1, temporaryFiles(dir).size(), "the spare being touched exists");
        final AtomicReference<Throwable> closeFailure = new AtomicReference<>();
        final Thread closer = new Thread(() -> {
            try {
                journal.close();
            } catch (Throwable t) {
                closeFailure.set(t);
            }
        }, "closer");
        closer.start();
        // close has asked the pretoucher to stop and waits in its join: only then let the touch go on
        assertTimeoutPreemptively(PATIENCE, () -> {
            while (closer.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
        });
        assertTrue(toucher.get().isAlive(), "close has not returned before the pretoucher stopped");
        release.countDown();
        assertTimeoutPreemptively(PATIENCE, () -> closer.join());
        assertNull(closeFailure.get());
        assertFalse(toucher.get().isAlive(), "close joined the pretoucher");
        assertEquals(stopAt, lastTouched.get(), "the pretoucher stopped at the next page, half way through");
        assertEquals(List.of(), temporaryFiles(dir), "the half-touched spare was removed");
        try (Journal reopened = Journal.open(JournalConfig.of(dir))) {
            assertFalse(reopened.recovery().truncated(), reopened.recovery().toString());
            assertEquals(100, reopened.nextSequence());
        }
        assertEquals(100, JournalTest.replayAndCheck(dir, 0));
    }

    @Test
    void aSpareLeftByACrashDisturbsNeitherReplayNorLocateNorRecovery() throws Exception {
        final Path live = Files.createDirectory(dir.resolve("live"));
        final Path crashed = Files.createDirectory(dir.resolve("crashed"));
        final int records = 3_000;
        try (Journal journal = Journal.open(JournalConfig.of(live).segmentSize(SMALL_SEGMENT)
                .syncPolicy(SyncPolicy.never()).pretouch(true))) {
            appendWaitingForSpares(journal, records, 100);
            awaitSpare(journal);
            // the files as a process kill would leave them: the segments and the ready spare
            try (Stream<Path> files = Files.list(live)) {
                for (final Path f : (Iterable<Path>) files::iterator) {
                    final String name = f.getFileName().toString();
                    if (name.endsWith(Segment.SUFFIX) || name.endsWith(Segment.TEMP_SUFFIX)) {
                        Files.copy(f, crashed.resolve(name));
                    }
                }
            }
        }
        final List<Path> spares = temporaryFiles(crashed);
        assertEquals(1, spares.size(), "the copy holds the spare: " + spares);
        assertEquals(SMALL_SEGMENT, Files.size(spares.get(0)));

        final JournalReader reader = JournalReader.open(crashed);
        assertEquals(records, JournalTest.replayAndCheck(crashed, 0));
        assertEquals(1_000, JournalTest.replayAndCheck(crashed, 2_000));
        assertNotNull(reader.locate(records - 1));
        reader.verify();

        try (Journal reopened = Journal.open(JournalConfig.of(crashed).segmentSize(SMALL_SEGMENT)
                .syncPolicy(SyncPolicy.never()).pretouch(true))) {
            assertFalse(reopened.recovery().truncated(), reopened.recovery().toString());
            assertEquals(records, reopened.nextSequence());
            assertFalse(Files.exists(spares.get(0)), "opening deleted the old spare");
            appendWaitingForSpares(reopened, 1_000, 100);
        }
        assertEquals(records + 1_000, JournalTest.replayAndCheck(crashed, 0));
    }

    @Test
    void aPretoucherThatFailsLeavesTheWriterToMakeItsOwnSegments() throws Exception {
        final SegmentPretoucher.Spares failing = new SegmentPretoucher.Spares() {
            @Override
            public SpareSegment create() {
                throw new JournalException("no room for a spare", dir, 0, -1, null);
            }

            @Override
            public void dispose(final SpareSegment spare) {
                throw new AssertionError("nothing was made");
            }
        };
        final SegmentPretoucher pretoucher = new SegmentPretoucher(failing, "failing-pretoucher",
                SegmentPretoucher.PageListener.NONE);
        pretoucher.start();
        pretoucher.close();
        assertNull(pretoucher.takeReady());
        assertEquals(0, pretoucher.taken());
    }

    /** Appends in batches, each after the pretoucher (if any) has a spare ready, so every roll uses one. */
    private static void appendWaitingForSpares(final Journal journal, final int records, final int batch) {
        final JournalStage<Message> stage = journal.stage(new Message.Codec());
        for (int from = 0; from < records; from += batch) {
            if (journal.pretoucher() != null) {
                awaitSpare(journal);
            }
            JournalTest.append(stage, from, Math.min(batch, records - from), batch);
        }
    }

    private static void awaitSpare(final Journal journal) {
        assertTimeoutPreemptively(PATIENCE, () -> {
            while (!journal.pretoucher().hasReady()) {
                Thread.onSpinWait();
            }
        });
    }

    private static void awaitUninterruptibly(final CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // keep waiting: the test decides when the pretoucher goes on
            }
        }
    }

    private static List<Path> temporaryFiles(final Path directory) throws IOException {
        final List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> temps = Files.newDirectoryStream(directory, "*" + Segment.TEMP_SUFFIX)) {
            temps.forEach(found::add);
        }
        return found;
    }

    private static void assertSameSegmentFiles(final Path expected, final Path actual) throws IOException {
        final List<Path> a = new ArrayList<>(Journal.list(expected).values());
        final List<Path> b = new ArrayList<>(Journal.list(actual).values());
        assertEquals(a.stream().map(Path::getFileName).toList(), b.stream().map(Path::getFileName).toList());
        for (int i = 0; i < a.size(); i++) {
            assertEquals(-1L, Files.mismatch(a.get(i), b.get(i)), "bytes of " + b.get(i) + " against " + a.get(i));
        }
    }
}

package dev.slipstream.bench.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The disk's own cost for a snapshot's bytes: {@code --writers} threads (default 1) each write
 * {@code --mib} MiB to a new file of their own in {@code --dir}, in 1 MiB writes, and force it to
 * the disk; prints {@code DISK mib=256 writers=1 ms=412.5}, from the first write to the last
 * force. Three writers are what three members on one machine do when they snapshot together.
 *
 * <pre>
 * java -cp benchmarks.jar dev.slipstream.bench.snapshot.DiskBaseline --dir /tmp/stall --mib 256 --writers 3
 * </pre>
 */
public final class DiskBaseline {
    private DiskBaseline() {
    }

    /**
     * @param args {@code --dir --mib --writers}
     * @throws Exception if a file cannot be written
     */
    public static void main(final String[] args) throws Exception {
        final StallOptions o = StallOptions.parse(args, "dir", "mib", "writers");
        final long mib = o.integer("mib", 16L);
        final int writers = o.integer("writers", 1);
        final Path dir = Files.createDirectories(Path.of(o.text("dir", "/tmp")));
        final List<Path> files = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            files.add(Files.createTempFile(dir, "disk", ".bin"));
        }
        final List<Thread> threads = new ArrayList<>();
        final Throwable[] failure = new Throwable[1];
        final long start = System.nanoTime();
        try {
            for (final Path file : files) {
                final Thread thread = new Thread(() -> write(file, mib), "disk-writer");
                thread.setUncaughtExceptionHandler((t, e) -> failure[0] = e);
                threads.add(thread);
                thread.start();
            }
            for (final Thread thread : threads) {
                thread.join();
            }
            final long nanos = System.nanoTime() - start;
            if (failure[0] != null) {
                throw new IOException("a disk writer failed", failure[0]);
            }
            System.out.printf(Locale.ROOT, "DISK mib=%d writers=%d ms=%.1f%n", mib, writers, nanos / 1e6);
        } finally {
            for (final Path file : files) {
                Files.deleteIfExists(file);
            }
        }
    }

    private static void write(final Path file, final long mib) {
        final ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < block.capacity(); i++) {
            block.put(i, (byte) (i * 31 + 7));  // not zeros: nothing on the way may skip them
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long i = 0; i < mib; i++) {
                block.clear();
                while (block.hasRemaining()) {
                    channel.write(block);
                }
            }
            channel.force(true);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

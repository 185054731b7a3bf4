package dev.slipstream.bench.snapshot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The disk's own cost for a snapshot's bytes: writes {@code --mib} MiB to a new file in
 * {@code --dir} in 1 MiB writes, forces it to the disk, deletes it, and prints
 * {@code DISK mib=256 ms=412.5} (writing and the force together).
 *
 * <pre>
 * java -cp benchmarks.jar dev.slipstream.bench.snapshot.DiskBaseline --dir /tmp/stall --mib 256
 * </pre>
 */
public final class DiskBaseline {
    private DiskBaseline() {
    }

    /**
     * @param args {@code --dir --mib}
     * @throws IOException if the file cannot be written
     */
    public static void main(final String[] args) throws IOException {
        final StallOptions o = StallOptions.parse(args, "dir", "mib");
        final long mib = o.integer("mib", 16L);
        final Path file = Files.createTempFile(Files.createDirectories(Path.of(o.text("dir", "/tmp"))), "disk", ".bin");
        final ByteBuffer block = ByteBuffer.allocateDirect(1 << 20);
        for (int i = 0; i < block.capacity(); i++) {
            block.put(i, (byte) (i * 31 + 7));  // not zeros: nothing on the way may skip them
        }
        final long start = System.nanoTime();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            for (long i = 0; i < mib; i++) {
                block.clear();
                while (block.hasRemaining()) {
                    channel.write(block);
                }
            }
            channel.force(true);
            final long nanos = System.nanoTime() - start;
            System.out.printf(Locale.ROOT, "DISK mib=%d ms=%.1f%n", mib, nanos / 1e6);
        } finally {
            Files.deleteIfExists(file);
        }
    }
}

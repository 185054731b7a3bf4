package dev.slipstream.bench;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * JMH's machine-wide lock ({@code <java.io.tmpdir>/jmh.lock}), taken for measurements that do
 * not run through JMH (the latency JVMs), so that two measurements never share the machine.
 * With {@code -Djmh.ignoreLock=true} it is not taken, as JMH itself does.
 *
 * <pre>{@code
 * try (MachineLock lock = MachineLock.acquire(System.out::println)) {
 *     // measure
 * }
 * }</pre>
 */
final class MachineLock implements AutoCloseable {
    private final FileChannel channel;
    private final FileLock lock;

    private MachineLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Waits (up to 30 minutes) for the lock. */
    static MachineLock acquire(final Consumer<String> log) throws IOException {
        if (Boolean.getBoolean("jmh.ignoreLock")) {
            return new MachineLock(null, null);
        }
        final FileChannel ch = FileChannel.open(Path.of(System.getProperty("java.io.tmpdir"), "jmh.lock"),
                StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(30);
        boolean told = false;
        while (true) {
            final FileLock l = ch.tryLock();
            if (l != null) {
                return new MachineLock(ch, l);
            }
            if (System.nanoTime() - deadline > 0) {
                ch.close();
                throw new IOException("another benchmark held " + System.getProperty("java.io.tmpdir")
                        + "/jmh.lock for 30 minutes");
            }
            if (!told) {
                log.accept("latency: another JMH run holds the machine lock; waiting for it to finish");
                told = true;
            }
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                ch.close();
                throw new IOException("interrupted while waiting for the machine lock", e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (lock != null) {
            lock.release();
            channel.close();
        }
    }
}

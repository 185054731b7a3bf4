package dev.slipstream.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The one-writer rule: an exclusive lock on {@code journal.lock} in the journal's directory, held
 * while the journal is open. The operating system drops it when the process dies, so a crashed
 * writer never leaves the directory locked.
 */
final class DirectoryLock implements AutoCloseable {
    static final String FILE_NAME = "journal.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(final FileChannel channel, final FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    static DirectoryLock acquire(final Path directory) {
        final Path file = directory.resolve(FILE_NAME);
        final FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new JournalException("cannot open the journal's lock file " + file
                    + " (is the directory writable?): " + e, file, -1, -1, e);
        }
        FileLock lock = null;
        String holder = "another process";
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException sameProcess) {
            holder = "another Journal in this process";
        } catch (IOException e) {
            closeQuietly(channel);
            throw new JournalException("cannot lock " + file + ": " + e, file, -1, -1, e);
        }
        if (lock == null) {
            closeQuietly(channel);
            throw new JournalException("journal directory " + file.getParent() + " is already open for writing by "
                    + holder + " (it holds " + file + "); a journal has one writer at a time", file, -1, -1, null);
        }
        return new DirectoryLock(channel, lock);
    }

    private static void closeQuietly(final FileChannel channel) {
        try {
            channel.close();
        } catch (IOException ignored) {
            // the lock attempt's failure is what matters
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}

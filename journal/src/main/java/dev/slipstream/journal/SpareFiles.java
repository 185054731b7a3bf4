package dev.slipstream.journal;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes and removes the temporary files of {@link SpareSegment}s in a journal's directory. Each
 * spare gets a name of its own ({@code spare-<n>.segment.tmp}, created only if absent), so a spare
 * being made never shares a file with one the writer is renaming.
 */
final class SpareFiles implements SegmentPretoucher.Spares {
    private final Path directory;
    private final int segmentSize;
    /** Used by the pretoucher's thread only. */
    private long made;

    SpareFiles(final Path directory, final int segmentSize) {
        this.directory = directory;
        this.segmentSize = segmentSize;
    }

    @Override
    public SpareSegment create() {
        final Path temp = directory.resolve(String.format("spare-%020d%s", made++, Segment.TEMP_SUFFIX));
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // mapping past the end grows the file, as Segment.create does
            final MappedByteBuffer mapping = channel.map(FileChannel.MapMode.READ_WRITE, 0, segmentSize);
            return new SpareSegment(temp, mapping);
        } catch (IOException e) {
            throw new JournalException("cannot create the spare segment file " + temp + " (" + segmentSize
                    + " bytes): " + e, temp, 0, -1, e);
        }
    }

    @Override
    public void dispose(final SpareSegment spare) {
        Unmapper.unmap(spare.pages());
        try {
            Files.deleteIfExists(spare.file());
        } catch (IOException e) {
            throw new JournalException("cannot delete the unused spare segment file " + spare.file() + ": " + e
                    + "; opening the journal deletes it", spare.file(), 0, -1, e);
        }
    }
}

package dev.slipstream.journal;

import java.nio.file.Path;
import java.util.NavigableMap;

/**
 * Where a reader finds a journal's segment files. Listing a directory costs a system call per
 * file, so a reader lists once when it starts and again only when it reaches the last segment it
 * knew of: a replay lists a constant number of times, whatever the number of segments.
 */
interface SegmentDirectory {
    /**
     * The directory, for messages and for resolving segment names.
     *
     * @return the path
     */
    Path path();

    /**
     * The segment files present now, by first sequence.
     *
     * @return a new map
     */
    NavigableMap<Long, Path> list();

    /**
     * The segment files of a directory on the file system.
     *
     * @param directory the journal's directory
     * @return a listing that reads the directory at each call
     */
    static SegmentDirectory of(final Path directory) {
        return new Listed(directory);
    }

    /** Reads the directory at each {@link #list()}. */
    record Listed(Path path) implements SegmentDirectory {
        @Override
        public NavigableMap<Long, Path> list() {
            return Journal.list(path);
        }
    }
}

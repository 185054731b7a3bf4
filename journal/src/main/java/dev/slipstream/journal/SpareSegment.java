package dev.slipstream.journal;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * A segment file made ahead of need by the {@link SegmentPretoucher}: created under a temporary
 * name (ending in {@code .segment.tmp}, which opening a journal deletes and readers never list),
 * sized and mapped, its first pages written once, and no header yet. The writer gives it its header
 * and its real name when it rolls ({@link Segment#adopt}).
 *
 * @param file the temporary file
 * @param pages the whole file, mapped for writing (a heap buffer in the protocol's model check)
 */
record SpareSegment(Path file, ByteBuffer pages) {
}

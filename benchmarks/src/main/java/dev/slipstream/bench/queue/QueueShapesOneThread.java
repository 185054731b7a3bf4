package dev.slipstream.bench.queue;

import org.openjdk.jmh.annotations.Threads;

/** {@link QueueShapes} with one thread. */
@Threads(1)
public class QueueShapesOneThread extends QueueShapes {
}

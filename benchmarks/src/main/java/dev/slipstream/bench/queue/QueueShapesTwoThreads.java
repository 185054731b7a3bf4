package dev.slipstream.bench.queue;

import org.openjdk.jmh.annotations.Threads;

/** {@link QueueShapes} with two threads on one queue. */
@Threads(2)
public class QueueShapesTwoThreads extends QueueShapes {
}

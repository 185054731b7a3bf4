/**
 * Scalable lock-free MPMC queues on single-width CAS and fetch-and-add: LPRQ ({@link
 * dev.slipstream.queue.LprqQueue}, the default unbounded queue, references in the ring) and SCQ/LSCQ
 * (index packing). The unbounded queues can be closed ({@link
 * dev.slipstream.queue.LprqQueue#close()}, {@link dev.slipstream.queue.LscqQueue#close()}: later
 * offers fail, accepted elements can still be taken, {@code isDrained()} says when the last one
 * was), and each has a {@link java.util.concurrent.BlockingQueue} variant whose {@code take}
 * waits without a lock: {@link dev.slipstream.queue.LprqBlockingQueue} and {@link
 * dev.slipstream.queue.LscqBlockingQueue}.
 */
package dev.slipstream.queue;

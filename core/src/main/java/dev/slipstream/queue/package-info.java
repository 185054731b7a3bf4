/**
 * Scalable lock-free MPMC queues on single-width CAS and fetch-and-add: LPRQ ({@link
 * dev.slipstream.queue.LprqQueue}, the default unbounded queue, references in the ring) and SCQ/LSCQ
 * (index packing).
 */
package dev.slipstream.queue;

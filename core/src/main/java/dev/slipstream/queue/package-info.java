/**
 * SCQ and LSCQ: scalable lock-free MPMC queues on single-width CAS, with index packing.
 */
package dev.slipstream.queue;

/**
 * Scalable lock-free MPMC queues on single-width CAS and fetch-and-add: LPRQ ({@link
 * dev.slipstream.queue.LprqQueue}, the default unbounded queue, references in the ring) and SCQ/LSCQ
 * (index packing). The unbounded queues can be closed ({@link
 * dev.slipstream.queue.LprqQueue#close()}, {@link dev.slipstream.queue.LscqQueue#close()}: later
 * offers fail, accepted elements can still be taken, {@code isDrained()} says when the last one
 * was), and each has a {@link java.util.concurrent.BlockingQueue} variant whose {@code take}
 * waits without a lock: {@link dev.slipstream.queue.LprqBlockingQueue} and {@link
 * dev.slipstream.queue.LscqBlockingQueue}. {@link dev.slipstream.queue.SlotSequenceQueue} (a bounded
 * queue with a sequence per slot) and {@link dev.slipstream.queue.LprqQueue.Contention} are
 * candidates for many cores, not defaults.
 *
 * <h2>Memory ordering at the call</h2>
 * Every access to a field or array element shared between threads goes through a private (or
 * package-private) accessor whose name is the access mode's prefix and the field's name, as in
 * {@link dev.slipstream.sequence}, whose package documentation has the table: {@code lv}/{@code
 * sv} volatile load/store, {@code la} acquire load, {@code so} ordered (release) store, {@code
 * lr}/{@code sr} relaxed (opaque), {@code cas} volatile compare-and-set, {@code faa} volatile
 * fetch-and-add. This package adds two: {@code cax}, a volatile compare-and-exchange that
 * returns the witness (so that a failed CAS needs no second load), and {@code fao}, a volatile
 * fetch-and-OR whose old value is not used. A comment at the call says why that mode, where
 * the name alone does not. Plain fields written before an object is published (a new ring, a
 * new segment) need no accessor: the CAS or release that links them publishes them.
 *
 * <p>Hot counters sit between padding classes of 120 bytes, each of which declares an int first:
 * the JVM fills the 4-byte hole after the object header (or between classes) with a subclass's
 * field, which would otherwise land in front of the padding instead of behind it.
 */
package dev.slipstream.queue;

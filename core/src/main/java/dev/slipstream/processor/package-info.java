/**
 * Event handlers and the batch event processor that runs one handler on its own thread.
 *
 * <p>The processor's monitoring counters are stored through accessors named for their access
 * mode, with the prefixes of {@link dev.slipstream.sequence} ({@code sr}: a relaxed, opaque
 * store); their getters load them opaque too.
 */
package dev.slipstream.processor;

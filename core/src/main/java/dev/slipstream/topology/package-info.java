/**
 * The topology DSL: stages, pipelines, multicast, diamonds, work pools and their lifecycle; and
 * {@link dev.slipstream.topology.UnboundedIngress}, an unbounded queue in front of a ring whose
 * producers never wait.
 *
 * <p>Memory ordering is visible at the call: shared fields are read and written through
 * accessors whose prefix names the access mode ({@code lr} relaxed (opaque) load, {@code sr}
 * relaxed store, {@code cas} volatile compare-and-set, {@code faa} volatile fetch-and-add; the
 * full table is in {@link dev.slipstream.sequence}), with a comment saying why that mode.
 */
package dev.slipstream.topology;

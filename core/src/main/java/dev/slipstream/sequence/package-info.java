/**
 * Sequences, sequencers and barriers: which slot a producer may write and which a consumer may read.
 *
 * <h2>Memory ordering at the call</h2>
 * Every access to a field shared between threads goes through a method whose name says its
 * access mode, so the mode is visible where the field is used; a comment at the call says why
 * that mode. {@link dev.slipstream.sequence.Sequence} spells the mode out in its public API
 * ({@code getAcquire}, {@code setRelease}, {@code compareAndSet}); the classes' private accessors
 * use a prefix and the field's name:
 * <table>
 *   <caption>Access-mode prefixes</caption>
 *   <tr><th>load</th><th>store</th><th>mode</th></tr>
 *   <tr><td>{@code lp}</td><td>{@code sp}</td><td>plain</td></tr>
 *   <tr><td>{@code lr}</td><td>{@code sr}</td><td>relaxed: {@code getOpaque} / {@code setOpaque}</td></tr>
 *   <tr><td>{@code la}</td><td>{@code so}</td><td>acquire load / ordered (release) store, {@code so} as in JCTools</td></tr>
 *   <tr><td>{@code lv}</td><td>{@code sv}</td><td>volatile</td></tr>
 *   <tr><td colspan="2">{@code cas}, {@code faa}, {@code xchg}</td><td>volatile compare-and-set, fetch-and-add, get-and-set</td></tr>
 * </table>
 * {@code dev.slipstream.wait}, {@code dev.slipstream.topology} and the LPRQ classes of
 * {@code dev.slipstream.queue} use the same prefixes. A field declared {@code volatile} and read or
 * written as such needs no accessor.
 */
package dev.slipstream.sequence;

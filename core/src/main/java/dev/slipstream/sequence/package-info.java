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
 *   <tr><th>prefix</th><th>mode</th><th>prefix</th><th>mode</th></tr>
 *   <tr><td>{@code lo}</td><td>opaque load</td><td>{@code so}</td><td>opaque store</td></tr>
 *   <tr><td>{@code la}</td><td>acquire load</td><td>{@code sr}</td><td>release store</td></tr>
 *   <tr><td>{@code lv}</td><td>volatile load</td><td>{@code sv}</td><td>volatile store</td></tr>
 *   <tr><td>{@code cas}</td><td>volatile compare-and-set</td><td>{@code faa}</td><td>volatile fetch-and-add</td></tr>
 *   <tr><td>{@code xchg}</td><td>volatile get-and-set</td><td></td><td></td></tr>
 * </table>
 * {@code dev.slipstream.wait} and the LPRQ classes of {@code dev.slipstream.queue} use the same
 * prefixes. A field declared {@code volatile} and read or written as such needs no accessor.
 */
package dev.slipstream.sequence;

/**
 * Wait strategies: how consumers wait for events and producers wait for space, from busy-spin to parking.
 *
 * <p>Memory ordering is visible at the call: shared fields are read and written through private
 * accessors whose prefix names the access mode ({@code lv} volatile load, {@code sv} volatile
 * store, {@code so} ordered (release) store, {@code xchg} volatile get-and-set; the full table is in
 * {@link dev.slipstream.sequence}), with a comment at the call saying why that mode. Two reasons
 * hold throughout and are said only here: a strategy reads the cursor with an acquire load, since
 * seeing a sequence must mean seeing the event written before it; and a signal starts with a full
 * fence (StoreLoad), so that the publishing store is visible before the waiter count is read.
 */
package dev.slipstream.wait;

/**
 * Wait strategies: how consumers wait for events and producers wait for space, from busy-spin to parking.
 */
package dev.slipstream.wait;

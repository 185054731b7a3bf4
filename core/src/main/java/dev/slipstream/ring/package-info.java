/**
 * The preallocated ring buffer, event translators and the pull-style event poller.
 */
package dev.slipstream.ring;

/**
 * Sequences, sequencers and barriers: which slot a producer may write and which a consumer may read.
 */
package dev.slipstream.sequence;

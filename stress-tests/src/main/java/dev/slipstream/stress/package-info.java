/**
 * jcstress tests of the memory ordering of the production classes: sequences, ring publication,
 * multi-producer availability, gating and processor termination.
 *
 * <p>Every test uses at most two actors (plus an arbiter), so that it can be scheduled on a
 * two-CPU machine. Run them with {@code stress-tests/run-jcstress.sh}.
 */
package dev.slipstream.stress;

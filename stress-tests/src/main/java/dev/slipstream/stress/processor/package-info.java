/**
 * jcstress termination tests of the batch event processor: {@code halt()} always ends
 * {@code run()}, whatever the wait strategy and whenever the halt comes.
 */
package dev.slipstream.stress.processor;

/**
 * jcstress termination tests of the wait strategies that park: a waiting consumer always wakes
 * up on a publication and on an alert (no lost wake-up).
 */
package dev.slipstream.stress.wait;

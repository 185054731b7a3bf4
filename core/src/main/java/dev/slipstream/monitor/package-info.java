/**
 * Allocation-free stage metrics and JFR events for backlog and stalls.
 */
package dev.slipstream.monitor;

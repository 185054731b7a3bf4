/**
 * The topology DSL: stages, pipelines, multicast, diamonds, work pools and their lifecycle; and
 * {@link dev.slipstream.topology.UnboundedIngress}, an unbounded queue in front of a ring whose
 * producers never wait.
 */
package dev.slipstream.topology;

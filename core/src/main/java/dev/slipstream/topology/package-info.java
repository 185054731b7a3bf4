/**
 * The topology DSL: stages, pipelines, multicast, diamonds, work pools and their lifecycle.
 */
package dev.slipstream.topology;

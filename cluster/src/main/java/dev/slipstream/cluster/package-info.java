/**
 * A Slipstream pipeline replicated by Aeron Cluster.
 *
 * <p>Every member runs the same pipeline; {@link dev.slipstream.cluster.PipelineClusteredService}
 * publishes each committed log message into the ring in log order, stamped with the cluster's
 * time, so every member's stages see the same events in the same order. Replies travel from a
 * stage to the service thread through a {@link dev.slipstream.cluster.ReplyOutbox}; snapshots are
 * taken with the pipeline quiesced at the snapshot's log position; commands are applied at most
 * once per (client id, correlation id). {@link dev.slipstream.cluster.ClusterMember} starts one
 * member, {@link dev.slipstream.cluster.ClusterCommandClient} sends commands and re-sends the
 * unanswered ones after a failover.
 */
package dev.slipstream.cluster;

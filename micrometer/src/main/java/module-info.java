/**
 * Micrometer meter binders for Slipstream: {@link dev.slipstream.micrometer.SlipstreamMetrics}
 * for a pipeline, {@link dev.slipstream.micrometer.QueueMetrics} for an SCQ/LSCQ queue and
 * {@link dev.slipstream.micrometer.ClusterMemberMetrics} for a cluster member (only with
 * {@code dev.slipstream.cluster}, which this module does not bring).
 *
 * <pre>{@code
 * new SlipstreamMetrics(pipeline).bindTo(registry);
 * new QueueMetrics("jobs", jobs).bindTo(registry);
 * new ClusterMemberMetrics(member).bindTo(registry);
 * }</pre>
 */
@SuppressWarnings("requires-transitive-automatic")
module dev.slipstream.micrometer {
    requires transitive dev.slipstream;
    requires transitive micrometer.core;
    // ClusterMemberMetrics only; an application that binds a member has the cluster module
    requires static dev.slipstream.cluster;

    exports dev.slipstream.micrometer;
}

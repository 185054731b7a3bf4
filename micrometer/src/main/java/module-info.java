/**
 * Micrometer meter binders for Slipstream: {@link dev.slipstream.micrometer.SlipstreamMetrics}
 * for a pipeline and {@link dev.slipstream.micrometer.QueueMetrics} for an SCQ/LSCQ queue.
 *
 * <pre>{@code
 * new SlipstreamMetrics(pipeline).bindTo(registry);
 * new QueueMetrics("jobs", jobs).bindTo(registry);
 * }</pre>
 */
@SuppressWarnings("requires-transitive-automatic")
module dev.slipstream.micrometer {
    requires transitive dev.slipstream;
    requires transitive micrometer.core;

    exports dev.slipstream.micrometer;
}

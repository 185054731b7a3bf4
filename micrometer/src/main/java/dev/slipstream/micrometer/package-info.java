/**
 * Micrometer {@code MeterBinder}s for Slipstream pipelines and queues. The meters read the
 * allocation-free getters of {@code dev.slipstream.monitor} and the queues when the registry
 * asks for a value (on a scrape or a publishing step); nothing is added to the event path.
 *
 * <pre>{@code
 * MeterRegistry registry = new SimpleMeterRegistry();
 * new SlipstreamMetrics(pipeline, Tags.of("app", "matching")).bindTo(registry);
 * }</pre>
 */
package dev.slipstream.micrometer;

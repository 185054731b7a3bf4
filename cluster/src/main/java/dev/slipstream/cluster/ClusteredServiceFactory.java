package dev.slipstream.cluster;

import io.aeron.cluster.service.ClusteredService;

/**
 * Makes the service a {@link ClusterLauncher} runs: the launcher finds the factory by the class
 * name in its configuration file's {@code service.factory}, or else as the one
 * {@code ClusteredServiceFactory} registered with {@link java.util.ServiceLoader} (a
 * {@code META-INF/services/dev.slipstream.cluster.ClusteredServiceFactory} file on the class path,
 * or {@code provides} in a module). It needs a public no-argument constructor, and the launcher
 * makes it once, before it starts the member.
 *
 * <p>Settings of the service's own go in the configuration file under {@code app.}
 * ({@code app.ring.size=4096}); the factory reads them from {@link LauncherConfig#appProperties()}.
 *
 * <pre>{@code
 * public final class EngineFactory implements ClusteredServiceFactory {
 *     @Override
 *     public ClusteredService create(LauncherConfig config) {
 *         int ringSize = Integer.parseInt(config.appProperties().getOrDefault("ring.size", "4096"));
 *         return PipelineClusteredService.builder(Order::new)
 *                 .ingress((buffer, offset, length, order) -> order.decode(buffer, offset))
 *                 .ringSize(ringSize)
 *                 .pipeline(Engine::wire)
 *                 .build();
 *     }
 * }
 * // member-0.properties: service.factory=com.example.EngineFactory
 * }</pre>
 */
@FunctionalInterface
public interface ClusteredServiceFactory {
    /**
     * Makes the service for one member, once, on the launcher's main thread before the member
     * starts.
     *
     * @param config the member's checked configuration: its {@link LauncherConfig#memberConfig()}
     *        and the service's own {@link LauncherConfig#appProperties()}
     * @return the service the member's container runs, never null
     */
    ClusteredService create(LauncherConfig config);
}

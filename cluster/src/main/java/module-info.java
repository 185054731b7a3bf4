/**
 * Slipstream on Aeron Cluster: a pipeline run as a clustered service, with its launcher, its
 * client and a shared-secret authenticator.
 *
 * <ul>
 *   <li>{@code dev.slipstream.cluster}: {@link dev.slipstream.cluster.PipelineClusteredService},
 *       {@link dev.slipstream.cluster.ClusterMember}, {@link dev.slipstream.cluster.ClusterCommandClient}
 *       and what they are built from.</li>
 * </ul>
 */
// Aeron and Agrona publish automatic modules only (names in their manifests); re-exporting them
// is deliberate, since their types are part of this module's API.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.slipstream.cluster {
    requires transitive dev.slipstream;
    // Cluster, client, archive and driver types (ClusteredService, AeronCluster, Authenticator,
    // DirectBuffer) are part of this module's API.
    requires transitive io.aeron.cluster;
    requires transitive io.aeron.archive;
    requires transitive io.aeron.driver;
    requires transitive io.aeron.client;
    requires transitive org.agrona;

    exports dev.slipstream.cluster;

    // ClusterLauncher looks the service's factory up when its configuration file names no class.
    uses dev.slipstream.cluster.ClusteredServiceFactory;
}

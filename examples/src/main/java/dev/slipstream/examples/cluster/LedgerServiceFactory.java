package dev.slipstream.examples.cluster;

import dev.slipstream.cluster.ClusteredServiceFactory;
import dev.slipstream.cluster.LauncherConfig;
import io.aeron.cluster.service.ClusteredService;

/**
 * The {@link LedgerMember}'s service for the member launcher: the sample configurations under
 * {@code cluster/src/main/config} name it, so three members run from the examples jar without a
 * line of Java of their own.
 *
 * <pre>
 * service.factory=dev.slipstream.examples.cluster.LedgerServiceFactory
 * </pre>
 */
public final class LedgerServiceFactory implements ClusteredServiceFactory {
    @Override
    public ClusteredService create(final LauncherConfig config) {
        return LedgerMember.service();
    }
}

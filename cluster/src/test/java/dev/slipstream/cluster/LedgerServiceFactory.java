package dev.slipstream.cluster;

import io.aeron.cluster.service.ClusteredService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The service of the launcher's sample configurations ({@code cluster/src/main/config}): each
 * command is an amount (8 bytes, little-endian), added to a {@link Ledger}, and answered with the
 * number of commands the ledger has applied so far.
 *
 * <pre>{@code
 * # member-0.properties
 * service.factory=dev.slipstream.cluster.LedgerServiceFactory
 * }</pre>
 */
public final class LedgerServiceFactory implements ClusteredServiceFactory {
    @Override
    public ClusteredService create(final LauncherConfig config) {
        return TestPipelines.service(Ledger::new, new AtomicReference<>());
    }
}

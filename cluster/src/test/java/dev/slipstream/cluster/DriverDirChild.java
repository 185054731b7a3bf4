package dev.slipstream.cluster;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A one-member cluster in a process of its own whose media driver keeps its directory where it
 * is told, for {@link DriverDirectoryTest}: prints {@code STARTED} once it leads, or
 * {@code REFUSED <message>}, and runs until killed.
 * Arguments: base directory, base port, Aeron directory.
 */
public final class DriverDirChild {
    private DriverDirChild() {
    }

    /**
     * @param args base directory, base port, Aeron directory
     * @throws InterruptedException never: the process is killed
     */
    public static void main(final String[] args) throws InterruptedException {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:" + args[1]), Path.of(args[0]))
                .withAeronDir(Path.of(args[2]));
        final ClusterMember member;
        try {
            member = ClusterMember.start(config, TestPipelines.service(Ledger::new, new AtomicReference<>()));
        } catch (final ClusterStartException e) {
            System.out.println("REFUSED " + e.getMessage());
            return;
        }
        while (member.role() != io.aeron.cluster.service.Cluster.Role.LEADER) {
            Thread.sleep(10);
        }
        System.out.println("STARTED");
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}

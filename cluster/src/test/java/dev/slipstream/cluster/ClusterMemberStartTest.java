package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.cluster.service.Cluster;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A member that cannot start says why: a bad member list, a taken port, a directory in use. */
class ClusterMemberStartTest {
    @TempDir
    Path dir;

    private static String message(final Runnable start) {
        return assertThrows(RuntimeException.class, start::run).getMessage();
    }

    @Test
    void aBadMemberListIsRefusedWithWhatWasExpected() {
        assertTrue(message(() -> ClusterMembers.parse(List.of())).contains("member list is empty"));
        assertTrue(message(() -> ClusterMembers.parse(List.of("localhost"))).contains("expected host:basePort"));
        assertTrue(message(() -> ClusterMembers.parse(List.of("localhost:abc"))).contains("not a number"));
        assertTrue(message(() -> ClusterMembers.parse(List.of("localhost:70000"))).contains("expected 1 to 65531"));
        assertTrue(message(() -> ClusterMembers.parse(List.of("localhost:20100", "localhost:20103")))
                .contains("share ports"));
        assertTrue(message(() -> MemberConfig.of(3, List.of("localhost:20100"), dir))
                .contains("member id 3 is not in the member list"));
    }

    @Test
    void theMemberStringAndIngressEndpointsFollowThePortTable() {
        final ClusterMembers members = ClusterMembers.parse(List.of("a:20100", "b:20110"));
        assertEquals("0=a:20100,1=b:20110", members.ingressEndpoints());
        assertEquals("0,a:20100,a:20101,a:20102,a:20103,a:20104|1,b:20110,b:20111,b:20112,b:20113,b:20114|",
                members.memberString());
    }

    @Test
    void aTakenPortIsNamed() throws Exception {
        try (DatagramSocket taken = new DatagramSocket(new InetSocketAddress("localhost", 21502))) {
            final MemberConfig config = MemberConfig.of(0, List.of("localhost:21500"), dir.resolve("m"));
            final ClusterStartException e = assertThrows(ClusterStartException.class,
                    () -> ClusterMember.start(config, TestPipelines.service(Ledger::new, new AtomicReference<>())));
            assertTrue(e.getMessage().contains("UDP port 21502 (log) on localhost is in use"), e.getMessage());
        }
    }

    @Test
    void aDirectoryInUseIsNamed() {
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21510"), dir.resolve("m"));
        try (ClusterMember first = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            final MemberConfig other = MemberConfig.of(0, List.of("localhost:21520"), dir.resolve("m"));
            final ClusterStartException e = assertThrows(ClusterStartException.class,
                    () -> ClusterMember.start(other, TestPipelines.service(Ledger::new, new AtomicReference<>())));
            assertTrue(e.getMessage().contains("is in use by another running member"), e.getMessage());
        }
    }

    @Test
    void aMovedDriverDirectoryIsUsedThenDeletedAndItsStateStaysInTheBaseDir() {
        final Path aeron = dir.resolve("shm").resolve("engine-member-0");
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21530"), dir.resolve("m"))
                .withAeronDir(aeron);
        try (ClusterMember member = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            Await.until("a leader", Duration.ofSeconds(30), () -> { },
                    () -> member.role() == Cluster.Role.LEADER);
            assertTrue(Files.exists(aeron.resolve("cnc.dat")), "the driver's counters in " + aeron);
            assertFalse(Files.exists(dir.resolve("m").resolve("aeron")), "no driver directory in the base dir");
            assertTrue(Files.isDirectory(dir.resolve("m").resolve("archive")), "the state stays in the base dir");
        }
        assertFalse(Files.exists(aeron), "the driver deletes its directory on close");
    }

    @Test
    void aDriverDirectoryInUseOrHoldingOtherFilesIsNamed() throws Exception {
        final Path aeron = dir.resolve("shm").resolve("engine");
        final MemberConfig config = MemberConfig.of(0, List.of("localhost:21540"), dir.resolve("a"))
                .withAeronDir(aeron);
        try (ClusterMember first = ClusterMember.start(config,
                TestPipelines.service(Ledger::new, new AtomicReference<>()))) {
            final MemberConfig other = MemberConfig.of(0, List.of("localhost:21550"), dir.resolve("b"))
                    .withAeronDir(aeron);
            final ClusterStartException e = assertThrows(ClusterStartException.class,
                    () -> ClusterMember.start(other, TestPipelines.service(Ledger::new, new AtomicReference<>())));
            assertTrue(e.getMessage().contains("a media driver is running in " + aeron.toAbsolutePath()), e.getMessage());
            assertTrue(e.getMessage().contains("an Aeron directory of its own"), e.getMessage());
            assertTrue(first.isRunning(), "the first member goes on");
        }
        final Path notTheDrivers = Files.createDirectories(dir.resolve("data"));
        final Path keep = Files.writeString(notTheDrivers.resolve("orders.csv"), "1,2,3");
        final MemberConfig onData = MemberConfig.of(0, List.of("localhost:21560"), dir.resolve("c"))
                .withAeronDir(notTheDrivers);
        final ClusterStartException e = assertThrows(ClusterStartException.class,
                () -> ClusterMember.start(onData, TestPipelines.service(Ledger::new, new AtomicReference<>())));
        assertTrue(e.getMessage().contains("holds 'orders.csv', which is not a media driver's file"), e.getMessage());
        assertTrue(e.getMessage().contains("expected an empty or missing directory"), e.getMessage());
        assertEquals("1,2,3", Files.readString(keep), "the file is left alone");
    }
}

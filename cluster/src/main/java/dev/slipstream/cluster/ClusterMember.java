package dev.slipstream.cluster;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.PriorityHeapTimerServiceSupplier;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusterMarkFile;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import io.aeron.security.AuthenticatorSupplier;
import java.io.File;
import java.io.IOException;
import java.net.BindException;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpLock;

/**
 * One running cluster member: media driver, archive, consensus module and the service container
 * running a {@link ClusteredService} (typically a {@link PipelineClusteredService}), started
 * from a {@link MemberConfig}.
 *
 * <p>Every agent runs with a backing-off idle strategy (spin, yield, then park up to 1 ms), so
 * several members share a few cores without starving each other; the media driver and the
 * archive each run their agents on one shared thread. The consensus module keeps cluster timers
 * as {@link MemberConfig#timerService()} says. Before launching anything the member
 * takes {@code baseDir/member.lock} and checks that its five UDP ports are free, so a second
 * member on the same directory or a taken port fails with a {@link ClusterStartException} that
 * names it. Holding the lock, it sets aside Aeron mark files a killed member left behind
 * (Aeron would take them for a live member's until its timeout passed), so a member killed with
 * SIGKILL can be started again at once. Closing stops the service container, then the rest,
 * then releases the lock.
 *
 * <pre>{@code
 * MemberConfig config = MemberConfig.of(memberId, List.of("localhost:20100", "localhost:20110",
 *         "localhost:20120"), Path.of("members", "member-" + memberId));
 * // the barrier is closed after the member: the shutdown hook waits for it to be closed
 * try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
 *         ClusterMember member = ClusterMember.start(config, service, new SharedSecretAuthenticator(secret))) {
 *     barrier.await();                                          // until SIGINT or SIGTERM
 * }
 * }</pre>
 */
public final class ClusterMember implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterMember.class.getName());
    private static final String LOG_CHANNEL = "aeron:udp?term-length=8m";

    private final MemberConfig config;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;

    private ClusterMember(final MemberConfig config, final FileChannel lockChannel, final FileLock lock,
            final ClusteredMediaDriver driver, final ClusteredServiceContainer container) {
        this.config = config;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.driver = driver;
        this.container = container;
    }

    /**
     * Starts a member whose clients need no credentials.
     *
     * @param config the member's config
     * @param service the service its container runs
     * @return the running member
     * @throws ClusterStartException if the directory is in use, a port is taken, or a part fails to launch
     */
    public static ClusterMember start(final MemberConfig config, final ClusteredService service) {
        return start(config, service, null);
    }

    /**
     * Starts a member.
     *
     * @param config the member's config
     * @param service the service its container runs
     * @param authenticator authenticates client sessions, or null to accept every client
     * @return the running member
     * @throws ClusterStartException if the directory is in use, a port is taken, or a part fails to launch
     */
    public static ClusterMember start(final MemberConfig config, final ClusteredService service,
            final AuthenticatorSupplier authenticator) {
        Objects.requireNonNull(config, "config must not be null");
        Objects.requireNonNull(service, "service must not be null");
        final int id = config.memberId();
        final ClusterMembers members = config.clusterMembers();
        final Path base = config.baseDir();
        FileChannel lockChannel = null;
        FileLock lock = null;
        ClusteredMediaDriver driver = null;
        try {
            Files.createDirectories(base);
            lockChannel = FileChannel.open(base.resolve("member.lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE);
            try {
                lock = lockChannel.tryLock();
            } catch (final OverlappingFileLockException inThisProcess) {
                lock = null;
            }
            if (lock == null) {
                throw new ClusterStartException("member " + id + ": directory " + base.toAbsolutePath()
                        + " is in use by another running member (" + base.resolve("member.lock")
                        + " is locked); give each member a directory of its own, or stop the other one", null);
            }
            setAsideMarkFiles(base);
            for (int offset = 0; offset < ClusterMembers.PORTS_PER_MEMBER; offset++) {
                checkPortFree(id, members.host(id), members.port(id, offset), ClusterMembers.PORT_NAMES[offset]);
            }
            final String aeronDir = base.resolve("aeron").toAbsolutePath().toString();
            final File clusterDir = base.resolve("cluster").toFile();
            final String host = members.host(id);
            final Supplier<IdleStrategy> idle = ClusterMember::backoff;
            final ErrorHandler errors = error -> LOG.log(System.Logger.Level.WARNING, "member " + id + ": " + error,
                    error);

            final MediaDriver.Context driverContext = new MediaDriver.Context()
                    .aeronDirectoryName(aeronDir)
                    .threadingMode(ThreadingMode.SHARED)
                    .sharedIdleStrategy(backoff())
                    .termBufferSparseFile(true)
                    .dirDeleteOnStart(true)
                    .dirDeleteOnShutdown(true)
                    .errorHandler(errors);
            final String localControl = "aeron:ipc?term-length=64k";
            final Archive.Context archiveContext = new Archive.Context()
                    .aeronDirectoryName(aeronDir)
                    .archiveDir(base.resolve("archive").toFile())
                    .controlChannel("aeron:udp?endpoint=" + members.endpoint(id, ClusterMembers.ARCHIVE))
                    .localControlChannel(localControl)
                    .replicationChannel("aeron:udp?endpoint=" + host + ":0")
                    .archiveClientContext(new AeronArchive.Context()
                            .controlResponseChannel("aeron:udp?endpoint=" + host + ":0"))
                    .recordingEventsEnabled(false)
                    .threadingMode(ArchiveThreadingMode.SHARED)
                    .idleStrategySupplier(idle)
                    .errorHandler(errors);
            final AeronArchive.Context archiveClient = new AeronArchive.Context()
                    .lock(NoOpLock.INSTANCE)
                    .controlRequestChannel(localControl)
                    .controlResponseChannel(localControl)
                    .aeronDirectoryName(aeronDir);
            final ConsensusModule.Context consensusContext = new ConsensusModule.Context()
                    .clusterMemberId(id)
                    .clusterMembers(members.memberString())
                    .clusterDir(clusterDir)
                    .ingressChannel("aeron:udp")
                    .logChannel(LOG_CHANNEL)
                    .replicationChannel("aeron:udp?endpoint=" + host + ":0")
                    .archiveContext(archiveClient.clone())
                    .idleStrategySupplier(idle)
                    .leaderHeartbeatTimeoutNs(config.leaderHeartbeatTimeout().toNanos())
                    .sessionTimeoutNs(config.sessionTimeout().toNanos())
                    .wheelTickResolutionNs(config.timerWheelTick().toNanos())
                    .errorHandler(errors);
            if (config.timerService() == MemberConfig.TimerService.PRIORITY_HEAP) {
                consensusContext.timerServiceSupplier(new PriorityHeapTimerServiceSupplier());
            }
            if (authenticator != null) {
                consensusContext.authenticatorSupplier(authenticator);
            }
            final ClusteredServiceContainer.Context containerContext = new ClusteredServiceContainer.Context()
                    .aeronDirectoryName(aeronDir)
                    .archiveContext(archiveClient.clone())
                    .clusterDir(clusterDir)
                    .clusteredService(service)
                    .idleStrategySupplier(idle)
                    .errorHandler(errors);
            driver = ClusteredMediaDriver.launch(driverContext, archiveContext, consensusContext);
            final ClusteredServiceContainer container = ClusteredServiceContainer.launch(containerContext);
            return new ClusterMember(config, lockChannel, lock, driver, container);
        } catch (final ClusterStartException e) {
            CloseHelper.quietCloseAll(driver, lockChannel);
            throw e;
        } catch (final IOException e) {
            CloseHelper.quietCloseAll(driver, lockChannel);
            throw new ClusterStartException("member " + id + ": cannot use directory " + base.toAbsolutePath() + ": "
                    + e, e);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(driver, lockChannel);
            throw new ClusterStartException("member " + id + " failed to launch (directory " + base.toAbsolutePath()
                    + ", members " + config.members() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Holding the member lock proves that no live process owns this directory, so mark files
     * left by a member that was killed are stale: Aeron would refuse them as active until its
     * timeout passes. Each is moved to {@code <name>.previous} (their error logs stay readable).
     */
    private static void setAsideMarkFiles(final Path base) throws IOException {
        final Path[] markFiles = {
            base.resolve("archive").resolve(ArchiveMarkFile.FILENAME),
            base.resolve("cluster").resolve(ClusterMarkFile.FILENAME),
            base.resolve("cluster").resolve(ClusterMarkFile.markFilenameForService(0)),
        };
        for (final Path markFile : markFiles) {
            if (Files.exists(markFile)) {
                Files.move(markFile, markFile.resolveSibling(markFile.getFileName() + ".previous"),
                        StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    private static void checkPortFree(final int id, final String host, final int port, final String use) {
        try (DatagramSocket socket = new DatagramSocket(null)) {
            socket.bind(new InetSocketAddress(host, port));
        } catch (final BindException e) {
            throw new ClusterStartException("member " + id + ": UDP port " + port + " (" + use + ") on " + host
                    + " is in use; stop what holds it or choose another base port for this member", e);
        } catch (final SocketException e) {
            throw new ClusterStartException("member " + id + ": cannot bind UDP port " + port + " (" + use + ") on "
                    + host + ": " + e.getMessage(), e);
        }
    }

    private static IdleStrategy backoff() {
        return new BackoffIdleStrategy(10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
    }

    /** @return the config the member was started with */
    public MemberConfig config() {
        return config;
    }

    /** @return this member's role now */
    public Cluster.Role role() {
        return Cluster.Role.get(driver.consensusModule().context().clusterNodeRoleCounter());
    }

    /**
     * Asks the cluster for a snapshot (every member takes one at the same log position); only the
     * leader acts on it.
     *
     * @return true if the request was placed, false if another control action is under way
     */
    public boolean requestSnapshot() {
        return ClusterControl.ToggleState.SNAPSHOT.toggle(driver.consensusModule().context().controlToggleCounter());
    }

    /** @return the consensus module's context, as it concluded (for tests) */
    ConsensusModule.Context consensusModuleContext() {
        return driver.consensusModule().context();
    }

    /** @return how many snapshots this member has taken since it started */
    public long snapshotCount() {
        return driver.consensusModule().context().snapshotCounter().get();
    }

    /** Stops the service container, the consensus module, the archive and the driver, then unlocks. */
    @Override
    public void close() {
        CloseHelper.quietCloseAll(container, driver);
        try {
            lock.release();
        } catch (final IOException e) {
            LOG.log(System.Logger.Level.WARNING, "member " + config.memberId() + ": releasing the lock: " + e);
        }
        CloseHelper.quietClose(lockChannel);
    }
}

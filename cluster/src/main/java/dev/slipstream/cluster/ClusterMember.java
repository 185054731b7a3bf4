package dev.slipstream.cluster;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveMarkFile;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.PriorityHeapTimerServiceSupplier;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusterMarkFile;
import io.aeron.cluster.service.ClusterTerminationException;
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
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.IoUtil;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpLock;

/**
 * One running cluster member: media driver, archive, consensus module and the service container
 * running a {@link ClusteredService} (typically a {@link PipelineClusteredService}), started
 * from a {@link MemberConfig}.
 *
 * <p>Every agent waits as {@link MemberConfig#agentIdle()} says: by default it backs off (spin,
 * yield, then park up to 1 ms), so several members share a few cores without starving each
 * other; {@link MemberConfig.AgentIdle#BUSY_SPIN} wants a core per agent. The media driver and the
 * archive each run their agents on one shared thread. The consensus module keeps cluster timers
 * as {@link MemberConfig#timerService()} says. Before launching anything the member
 * takes {@code baseDir/member.lock} and checks that its five UDP ports are free, so a second
 * member on the same directory or a taken port fails with a {@link ClusterStartException} that
 * names it. Holding the lock, it sets aside Aeron mark files a killed member left behind
 * (Aeron would take them for a live member's until its timeout passed), so a member killed with
 * SIGKILL can be started again at once. Closing stops the service container, then the rest,
 * then releases the lock.
 *
 * <p>A member started with a {@link RetentionPolicy} asks for periodic snapshots while it leads
 * and, after each snapshot, purges its archive of the snapshots and log that its latest kept
 * snapshots make unnecessary (on a thread of its own, through Aeron Archive's operations; the
 * consensus module forgets the purged snapshots itself). A member that finds it can never catch
 * up (its log ends where the other members' archives no longer reach) stops, and
 * {@link #failure()} names the procedure that seeds it from a peer.
 *
 * <h2>What is safe to call when</h2>
 *
 * <p>Every method may be called from any thread at any time: while the member runs, while it
 * stops after a failure, while another thread closes it and after. None can crash the JVM: the
 * member reads its consensus module's counters through a mapping of the media driver's CnC file
 * that it owns and unmaps only in {@link #close()}, under a lock every read holds, and checks on
 * each read that the counter is still the consensus module's.
 *
 * <table>
 *   <caption>What each method does in each state</caption>
 *   <tr><th>state</th><th>{@link #role()}, {@link #snapshotCount()}, {@link #requestSnapshot()}</th>
 *       <th>{@link #isRunning()}</th><th>{@link #failure()}</th></tr>
 *   <tr><td>running</td><td>answer</td><td>true</td><td>empty</td></tr>
 *   <tr><td>stopped: an error ended a part of it (a stage failed, an agent threw an {@link Error}),
 *       or its consensus module closed</td>
 *       <td>throw {@link IllegalStateException}: {@code cluster member N is stopped: <cause>; ...}</td>
 *       <td>false</td><td>the first error that stopped it (empty if the consensus module closed
 *       without one)</td></tr>
 *   <tr><td>closed (or closing)</td>
 *       <td>throw {@link IllegalStateException}: {@code cluster member N is closed}</td>
 *       <td>false</td><td>as before the close</td></tr>
 * </table>
 *
 * <p>{@link #status()} answers while the member runs and once it has stopped ({@code running}
 * false, the failure, -1 for each counter its consensus module has freed), and throws
 * {@code cluster member N is closed} once it is closed.
 *
 * <p>{@link #config()} and {@link #close()} work in every state; {@code close()} is idempotent, and
 * a second caller returns once the first has finished. A stopped member stays stopped: close it
 * and start it again. The first error that stops a member is logged once at ERROR, naming the
 * member. Exceptions follow one rule: a config that cannot work is refused with an
 * {@link IllegalArgumentException} by {@link MemberConfig} (or {@link ClusterMembers#parse}), a
 * start that fails with a {@link ClusterStartException}, and a call the member's state does not
 * allow with an {@link IllegalStateException}.
 *
 * <p>A health check, from a thread of its own:
 *
 * <pre>{@code
 * try {
 *     health.report(member.role(), member.snapshotCount());
 * } catch (IllegalStateException stoppedOrClosed) {
 *     // the member stopped between two checks, or was closed; failure() says why it stopped
 *     health.down(member.failure().map(Throwable::toString).orElse(stoppedOrClosed.getMessage()));
 * }
 * }</pre>
 *
 * <p>A member run until SIGINT or SIGTERM:
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
    /**
     * Where the service writes its snapshot for the archive to record. Aeron's default IPC term
     * (64 MiB, three of them) makes a large snapshot fault in 192 MiB of fresh log-buffer pages
     * per member before the terms are reused; an 8 MiB term keeps the pages the archive has just
     * read in use. Measured with 256 MiB of stage state (three members on one 2-vCPU machine,
     * docs/benchmarks/cluster.md, "Snapshots of large state"): the service thread's CPU time in
     * the snapshot 0.31-0.45 s with 64 MiB terms, 0.06-0.11 s with 8 MiB; the client's longest
     * wait for an answer 2.38 s (2.27-2.52) before, 1.74 s (1.15-1.89) after. The largest message
     * is still 1 MiB, far above a snapshot chunk.
     */
    static final String SNAPSHOT_CHANNEL = "aeron:ipc?alias=snapshot|term-length=8m";
    /** What a media driver keeps in its directory; anything else there means the directory is not the driver's own. */
    private static final Set<String> DRIVER_FILES = Set.of(CncFileDescriptor.CNC_FILE, "loss-report.dat",
            "publications", "images");
    /** The log's term length; set only by tests that need small archive segments, so that a short run purges. */
    static String logTermLengthForTests;
    /** What a purge deletes; replaced only by tests that seed a bug in it. */
    static Retention.RetentionPlanner plannerForTests;

    /**
     * How a member reads its consensus module's counters: null for its own mapping
     * ({@link CncCounters}). Set only by a test child that seeds the old way of reading (through the
     * consensus module's own counters, whose memory goes away when it closes), to show that the
     * crash test catches it.
     */
    static Function<ConsensusModule.Context, MemberCounters> countersForTests;

    private final MemberConfig config;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;
    private final ClusteredService service;
    private final MemberCounters counters;
    private final Failures failures;
    private final RetentionPolicy retention;
    private final Retention retainer;
    /** Held for the whole of {@link #close()}, so that a second caller returns once the member is closed. */
    private final Object closeLock = new Object();
    private volatile boolean closed;

    private ClusterMember(final MemberConfig config, final FileChannel lockChannel, final FileLock lock,
            final ClusteredMediaDriver driver, final ClusteredServiceContainer container,
            final ClusteredService service, final MemberCounters counters, final Failures failures,
            final RetentionPolicy retention, final Retention retainer) {
        this.config = config;
        this.retention = retention;
        this.retainer = retainer;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.driver = driver;
        this.container = container;
        this.service = service;
        this.counters = counters;
        this.failures = failures;
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
     * @throws ClusterStartException if the JVM lacks {@code --add-opens java.base/jdk.internal.misc=ALL-UNNAMED}
     *         (the message names the option), the directory is in use, a port is taken, or a part
     *         fails to launch
     */
    public static ClusterMember start(final MemberConfig config, final ClusteredService service,
            final AuthenticatorSupplier authenticator) {
        return start(config, service, authenticator, RetentionPolicy.NONE);
    }

    /**
     * Starts a member that takes periodic snapshots and purges its archive as {@code retention} says.
     *
     * <pre>{@code
     * ClusterMember member = ClusterMember.start(config, service, authenticator,
     *         RetentionPolicy.NONE.withSnapshotEvery(256L << 20, Duration.ofMinutes(10)).keeping(2));
     * }</pre>
     *
     * @param config the member's config
     * @param service the service its container runs
     * @param authenticator authenticates client sessions, or null to accept every client
     * @param retention when the member asks for snapshots while it leads, and what it keeps
     * @return the running member
     * @throws ClusterStartException as {@link #start(MemberConfig, ClusteredService, AuthenticatorSupplier)}
     */
    public static ClusterMember start(final MemberConfig config, final ClusteredService service,
            final AuthenticatorSupplier authenticator, final RetentionPolicy retention) {
        Objects.requireNonNull(config, "config must not be null");
        Objects.requireNonNull(retention, "retention must not be null");
        Objects.requireNonNull(service, "service must not be null");
        final int id = config.memberId();
        try {
            // before anything touches Agrona, whose own failure would not name the option
            JvmAccess.requireAgronaAccess("cluster member " + id);
        } catch (final IllegalStateException e) {
            throw new ClusterStartException(e.getMessage(), e);
        }
        final ClusterMembers members = config.clusterMembers();
        final Path base = config.baseDir();
        FileChannel lockChannel = null;
        FileLock lock = null;
        ClusteredMediaDriver driver = null;
        MemberCounters counters = null;
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
            // the default directory is inside base, which member.lock already keeps to one member
            final String aeronDir = config.aeronDir().equals(base.resolve("aeron"))
                    ? base.resolve("aeron").toAbsolutePath().toString() : requireDriverDirectory(id, config.aeronDir());
            final File clusterDir = base.resolve("cluster").toFile();
            final String host = members.host(id);
            final Supplier<IdleStrategy> idle = config.agentIdle()::newStrategy;
            final Failures errors = new Failures(id);

            final MediaDriver.Context driverContext = new MediaDriver.Context()
                    .aeronDirectoryName(aeronDir)
                    .threadingMode(ThreadingMode.SHARED)
                    .sharedIdleStrategy(idle.get())
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
                    .segmentFileLength(retention.segmentLength())
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
                    .logChannel(logTermLengthForTests == null ? LOG_CHANNEL
                            : "aeron:udp?term-length=" + logTermLengthForTests)
                    .replicationChannel("aeron:udp?endpoint=" + host + ":0")
                    .archiveContext(archiveClient.clone())
                    .idleStrategySupplier(idle)
                    .leaderHeartbeatTimeoutNs(config.leaderHeartbeatTimeout().toNanos())
                    .leaderHeartbeatIntervalNs(config.leaderHeartbeatInterval().toNanos())
                    .electionTimeoutNs(config.electionTimeout().toNanos())
                    .electionStatusIntervalNs(config.electionStatusInterval().toNanos())
                    .startupCanvassTimeoutNs(config.startupCanvassTimeout().toNanos())
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
                    .snapshotChannel(SNAPSHOT_CHANNEL)
                    .idleStrategySupplier(idle)
                    .errorHandler(errors);
            driver = ClusteredMediaDriver.launch(driverContext, archiveContext, consensusContext);
            // the consensus module's counters exist once its context has concluded, in launch
            counters = countersForTests != null ? countersForTests.apply(driver.consensusModule().context())
                    : CncCounters.map(id, new File(aeronDir, CncFileDescriptor.CNC_FILE),
                            driver.consensusModule().context(), errors::first);
            final ClusteredServiceContainer container = ClusteredServiceContainer.launch(containerContext);
            final Retention retainer = Retention.start(id, retention, counters, base,
                    () -> AeronArchive.connect(archiveClient.clone()), 1,
                    plannerForTests != null ? plannerForTests : RetentionPlan::of,
                    config.leaderHeartbeatTimeout().toNanos(), new CatchUpCheck(id, members, config.aeronDir()),
                    reason -> errors.stop(new IllegalStateException(reason)));
            return new ClusterMember(config, lockChannel, lock, driver, container, service, counters, errors,
                    retention, retainer);
        } catch (final ClusterStartException e) {
            CloseHelper.quietCloseAll(counters, driver, lockChannel);
            throw e;
        } catch (final IOException e) {
            CloseHelper.quietCloseAll(counters, driver, lockChannel);
            throw new ClusterStartException("member " + id + ": cannot use directory " + base.toAbsolutePath() + ": "
                    + e, e);
        } catch (final RuntimeException e) {
            CloseHelper.quietCloseAll(counters, driver, lockChannel);
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

    /**
     * @return {@code dir} as the media driver's directory name, once it is known to be free for it
     * @throws ClusterStartException if another media driver is active there, or it holds files
     *         that are not a driver's (the driver would delete them on start)
     */
    private static String requireDriverDirectory(final int id, final Path dir) throws IOException {
        final File directory = dir.toAbsolutePath().toFile();
        if (driverRunningIn(directory)) {
            throw new ClusterStartException("member " + id + ": a media driver is running in " + directory
                    + "; give each member an Aeron directory of its own (MemberConfig.withAeronDir, aeron.dir)", null);
        }
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                final Optional<String> foreign = entries.map(entry -> entry.getFileName().toString())
                        .filter(name -> !DRIVER_FILES.contains(name)).sorted().findFirst();
                if (foreign.isPresent()) {
                    throw new ClusterStartException("member " + id + ": the Aeron directory " + directory
                            + " holds '" + foreign.get() + "', which is not a media driver's file, and the driver"
                            + " empties its directory on start; expected an empty or missing directory, or one a"
                            + " member of this cluster used before", null);
                }
            }
        }
        return directory.toString();
    }

    /**
     * @return true if a media driver has stirred in {@code directory} within Aeron's driver timeout
     *         and its process is alive: a driver killed a moment ago leaves a fresh heartbeat, and a
     *         member restarted at once must not be refused for it
     */
    private static boolean driverRunningIn(final File directory) {
        if (!CommonContext.isDriverActive(directory, CommonContext.DEFAULT_DRIVER_TIMEOUT_MS, ignored -> { })) {
            return false;
        }
        final MappedByteBuffer cnc;
        try {
            cnc = IoUtil.mapExistingFile(new File(directory, CncFileDescriptor.CNC_FILE), "cnc");
        } catch (final RuntimeException goneMeanwhile) {
            return false;
        }
        try {
            final long pid = CncFileDescriptor.pid(CncFileDescriptor.createMetaDataBuffer(cnc));
            return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        } finally {
            IoUtil.unmap(cnc);
        }
    }

    /** @return the idle strategies of the driver, archive and consensus module, for tests of what the config set */
    List<IdleStrategy> agentIdleStrategiesForTests() {
        return List.of(driver.mediaDriver().context().sharedIdleStrategy(),
                driver.archive().context().idleStrategy(), driver.consensusModule().context().idleStrategy());
    }

    /** @return the config the member was started with; answers in every state */
    public MemberConfig config() {
        return config;
    }

    /** @return the retention policy the member was started with; answers in every state */
    public RetentionPolicy retention() {
        return retention;
    }

    /**
     * @return true while the member runs: not closed, no error has stopped it, and its consensus
     *         module is up; a true answer can be out of date at once, so a call after it can still
     *         throw {@link IllegalStateException}
     */
    public boolean isRunning() {
        return !closed && failures.first() == null && counters.isRunning();
    }

    /**
     * @return the first error that stopped the member (an {@link AgentTerminationException}, as a
     *         failed pipeline ends its service, or an {@link Error} an agent threw), or empty while
     *         none has; answers in every state. Errors reported while closing do not count, nor does
     *         a cluster shut down on purpose: {@link #isRunning()} is false then, with no failure
     */
    public Optional<Throwable> failure() {
        return Optional.ofNullable(failures.first());
    }

    /**
     * @return this member's role now
     * @throws IllegalStateException if the member has stopped ({@code cluster member N is stopped:
     *         <cause>; ...}) or is closed ({@code cluster member N is closed})
     */
    public Cluster.Role role() {
        return counters.role("role()");
    }

    /**
     * Asks the cluster for a snapshot (every member takes one at the same log position). Only the
     * leader acts on the request, so this member must be leading.
     *
     * @return true if the request was placed; false only if another control action (a snapshot,
     *         a shutdown, an abort) is under way: ask again once it is done
     * @throws IllegalStateException if this member does not lead (the message says its role and,
     *         for a {@link PipelineClusteredService}, which member led the latest term: ask that
     *         one), has stopped, or is closed
     */
    public boolean requestSnapshot() {
        final Cluster.Role role = counters.role("requestSnapshot()");
        if (role != Cluster.Role.LEADER) {
            // only the leader acts on a snapshot toggle: say whom to ask rather than a bare false
            throw new IllegalStateException(notLeaderMessage(config.memberId(), role, leaderMemberId()));
        }
        return counters.toggleSnapshot();
    }

    /**
     * @return the member that led the latest term this member's log holds, or -1 if not known
     *         (none yet, or a service that does not track it)
     */
    private int leaderMemberId() {
        return service instanceof PipelineClusteredService<?> pipeline ? pipeline.leaderMemberId() : -1;
    }

    /**
     * @param memberId the member asked for a snapshot
     * @param role its role, not {@code LEADER}
     * @param leaderMemberId the leader of the latest term it knows, or -1
     * @return why the member refuses, and whom to ask
     */
    static String notLeaderMessage(final int memberId, final Cluster.Role role, final int leaderMemberId) {
        final String refused = "cluster member " + memberId + " is a " + role.name().toLowerCase(Locale.ROOT)
                + ", and only the leader acts on a snapshot request: ";
        if (leaderMemberId < 0) {
            return refused + "no leader is known to this member yet; ask again once an election has chosen one";
        }
        if (leaderMemberId == memberId) {
            return refused + "this member led the latest term but leads no longer; ask again once an election has "
                    + "chosen the next leader";
        }
        return refused + "ask the leader, member " + leaderMemberId;
    }

    /**
     * Reads everything an operator looks at in one call: the consensus module's counters under one
     * hold of the lock that guards them, and the figures the service publishes. Safe from any
     * thread, as often as a monitor likes (it allocates the answer and nothing else that stays).
     *
     * <pre>{@code
     * MemberStatus status = member.status();
     * if (!status.running()) {
     *     health.down(status.toString());   // member 0: LEADER, stopped (...AgentTerminationException: ...); ...
     * }
     * }</pre>
     *
     * @return the member's status now; once the member has stopped, {@code running} is false,
     *         {@code failure} says why, and each counter its consensus module has freed reads -1
     *         (the role null); the service's figures are the last it published
     * @throws IllegalStateException if the member is closed ({@code cluster member N is closed})
     */
    public MemberStatus status() {
        final MemberCounters.Readings readings = counters.readings();
        final Throwable failure = failures.first();
        final boolean running = !closed && failure == null && readings.allAllocated();
        if (!(service instanceof PipelineClusteredService<?> pipeline)) {
            return new MemberStatus(config.memberId(), running, Optional.ofNullable(failure), readings.role(), -1, -1,
                    readings.commitPosition(), readings.snapshotCount(), -1, -1, -1, -1, -1, -1,
                    readings.electionCount(), retainer.archiveBytes(), retainer.logStartPosition());
        }
        final ReplyOutbox outbox = pipeline.outbox();
        return new MemberStatus(config.memberId(), running, Optional.ofNullable(failure), readings.role(),
                pipeline.leaderMemberId(), pipeline.leadershipTermId(), readings.commitPosition(),
                readings.snapshotCount(), pipeline.lastSnapshotNanos(), pipeline.clientsRemembered(),
                pipeline.sessionsBound(), pipeline.outboxBacklog(), outbox == null ? 0 : outbox.rejectedCommands(),
                outbox == null ? 0 : outbox.undeliverable(), readings.electionCount(), retainer.archiveBytes(),
                retainer.logStartPosition());
    }

    /**
     * @return the consensus module's context, as it concluded (for tests)
     * @throws IllegalStateException if the member is closed
     */
    ConsensusModule.Context consensusModuleContext() {
        if (closed) {
            throw new IllegalStateException("cluster member " + config.memberId() + " is closed");
        }
        return driver.consensusModule().context();
    }

    /**
     * @return how many snapshots this member has taken since it started
     * @throws IllegalStateException if the member has stopped or is closed, as {@link #role()}
     */
    public long snapshotCount() {
        return counters.snapshotCount();
    }

    /**
     * Stops the service container, the consensus module, the archive and the driver, then unlocks.
     * Idempotent and safe from any thread, while other threads still call the member: from its
     * start every other call but {@link #config()}, {@link #isRunning()} and {@link #failure()}
     * throws {@code IllegalStateException("cluster member N is closed")}. A second caller returns
     * once the first has finished.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (closed) {
                return;
            }
            closed = true;
            // errors the parts report while they are stopped on purpose did not stop the member
            failures.closing = true;
            // before the archive it purges through goes away
            retainer.close();
            // first, so that no read reaches the counters while the parts that own them go away
            counters.close();
            CloseHelper.quietCloseAll(container, driver);
            try {
                lock.release();
            } catch (final IOException e) {
                LOG.log(System.Logger.Level.WARNING, "member " + config.memberId() + ": releasing the lock: " + e);
            }
            CloseHelper.quietClose(lockChannel);
        }
    }

    /**
     * The error handler of all the member's parts: logs what they report and keeps the first error
     * that stopped the member. An agent ends on an {@link AgentTerminationException} (a failed
     * pipeline ends the service so) or an {@link Error}; the other errors are reported while the
     * agent goes on. An expected {@link ClusterTerminationException} is a cluster shut down on
     * purpose (a shutdown request, a member removed), not a failure: the member stops without one.
     */
    private static final class Failures implements ErrorHandler {
        private final int memberId;
        private final AtomicReference<Throwable> first = new AtomicReference<>();
        volatile boolean closing;

        Failures(final int memberId) {
            this.memberId = memberId;
        }

        Throwable first() {
            return first.get();
        }

        /** Stops the member for a reason found outside its agents (a member that can never catch up). */
        void stop(final Throwable reason) {
            if (!closing && first.compareAndSet(null, reason)) {
                LOG.log(System.Logger.Level.ERROR, "cluster member " + memberId + " stopped: " + reason.getMessage());
            }
        }

        @Override
        public void onError(final Throwable error) {
            if (error == first.get()) {
                return;  // an agent runner reports an Error twice: from the duty cycle and from its loop
            }
            final boolean expected = error instanceof ClusterTerminationException termination
                    && termination.isExpected();
            final boolean stops = (error instanceof AgentTerminationException && !expected) || error instanceof Error;
            if (stops && !closing && first.compareAndSet(null, error)) {
                LOG.log(System.Logger.Level.ERROR, "cluster member " + memberId + " stopped: " + error, error);
            } else {
                LOG.log(System.Logger.Level.WARNING, "member " + memberId + ": " + error, error);
            }
        }
    }
}

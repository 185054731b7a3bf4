package dev.slipstream.cluster;

import io.aeron.cluster.service.ClusteredService;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.agrona.concurrent.ShutdownSignalBarrier;

/**
 * Runs one cluster member from a configuration file ({@link LauncherConfig} lists the keys) until
 * SIGTERM or SIGINT, without a line of Java but the service's {@link ClusteredServiceFactory}:
 *
 * <pre>{@code
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED \
 *      -cp engine.jar:slipstream-cluster.jar:<its dependencies> \
 *      dev.slipstream.cluster.ClusterLauncher /etc/engine/member-0.properties
 * }</pre>
 *
 * <p>It reads and checks the whole file, makes the service with the factory, starts the member
 * ({@link ClusterMember#start(MemberConfig, ClusteredService, io.aeron.security.AuthenticatorSupplier)}),
 * prints {@code member 0 of 3 started: role follower, base dir /var/lib/engine, ingress host-a:20100}
 * and waits on Agrona's {@link ShutdownSignalBarrier}. On the signal it closes the member (the
 * service container, then the consensus module, the archive and the media driver, then it releases
 * {@code member.lock}) and ends the JVM with status 0.
 *
 * <table>
 *   <caption>Exit statuses</caption>
 *   <tr><th>status</th><th>when</th><th>on stderr</th></tr>
 *   <tr><td>0</td><td>SIGTERM or SIGINT, and the member closed; or the cluster was shut down on purpose</td>
 *       <td>nothing</td></tr>
 *   <tr><td>1</td><td>the member stopped on its own after it started (a stage failed, an agent threw an
 *       {@code Error}): it is closed, and the launcher exits</td><td>the error that stopped it</td></tr>
 *   <tr><td>2</td><td>no configuration file given, or a bad entry in it</td><td>one line naming the file,
 *       the key, the value and what was expected; no stack trace</td></tr>
 *   <tr><td>3</td><td>the member could not start: the JVM lacks {@code --add-opens}, a port is taken, the
 *       directory is in use ({@link ClusterStartException}); or the factory failed to make the
 *       service</td><td>the reason, and a stack trace only for the factory's own failure</td></tr>
 * </table>
 *
 * <p>On the signal the JVM is already shutting down, and its own exit status would be 128 plus the
 * signal's number (143 for SIGTERM); once the member is closed the launcher ends it with status 0
 * ({@link Runtime#halt}), so the shutdown hooks that run then are cut short: a service closes what
 * it holds when its member closes ({@code ClusteredService.onTerminate} or its container's close),
 * not in a shutdown hook of its own.
 */
public final class ClusterLauncher {
    /** Exit status: the member was stopped by a signal, or the cluster shut down on purpose. */
    static final int STOPPED = 0;
    /** Exit status: the member stopped on its own, with an error. */
    static final int FAILED = 1;
    /** Exit status: no configuration file, or a bad entry in it. */
    static final int BAD_CONFIGURATION = 2;
    /** Exit status: the member could not start. */
    static final int START_FAILED = 3;
    private static final long WATCH_INTERVAL_MS = 200;

    private ClusterLauncher() {
    }

    /**
     * Starts the member the file describes and runs it until SIGTERM or SIGINT; see the class
     * comment for the exit statuses.
     *
     * @param args one argument: the member's configuration file
     */
    public static void main(final String[] args) {
        // made first: a signal while the member starts is then awaited, and the member closed
        final ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
        final int status = run(args, barrier, System.out, System.err);
        System.out.flush();
        System.err.flush();
        if (isShuttingDown()) {
            // on a signal: the member is closed, and the JVM's own status would be 128 + the signal's
            // number (System.exit would wait for the shutdown to end with that status)
            Runtime.getRuntime().halt(status);
        }
        barrier.close();
        System.exit(status);
    }

    /**
     * Loads the configuration, starts the member and waits on {@code barrier}.
     *
     * @return the exit status
     */
    static int run(final String[] args, final ShutdownSignalBarrier barrier, final PrintStream out,
            final PrintStream err) {
        if (args.length != 1) {
            err.println("usage: java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp <class path> "
                    + ClusterLauncher.class.getName() + " <member.properties>; expected one argument, the member's"
                    + " configuration file, got " + args.length);
            return BAD_CONFIGURATION;
        }
        final LauncherConfig config;
        try {
            config = LauncherConfig.load(Path.of(args[0]));
        } catch (final IllegalArgumentException e) {
            err.println(e.getMessage());
            return BAD_CONFIGURATION;
        }
        final MemberConfig memberConfig = config.memberConfig();
        final int id = memberConfig.memberId();
        try {
            // before the factory runs: a service built without the flag fails deep in Agrona
            JvmAccess.requireAgronaAccess("cluster member " + id);
        } catch (final IllegalStateException e) {
            err.println(e.getMessage());
            return START_FAILED;
        }
        final ClusteredService service;
        try {
            service = config.serviceFactory().create(config);
        } catch (final RuntimeException | LinkageError e) {
            err.println("member " + id + ": the service factory " + config.serviceFactory().getClass().getName()
                    + " failed to make the service: " + e);
            e.printStackTrace(err);
            return START_FAILED;
        }
        if (service == null) {
            err.println("member " + id + ": the service factory " + config.serviceFactory().getClass().getName()
                    + " returned null; expected the ClusteredService the member runs");
            return START_FAILED;
        }
        final ClusterMember member;
        try {
            member = ClusterMember.start(memberConfig, service, config.authenticator().orElse(null),
                    config.retention());
        } catch (final ClusterStartException e) {
            err.println(e.getMessage());
            return START_FAILED;
        }
        try (member) {
            final ClusterMembers members = memberConfig.clusterMembers();
            out.println("member " + id + " of " + members.size() + " started: role " + roleOf(member) + ", base dir "
                    + memberConfig.baseDir().toAbsolutePath() + ", ingress " + members.endpoint(id, ClusterMembers.INGRESS));
            out.flush();
            final AtomicBoolean stoppedItself = new AtomicBoolean();
            final Thread watch = watch(member, barrier, stoppedItself);
            barrier.await();
            watch.interrupt();
            if (!stoppedItself.get()) {
                out.println("member " + id + " closing on a signal");
                return STOPPED;
            }
            return member.failure().map(failure -> {
                err.println("member " + id + " stopped: " + failure);
                return FAILED;
            }).orElseGet(() -> {
                out.println("member " + id + " stopped: its consensus module closed (the cluster was shut down)");
                return STOPPED;
            });
        } finally {
            out.println("member " + id + " closed");
        }
    }

    /** Lets the launcher's wait end when the member stops on its own, not only on a signal. */
    private static Thread watch(final ClusterMember member, final ShutdownSignalBarrier barrier,
            final AtomicBoolean stoppedItself) {
        final Thread watch = new Thread(() -> {
            try {
                while (member.isRunning()) {
                    TimeUnit.MILLISECONDS.sleep(WATCH_INTERVAL_MS);
                }
                stoppedItself.set(true);
                barrier.signal();
            } catch (final InterruptedException closing) {
                // the launcher is closing the member
            }
        }, "member-" + member.config().memberId() + "-watch");
        watch.setDaemon(true);
        watch.start();
        return watch;
    }

    /** @return whether the JVM is running its shutdown hooks (it refuses a new hook then) */
    private static boolean isShuttingDown() {
        final Thread probe = new Thread(() -> { }, "shutdown-probe");
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (final IllegalStateException shuttingDown) {
            return true;
        }
    }

    private static String roleOf(final ClusterMember member) {
        try {
            return member.role().name().toLowerCase(Locale.ROOT);
        } catch (final IllegalStateException stopped) {
            return "none (" + stopped.getMessage() + ")";
        }
    }
}

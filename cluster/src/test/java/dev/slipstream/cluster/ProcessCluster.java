package dev.slipstream.cluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Three members, each a {@link MemberProcess} of its own, on loopback; killed with SIGKILL when
 * asked. The members' failure detection and election settings are a {@link MemberProcess#timing}
 * ({@code 3000}, a 3 s heartbeat timeout with Aeron's other defaults, unless told otherwise); with
 * {@link #trace()}, each member prints its election state's changes, which {@link #traces} holds.
 */
final class ProcessCluster implements AutoCloseable {
    static final Duration HEARTBEAT_TIMEOUT = Duration.ofSeconds(3);
    final Path dir;
    final List<String> members = new ArrayList<>();
    private final Process[] processes;
    private final Writer[] inputs;
    @SuppressWarnings("unchecked")
    private final BlockingQueue<String>[] outputs;
    private final BlockingQueue<String>[] traces;

    @SuppressWarnings("unchecked")
    ProcessCluster(final Path dir, final int basePort, final int size) {
        this(dir, basePort, size, "plain");
    }

    private final String mode;
    private final String timing;
    private boolean trace;

    ProcessCluster(final Path dir, final int basePort, final int size, final String mode) {
        this(dir, basePort, size, mode, Long.toString(HEARTBEAT_TIMEOUT.toMillis()));
    }

    /**
     * @param timing the members' failure detection and election settings, as {@link MemberProcess#timing}
     *        reads them: {@code fast}, {@code default} or a heartbeat timeout in milliseconds
     */
    @SuppressWarnings("unchecked")
    ProcessCluster(final Path dir, final int basePort, final int size, final String mode, final String timing) {
        this.dir = dir;
        this.mode = mode;
        this.timing = timing;
        for (int i = 0; i < size; i++) {
            members.add("localhost:" + (basePort + 10 * i));
        }
        this.processes = new Process[size];
        this.inputs = new Writer[size];
        this.outputs = new BlockingQueue[size];
        this.traces = new BlockingQueue[size];
        for (int i = 0; i < size; i++) {
            traces[i] = new LinkedBlockingQueue<>();
        }
    }

    /** Members started from now on print their election state's changes ({@link #traces}). */
    ProcessCluster trace() {
        this.trace = true;
        return this;
    }

    /** @return the settings the members run with (any member's: for the client's re-send timer) */
    MemberConfig memberConfig() {
        return MemberProcess.timing(MemberConfig.of(0, members, dir), timing);
    }

    /**
     * @return member {@code id}'s trace lines so far, taken: {@code TRACE <System.nanoTime()> <election
     *         state>}, one per change its sampler saw (every millisecond or so)
     */
    java.util.List<String> traces(final int id) {
        final java.util.List<String> lines = new ArrayList<>();
        traces[id].drainTo(lines);
        return lines;
    }

    String ingressEndpoints() {
        return ClusterMembers.parse(members).ingressEndpoints();
    }

    /** Starts member {@code id} (again, after a kill: the same directory) and waits until it runs. */
    void start(final int id) throws IOException, InterruptedException {
        start(id, mode);
    }

    /** Starts member {@code id} in another mode than the cluster's (a member restarted without its seeded fault). */
    void start(final int id, final String memberMode) throws IOException, InterruptedException {
        java.nio.file.Files.createDirectories(dir);
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process process = new ProcessBuilder(java, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED", "-D" + MemberProcess.TRACE + "=" + trace,
                "-cp", System.getProperty("java.class.path"), MemberProcess.class.getName(), Integer.toString(id),
                String.join(",", members), dir.resolve("member-" + id).toString(), timing, memberMode)
                .redirectError(dir.resolve("member-" + id + "-stderr.txt").toFile())
                .start();
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final BlockingQueue<String> traced = traces[id];
        final Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.US_ASCII))) {
                String line;
                while ((line = in.readLine()) != null) {
                    // kept apart: a question's answer is looked for among the other lines
                    (line.startsWith("TRACE ") ? traced : lines).add(line);
                }
            } catch (final IOException killed) {
                // the pipe breaks when the member dies
            }
        }, "member-" + id + "-reader");
        reader.setDaemon(true);
        reader.start();
        processes[id] = process;
        inputs[id] = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        outputs[id] = lines;
        expect(id, "READY", Duration.ofSeconds(60));
    }

    void startAll() throws IOException, InterruptedException {
        for (int i = 0; i < processes.length; i++) {
            start(i);
        }
    }

    /** SIGKILL, and wait until the process is gone. */
    void kill(final int id) throws InterruptedException {
        processes[id].destroyForcibly();
        if (!processes[id].waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("member " + id + " still alive 30 s after SIGKILL");
        }
        processes[id] = null;
    }

    boolean isAlive(final int id) {
        return processes[id] != null && processes[id].isAlive();
    }

    /** Asks a member and returns its answer's text after the prefix. */
    String ask(final int id, final String command, final String answerPrefix) throws IOException, InterruptedException {
        inputs[id].write(command + "\n");
        inputs[id].flush();
        return expect(id, answerPrefix, Duration.ofSeconds(30));
    }

    private String expect(final int id, final String prefix, final Duration limit) throws InterruptedException {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            final String line = outputs[id].poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (line == null) {
                throw new AssertionError("member " + id + " did not say " + prefix + " within " + limit + " (see "
                        + dir.resolve("member-" + id + "-stderr.txt") + ")");
            }
            if (line.startsWith(prefix)) {
                return line.substring(prefix.length()).trim();
            }
        }
    }

    /** Stops a member cleanly (its process closes the member and exits). */
    void stop(final int id) throws IOException, InterruptedException {
        inputs[id].write("stop\n");
        inputs[id].flush();
        if (!processes[id].waitFor(60, TimeUnit.SECONDS)) {
            throw new AssertionError("member " + id + " did not stop within 60 s");
        }
        processes[id] = null;
    }

    int size() {
        return processes.length;
    }

    /**
     * Asks member {@code id} again and again (every 50 ms: polling its state, not waiting for a
     * race) until its answer satisfies {@code done}; fails naming the last answer at the limit.
     */
    String awaitAnswer(final int id, final String command, final String answerPrefix,
            final java.util.function.Predicate<String> done, final Duration limit)
            throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            final String answer = ask(id, command, answerPrefix);
            if (done.test(answer)) {
                return answer;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("member " + id + " answered " + command + " with " + answer
                        + " after " + limit);
            }
            Thread.sleep(50);
        }
    }

    /**
     * Connects a client (client id 1) through {@code driver}, trying again until a leader is
     * elected; it re-sends after the failover time of the members' settings
     * ({@link ClusterCommandClient.Context#resendAfterFailoverOf(MemberConfig)}).
     */
    ClusterCommandClient connect(final ClientDriver driver, final ReplyListener replies, final Duration limit) {
        return connect(driver, replies, limit, context -> { });
    }

    /** As {@link #connect(ClientDriver, ReplyListener, Duration)}, the context changed by {@code settings} first. */
    ClusterCommandClient connect(final ClientDriver driver, final ReplyListener replies, final Duration limit,
            final java.util.function.Consumer<ClusterCommandClient.Context> settings) {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                final ClusterCommandClient.Context context = new ClusterCommandClient.Context()
                        .aeronDirectoryName(driver.directory())
                        .ingressEndpoints(ingressEndpoints())
                        .clientId(1)
                        .limits(64, Long.BYTES)
                        .resendAfterFailoverOf(memberConfig())
                        .replyListener(replies);
                settings.accept(context);
                return ClusterCommandClient.connect(context);
            } catch (final IllegalStateException noLeaderYet) {
                if (System.nanoTime() - deadline > 0) {
                    throw noLeaderYet;
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        for (int i = 0; i < processes.length; i++) {
            if (processes[i] != null) {
                kill(i);
            }
        }
    }
}

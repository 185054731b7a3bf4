package dev.slipstream.bench.cluster;

import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.CommandWireFormat;
import dev.slipstream.cluster.MemberConfig;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What a clustered pipeline's round trip costs against Aeron Cluster's own: a cluster (one member
 * by default) and one client in this JVM, the client sending paced commands and timing each answer from the
 * command's <em>intended</em> send time (so a stall delays the commands behind it in the figures
 * too: coordinated omission avoided by construction).
 *
 * <ul>
 *   <li>{@code --impl echo}: {@link EchoService}, a plain {@code ClusteredService} that answers
 *       each command in {@code onSessionMessage}, on its client session, at once: what Aeron
 *       Cluster itself costs. The client is a plain {@code AeronCluster}.</li>
 *   <li>{@code --impl pipeline}: {@link PipelineServices#service} (a {@code PipelineClusteredService}:
 *       decode an amount into the ring, {@code --stages} stages, the last one replying through
 *       the outbox), driven by a {@link ClusterCommandClient}.</li>
 * </ul>
 * Both use {@link CommandWireFormat} (command: client id, correlation id, an 8-byte amount;
 * reply: correlation id, status, the amount) and both check every answer: its correlation id
 * was sent and not answered before, its status is applied and its amount is the one sent. A
 * mismatch, or a command left unanswered, prints {@code FAILED} and exits with 3.
 *
 * <p>Options: {@code --rate} commands/s (default 10000), {@code --seconds} measured (default 10)
 * after {@code --warmup} seconds (default 3), {@code --stages} (pipeline, default 1),
 * {@code --ring-wait blocking|sleeping|yielding|spin} (the stages' wait, default blocking),
 * {@code --timers wheel|heap} and {@code --tick-ms} (the consensus module's timer service and
 * wheel tick, default Aeron's: a wheel of 8 ms), {@code --client-idle yield|spin|backoff} (how
 * the client waits for the next send, default yield), {@code --port} (the member's base port,
 * default 22300; member i uses base port + 10 i), {@code --members} (default 1; 3 runs three members in this
 * JVM, with their own directories and ports, each command committed by a majority of them),
 * {@code --fast-replies on|off} (pipeline, default on: the leader also sends ready replies from
 * {@code doBackgroundWork}; off, a reply made after its command's callback leaves on the next
 * log callback), {@code --client-driver own|member} (the client's media driver: one of its own,
 * the default, as on a machine of its own; or member 0's, which takes a busy agent off the
 * cores when the client and the members share them).
 * {@code --member-idle backoff|yielding|busy-spin} sets how the members' agents wait
 * ({@link MemberConfig.AgentIdle}; default backoff: spin, yield, park up to 1 ms). Prints {@code RESULT impl=.. rate=.. figure=F value=V ...}
 * for F in p50, p90, p99, p999, max (microseconds) and achieved (answers per second).
 *
 * <pre>
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp benchmarks/target/benchmarks.jar \
 *      dev.slipstream.bench.cluster.ClusterRoundTripBench --impl pipeline --rate 10000 --seconds 10
 * </pre>
 */
public final class ClusterRoundTripBench {
    private static final long CLIENT_ID = 7;

    private ClusterRoundTripBench() {
    }

    /** The amount a command with this correlation id carries. */
    static long amountOf(final long correlationId) {
        return correlationId * 0x9E3779B97F4A7C15L ^ (correlationId >>> 7);
    }

    /**
     * Runs one configuration.
     *
     * @param args see the class comment
     * @throws Exception if it cannot be set up
     */
    public static void main(final String[] args) throws Exception {
        final Options o = Options.parse(args);
        final Path dir = Files.createTempDirectory("slipstream-cluster-bench");
        final List<String> memberList = new ArrayList<>();
        for (int i = 0; i < o.members; i++) {
            memberList.add("localhost:" + (o.port + 10 * i));
        }
        final Answers answers = new Answers(o.total());
        final ClusterMember[] members = new ClusterMember[o.members];
        MediaDriver clientDriver = null;
        Sender sender = null;
        final long start;
        try {
            for (int i = 0; i < o.members; i++) {
                final ClusteredService service = o.impl.equals("echo") ? new EchoService()
                        : PipelineServices.service(o.stages, o.ringWait, o.fastReplies);
                final MemberConfig config = new MemberConfig(i, memberList, dir.resolve("member-" + i),
                        Duration.ofSeconds(10), Duration.ofSeconds(60)).withAgentIdle(o.memberIdle);
                members[i] = ClusterMember.start(o.timers.equals("heap") ? config.withPriorityHeapTimers()
                        : config.withTimerWheelTick(Duration.ofMillis(o.tickMs)), service);
            }
            final String clientDirectory;
            if (o.clientDriver.equals("member")) {
                // ClusterMember keeps its media driver's directory at baseDir/aeron
                clientDirectory = members[0].config().aeronDir().toAbsolutePath().toString();
            } else {
                clientDriver = MediaDriver.launch(new MediaDriver.Context()
                        .aeronDirectoryName(dir.resolve("client-driver").toString())
                        .threadingMode(ThreadingMode.SHARED)
                        .sharedIdleStrategy(new BackoffIdleStrategy(10, 20, 1_000, TimeUnit.MILLISECONDS.toNanos(1)))
                        .termBufferSparseFile(true)
                        .dirDeleteOnStart(true)
                        .dirDeleteOnShutdown(true));
                clientDirectory = clientDriver.aeronDirectoryName();
            }
            final String endpoints = members[0].config().clusterMembers().ingressEndpoints();
            sender = o.impl.equals("echo") ? new EchoSender(clientDirectory, endpoints, answers)
                    : new PipelineSender(clientDirectory, endpoints, answers);
            start = run(o, sender, answers);
        } finally {
            CloseHelper.quietClose(sender);
            CloseHelper.quietCloseAll(members);
            CloseHelper.quietClose(clientDriver);
            deleteTree(dir);
        }
        report(o, answers, start);
    }

    /** Sends every command at its intended time, then waits for the last answers; returns the start. */
    private static long run(final Options o, final Sender sender, final Answers answers) {
        final long interval = TimeUnit.SECONDS.toNanos(1) / o.rate;
        final long total = o.total();
        final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        answers.measureFrom = o.warmupCommands();
        final UnsafeBuffer amount = new UnsafeBuffer(new byte[Long.BYTES]);
        for (long i = 0; i < total; i++) {
            final long intended = start + i * interval;
            while (System.nanoTime() < intended) {
                if (sender.poll() == 0) {
                    o.clientIdle.idle();
                }
            }
            final long correlationId = i + 1;
            answers.intended[(int) i] = intended;
            amount.putLong(0, amountOf(correlationId));
            while (!sender.send(correlationId, amount)) {
                sender.poll();  // full or pushed back: take answers in, then try again
            }
            if (answers.failure != null) {
                break;
            }
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answers.answered < total && answers.failure == null && System.nanoTime() < deadline) {
            if (sender.poll() == 0) {
                Thread.yield();
            }
        }
        return start;
    }

    private static void report(final Options o, final Answers answers, final long start) {
        final Histogram h = answers.histogram;
        final String tags = String.format(Locale.ROOT, " stages=%s timers=%s tick=%s ring-wait=%s client-idle=%s"
                        + " members=%d fast-replies=%s client-driver=%s member-idle=%s count=%d",
                o.impl.equals("echo") ? "-" : Integer.toString(o.stages), o.timers, o.timers.equals("heap") ? "-" : o.tickMs + "ms", o.impl.equals("echo") ? "-" : o.ringWaitName,
                o.clientIdleName, o.members, o.impl.equals("echo") ? "-" : o.fastReplies ? "on" : "off",
                o.clientDriver, o.memberIdle.name().toLowerCase(Locale.ROOT).replace('_', '-'), h.getTotalCount());
        final double measuredSeconds = (answers.lastAnswerNanos - (start + o.warmupCommands()
                * (TimeUnit.SECONDS.toNanos(1) / o.rate))) / 1e9;
        final String[] figures = {"p50", "p90", "p99", "p999", "max"};
        final double[] values = {h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
            h.getValueAtPercentile(99.9), h.getMaxValue()};
        for (int i = 0; i < figures.length; i++) {
            System.out.printf(Locale.ROOT, "RESULT impl=%s rate=%d figure=%s value=%.1f%s%n", o.impl, o.rate,
                    figures[i], values[i] / 1e3, tags);
        }
        System.out.printf(Locale.ROOT, "RESULT impl=%s rate=%d figure=achieved value=%.0f%s%n", o.impl, o.rate,
                h.getTotalCount() / measuredSeconds, tags);
        if (answers.failure != null || answers.answered != o.total()) {
            System.out.println("FAILED: " + (answers.failure != null ? answers.failure
                    : answers.answered + " of " + o.total() + " commands answered in 30 s after the last send"));
            System.exit(3);
        }
    }

    private static void deleteTree(final Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    /**
     * Every answer checked and timed: the intended send time of each command, whether it was
     * answered, and the histogram of round trips after the warm-up. Client thread only.
     */
    static final class Answers {
        final long[] intended;
        final boolean[] seen;
        final Histogram histogram = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
        long measureFrom;
        long answered;
        long lastAnswerNanos;
        String failure;

        Answers(final long total) {
            this.intended = new long[(int) total];
            this.seen = new boolean[(int) total];
        }

        /** Checks and times one answer: its payload is the amount at {@code offset}, {@code length} bytes. */
        void onAnswer(final long correlationId, final byte status, final DirectBuffer buffer, final int offset,
                final int length) {
            final long now = System.nanoTime();
            if (failure != null) {
                return;
            }
            if (correlationId < 1 || correlationId > intended.length || intended[(int) (correlationId - 1)] == 0) {
                failure = "answer to correlation id " + correlationId + ", which was not sent";
                return;
            }
            final int index = (int) (correlationId - 1);
            if (seen[index]) {
                failure = "a second answer to correlation id " + correlationId;
                return;
            }
            if (status != CommandWireFormat.STATUS_APPLIED || length != Long.BYTES
                    || buffer.getLong(offset) != amountOf(correlationId)) {
                failure = "answer to correlation id " + correlationId + ": status " + status + ", " + length
                        + " payload bytes" + (length == Long.BYTES ? ", amount " + buffer.getLong(offset) : "")
                        + "; expected status " + CommandWireFormat.STATUS_APPLIED + " and the amount "
                        + amountOf(correlationId);
                return;
            }
            seen[index] = true;
            answered++;
            lastAnswerNanos = now;
            if (index >= measureFrom) {
                histogram.recordValue(Math.min(histogram.getHighestTrackableValue(),
                        Math.max(0, now - intended[index])));
            }
        }
    }

    /** The client side of one implementation. */
    interface Sender extends AutoCloseable {
        /**
         * @param correlationId the command's correlation id (1, 2, 3, ... in order)
         * @param amount the 8-byte payload
         * @return false if the cluster pushed back or too many are unanswered: poll, then retry
         */
        boolean send(long correlationId, DirectBuffer amount);

        /** @return answers taken in, 0 if none */
        int poll();

        @Override
        void close();
    }

    /** The echo's client: a plain {@code AeronCluster} writing the same command bytes. */
    static final class EchoSender implements Sender {
        private final AeronCluster cluster;
        private final UnsafeBuffer command = new UnsafeBuffer(new byte[CommandWireFormat.COMMAND_HEADER_LENGTH
                + Long.BYTES]);

        EchoSender(final String aeronDir, final String endpoints, final Answers answers) {
            this.cluster = AeronCluster.connect(new AeronCluster.Context()
                    .aeronDirectoryName(aeronDir)
                    .ingressChannel("aeron:udp")
                    .ingressEndpoints(endpoints)
                    .egressChannel("aeron:udp?endpoint=localhost:0")
                    .messageTimeoutNs(TimeUnit.SECONDS.toNanos(10))
                    .idleStrategy(new BackoffIdleStrategy())
                    .egressListener((sessionId, timestamp, buffer, offset, length, header) -> {
                        if (length < CommandWireFormat.REPLY_HEADER_LENGTH) {
                            answers.failure = "an answer of " + length + " bytes, shorter than a reply header";
                            return;
                        }
                        answers.onAnswer(buffer.getLong(offset + CommandWireFormat.REPLY_CORRELATION_ID_OFFSET),
                                buffer.getByte(offset + CommandWireFormat.REPLY_STATUS_OFFSET), buffer,
                                offset + CommandWireFormat.REPLY_HEADER_LENGTH,
                                length - CommandWireFormat.REPLY_HEADER_LENGTH);
                    }));
            command.putLong(CommandWireFormat.CLIENT_ID_OFFSET, CLIENT_ID);
        }

        @Override
        public boolean send(final long correlationId, final DirectBuffer amount) {
            command.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, correlationId);
            command.putBytes(CommandWireFormat.COMMAND_HEADER_LENGTH, amount, 0, Long.BYTES);
            return cluster.offer(command, 0, command.capacity()) > 0;
        }

        @Override
        public int poll() {
            return cluster.pollEgress();
        }

        @Override
        public void close() {
            cluster.close();
        }
    }

    /** The pipeline's client: Slipstream's {@link ClusterCommandClient}. */
    static final class PipelineSender implements Sender {
        private final ClusterCommandClient client;

        PipelineSender(final String aeronDir, final String endpoints, final Answers answers) {
            this.client = ClusterCommandClient.connect(new ClusterCommandClient.Context()
                    .aeronDirectoryName(aeronDir)
                    .ingressEndpoints(endpoints)
                    .clientId(CLIENT_ID)
                    .limits(4096, Long.BYTES)
                    // no failover here: a re-send would be answered as a duplicate and fail the check
                    .resendAfterNs(TimeUnit.MINUTES.toNanos(10))
                    .replyListener(answers::onAnswer));
        }

        @Override
        public boolean send(final long correlationId, final DirectBuffer amount) {
            final long id = client.trySend(amount, 0, Long.BYTES);
            if (id >= 0 && id != correlationId) {
                throw new IllegalStateException("the client gave correlation id " + id + " where " + correlationId
                        + " was expected");
            }
            return id >= 0;
        }

        @Override
        public int poll() {
            return client.poll();
        }

        @Override
        public void close() {
            client.close();
        }
    }
}

package dev.slipstream.examples.cluster;

import dev.slipstream.cluster.ClientRefusedException;
import dev.slipstream.cluster.ClusterCommandClient;
import dev.slipstream.cluster.ClusterMembers;
import dev.slipstream.cluster.CommandWireFormat;
import dev.slipstream.cluster.ReplyListener;
import dev.slipstream.cluster.SharedSecretAuthenticator;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A client of {@link LedgerMember}: deposits into 16 accounts, one bad command among them, every
 * answer counted. {@code LEDGER_SECRET} must be the members' secret.
 *
 * <pre>{@code
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp examples/target/examples.jar \
 *     dev.slipstream.examples.cluster.LedgerClient localhost:27100,localhost:27110,localhost:27120 1000
 * }</pre>
 */
public final class LedgerClient {
    /** Every answer, one call per command, on the thread that calls poll(). */
    static final class Answers implements ReplyListener {
        long applied, rejected, refused, duplicate, unknown, lastBalance;
        final List<String> reasons = new ArrayList<>();

        @Override
        public void onReply(long correlationId, byte status, DirectBuffer buffer, int offset, int length) {
            switch (status) {
                case CommandWireFormat.STATUS_APPLIED -> {            // the payload is the reply stage's
                    applied++;
                    lastBalance = buffer.getLong(offset);
                }
                case CommandWireFormat.STATUS_REJECTED -> {           // a stage threw for it, on every member
                    rejected++;
                    reasons.add("#" + correlationId + " rejected: " + buffer.getStringWithoutLengthUtf8(offset, length));
                }
                case CommandWireFormat.STATUS_REFUSED -> {            // not applied; may be sent again
                    refused++;
                    reasons.add("#" + correlationId + " refused: " + buffer.getStringWithoutLengthAscii(offset, length));
                }
                case CommandWireFormat.STATUS_DUPLICATE -> duplicate++;     // applied before a failover
                case CommandWireFormat.STATUS_OUTCOME_UNKNOWN -> unknown++; // no answer in time: ask before re-sending
                default -> throw new IllegalStateException("status " + status);
            }
        }
    }

    /** @param args the member list {@code host:basePort,...} (the members' own) and how many commands to send */
    public static void main(String[] args) throws InterruptedException {
        List<String> members = List.of(args[0].split(","));
        int commands = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        byte[] secret = Objects.requireNonNull(System.getenv("LEDGER_SECRET"), "set LEDGER_SECRET, 16 bytes or more")
                .getBytes(StandardCharsets.UTF_8);
        Answers answers = new Answers();

        // The client's own media driver, never a member's; one thread is plenty for a client.
        Path driverDir = Path.of(System.getProperty("java.io.tmpdir"), "ledger-client-" + ProcessHandle.current().pid());
        try (MediaDriver driver = MediaDriver.launch(new MediaDriver.Context()
                .aeronDirectoryName(driverDir.toString())
                .threadingMode(ThreadingMode.SHARED)
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true))) {
            ClusterCommandClient.Context context = new ClusterCommandClient.Context()
                    .aeronDirectoryName(driver.aeronDirectoryName())
                    .ingressEndpoints(ClusterMembers.parse(members).ingressEndpoints())
                    .clientId(1)                              // keep it across restarts: numbering goes on
                    .credentials(SharedSecretAuthenticator.credentials(secret))
                    .limits(256, 16)                          // 256 unanswered at most, 16-byte commands
                    .replyListener(answers);

            try (ClusterCommandClient client = connect(context)) {
                System.out.println("connected; member " + client.leaderMemberId() + " leads");
                UnsafeBuffer command = new UnsafeBuffer(new byte[16]);
                for (int i = 0; i < commands; i++) {
                    command.putLong(0, i % 16);                           // account
                    command.putLong(8, i == commands / 2 ? 0 : 100);      // amount: one zero, rejected
                    while (client.trySend(command, 0, 16) < 0) {
                        client.poll();                        // 256 unanswered: take replies in
                    }
                }
                while (client.inFlight() > 0) {
                    client.poll();                            // ends: every command answered or given up
                }
            }
        }
        System.out.printf("%d commands: %d applied, %d rejected, %d refused, %d duplicate, %d outcome unknown;"
                + " last balance %d%n", commands, answers.applied, answers.rejected, answers.refused,
                answers.duplicate, answers.unknown, answers.lastBalance);
        answers.reasons.forEach(System.out::println);
    }

    /** Connects once the members have elected a leader: until then connect throws. */
    static ClusterCommandClient connect(ClusterCommandClient.Context context) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (true) {
            try {
                return ClusterCommandClient.connect(context);
            } catch (ClientRefusedException refused) {       // a wrong secret, id or limit: retrying cannot help
                throw refused;
            } catch (IllegalStateException notYet) {          // no leader yet
                if (System.nanoTime() - deadline > 0) {
                    throw notYet;
                }
                System.out.println("not connected yet: " + notYet.getMessage());
                Thread.sleep(1000);
            }
        }
    }
}

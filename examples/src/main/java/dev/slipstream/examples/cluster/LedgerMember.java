package dev.slipstream.examples.cluster;

import dev.slipstream.cluster.ClusterCommand;
import dev.slipstream.cluster.ClusterMember;
import dev.slipstream.cluster.MemberConfig;
import dev.slipstream.cluster.PipelineClusteredService;
import dev.slipstream.cluster.SharedSecretAuthenticator;
import dev.slipstream.cluster.StageState;
import dev.slipstream.processor.EventHandler;
import dev.slipstream.topology.StageSpec;
import io.aeron.cluster.service.Cluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ShutdownSignalBarrier;

/**
 * One member of a replicated ledger: validate, apply, reply. Run three, one per machine (or three
 * on one machine with base ports 10 apart); {@code LEDGER_SECRET} must be set, the same everywhere.
 *
 * <pre>{@code
 * java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp examples/target/examples.jar \
 *     dev.slipstream.examples.cluster.LedgerMember 0 localhost:27100,localhost:27110,localhost:27120 ledger/member-0
 * }</pre>
 */
public final class LedgerMember {
    static final int ACCOUNTS = 1024;

    /** A command in the ring: account (8 bytes) | amount (8 bytes); the ledger stage adds the balance. */
    static final class Entry {
        long account;
        long amount;
        long balance;

        @Override
        public String toString() {                            // how a rejected command appears in the log
            return "account " + account + ", amount " + amount;
        }
    }

    /** The ledger: its balances are the state every member must agree on, so it is a StageState. */
    static final class Ledger implements EventHandler<ClusterCommand<Entry>>, StageState {
        private final long[] balances = new long[ACCOUNTS];

        @Override
        public void onEvent(ClusterCommand<Entry> command, long sequence, boolean endOfBatch) {
            if (command.isRejected()) {
                return;                                       // the validating stage threw for it
            }
            Entry entry = command.payload();
            long balance = balances[(int) entry.account] + entry.amount;
            if (balance < 0) {                                // throw before changing anything
                throw new IllegalArgumentException("account " + entry.account + " would go below zero");
            }
            balances[(int) entry.account] = balance;
            entry.balance = balance;                          // the reply stage behind this one reads it
        }

        @Override
        public int writeSnapshot(MutableDirectBuffer buffer, int offset) {    // the pipeline is quiesced
            for (int i = 0; i < ACCOUNTS; i++) {
                buffer.putLong(offset + i * Long.BYTES, balances[i]);
            }
            return ACCOUNTS * Long.BYTES;                     // bytes written
        }

        @Override
        public void loadSnapshot(DirectBuffer buffer, int offset, int length) {  // before the pipeline starts
            for (int i = 0; i < ACCOUNTS; i++) {
                balances[i] = buffer.getLong(offset + i * Long.BYTES);
            }
        }
    }

    /** The first stage: a throw rejects the command on every member alike, before any state changes. */
    static void validate(ClusterCommand<Entry> command, long sequence, boolean endOfBatch) {
        if (command.isRejected()) {
            return;                                           // the decoder threw: the entry holds old values
        }
        Entry entry = command.payload();
        if (entry.account < 0 || entry.account >= ACCOUNTS) {
            throw new IllegalArgumentException("no account " + entry.account);
        }
        if (entry.amount == 0) {
            throw new IllegalArgumentException("amount must not be zero");
        }
    }

    /** A ReplyWriter: the reply's payload, written on the reply stage's thread; returns its length. */
    static int writeBalance(MutableDirectBuffer buffer, int offset, Entry entry) {
        buffer.putLong(offset, entry.balance);
        return Long.BYTES;
    }

    /** The ledger's service: a fresh one per member (the launcher's factory makes it too). */
    static PipelineClusteredService<Entry> service() {
        return PipelineClusteredService.builder(Entry::new)
                .ingress((buffer, offset, length, entry) -> {
                    if (length != 2 * Long.BYTES) {           // a throw here rejects the command
                        throw new IllegalArgumentException("a command is 16 bytes, not " + length);
                    }
                    entry.account = buffer.getLong(offset);
                    entry.amount = buffer.getLong(offset + Long.BYTES);
                })
                .pipeline((pipeline, outbox, states) -> {   // runs on every start: fresh stages
                    Ledger ledger = new Ledger();
                    states.register("ledger", ledger);        // snapshotted and restored
                    pipeline.handleEventsWith(StageSpec.of("validate", LedgerMember::validate))
                            .then(StageSpec.of("ledger", ledger))
                            .then(StageSpec.of("reply", (command, sequence, endOfBatch) ->
                                    outbox.reply(command, LedgerMember::writeBalance, command.payload())));
                })
                .build();
    }

    /** @param args memberId, the member list {@code host:basePort,...} and this member's directory */
    public static void main(String[] args) {
        int memberId = Integer.parseInt(args[0]);
        List<String> members = List.of(args[1].split(","));  // host:basePort per member, the same list everywhere
        Path dir = Path.of(args[2]);                          // keep it across restarts: it holds the log
        byte[] secret = Objects.requireNonNull(System.getenv("LEDGER_SECRET"), "set LEDGER_SECRET, 16 bytes or more")
                .getBytes(StandardCharsets.UTF_8);            // the same on every member and client

        PipelineClusteredService<Entry> service = service();
        MemberConfig config = MemberConfig.of(memberId, members, dir);
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
                ClusterMember member = ClusterMember.start(config, service, new SharedSecretAuthenticator(secret))) {
            System.out.println("member " + memberId + " started on " + members.get(memberId) + ", directory " + dir);
            Thread roles = new Thread(() -> {                 // one line per role change: who leads
                Cluster.Role shown = null;
                try {
                    while (true) {
                        Cluster.Role role = member.role();    // throws once the member is closed
                        if (role != shown) {
                            System.out.println("member " + memberId + " is " + role);
                            shown = role;
                        }
                        Thread.sleep(200);
                    }
                } catch (IllegalStateException | InterruptedException stopped) {
                    System.out.println(stopped.getMessage());  // closed, or stopped by an Error or ClusterTool
                    barrier.signal();                          // a member that stopped ends the process
                }
            });
            roles.setDaemon(true);
            roles.start();
            barrier.await();                                  // until SIGINT or SIGTERM
        }
    }
}

package dev.slipstream.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aeron.security.NullCredentialsSupplier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Only a client with the shared secret gets a session; the others are rejected with the reason. */
class AuthenticationTest {
    private static final byte[] SECRET = "correct horse battery staple".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path dir;

    @Test
    void aClientWithoutTheSecretIsRejectedAndNothingReachesThePipeline() {
        final MemberConfig config = new MemberConfig(0, List.of("localhost:21400"), dir.resolve("member-0"),
                Duration.ofSeconds(10), Duration.ofSeconds(60));
        final AtomicReference<Ledger> ledger = new AtomicReference<>();
        try (ClientDriver driver = new ClientDriver(dir.resolve("client-driver"));
             ClusterMember member = ClusterMember.start(config, TestPipelines.service(Ledger::new, ledger),
                     new SharedSecretAuthenticator(SECRET))) {
            final ClusterCommandClient.Context wrong = new ClusterCommandClient.Context()
                    .aeronDirectoryName(driver.directory())
                    .ingressEndpoints(config.clusterMembers().ingressEndpoints())
                    .clientId(1)
                    .replyListener(new Replies())
                    .credentials(SharedSecretAuthenticator.credentials(
                            "not the secret at all, nope".getBytes(StandardCharsets.US_ASCII)));
            final ClientRefusedException rejected = assertThrows(ClientRefusedException.class,
                    () -> ClusterCommandClient.connect(wrong));
            assertTrue(rejected.getMessage().contains("rejected client 1"), rejected.getMessage());
            assertTrue(rejected.getMessage().contains("credentials do not match"), rejected.getMessage());

            final ClientRefusedException none = assertThrows(ClientRefusedException.class,
                    () -> ClusterCommandClient.connect(wrong.clientId(2).credentials(new NullCredentialsSupplier())));
            assertTrue(none.getMessage().contains("rejected client 2"), none.getMessage());

            final Replies replies = new Replies();
            try (ClusterCommandClient client = ClusterCommandClient.connect(wrong.clientId(3).replyListener(replies)
                    .credentials(SharedSecretAuthenticator.credentials(SECRET)))) {
                SingleMember.sendAll(client, 5);
            }
            assertEquals(1L, replies.count.get(1L), "only the admitted client's command reached the ledger");
            assertEquals(5, ledger.get().sum);
        }
    }

    @Test
    void aShortSecretIsRefused() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SharedSecretAuthenticator(new byte[4]));
        assertTrue(e.getMessage().contains("at least 16 bytes"), e.getMessage());
    }
}

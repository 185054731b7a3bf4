package dev.slipstream.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.AuthenticatorSupplier;
import io.aeron.security.CredentialsSupplier;
import io.aeron.security.SessionProxy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import org.agrona.collections.Long2LongHashMap;

/**
 * Admits a client session only if its connect request carries the cluster's shared secret; any
 * other session is rejected before it can send a command (the client's connect fails with the
 * cluster's "session failed authentication"). The secret is compared in constant time.
 *
 * <p>One authenticator per consensus module: {@link #get()} makes a fresh one each call, each
 * used on its consensus module's thread only.
 *
 * <pre>{@code
 * byte[] secret = Files.readAllBytes(Path.of("/etc/engine/cluster.secret"));
 * ClusterMember member = ClusterMember.start(config, service, new SharedSecretAuthenticator(secret));
 * // client side:
 * ClusterCommandClient.Context context = new ClusterCommandClient.Context()
 *         .credentials(SharedSecretAuthenticator.credentials(secret));
 * }</pre>
 */
public final class SharedSecretAuthenticator implements AuthenticatorSupplier {
    private static final long ACCEPT = 1;
    private static final long REJECT = 2;
    private final byte[] secret;

    /**
     * @param secret the shared secret, at least 16 bytes
     * @throws IllegalArgumentException if the secret is shorter than 16 bytes
     */
    public SharedSecretAuthenticator(final byte[] secret) {
        Objects.requireNonNull(secret, "secret must not be null");
        if (secret.length < 16) {
            throw new IllegalArgumentException("shared secret of " + secret.length
                    + " bytes is too short to guess-proof; expected at least 16 bytes");
        }
        this.secret = secret.clone();
    }

    /**
     * What a client sends: the secret, on connect; no challenge is answered.
     *
     * @param secret the shared secret
     * @return a credentials supplier for the client's context
     */
    public static CredentialsSupplier credentials(final byte[] secret) {
        final byte[] copy = secret.clone();
        return new CredentialsSupplier() {
            @Override
            public byte[] encodedCredentials() {
                return copy.clone();
            }

            @Override
            public byte[] onChallenge(final byte[] encodedChallenge) {
                return new byte[0];
            }
        };
    }

    /** @return a new authenticator for one consensus module */
    @Override
    public Authenticator get() {
        return new SecretCheck(secret);
    }

    /** The verdicts by session id, decided on the connect request and given when the session is ready. */
    private static final class SecretCheck implements Authenticator {
        private final byte[] secret;
        private final Long2LongHashMap verdicts = new Long2LongHashMap(0);

        SecretCheck(final byte[] secret) {
            this.secret = secret;
        }

        @Override
        public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
            final boolean ok = encodedCredentials != null && MessageDigest.isEqual(secret, encodedCredentials);
            verdicts.put(sessionId, ok ? ACCEPT : REJECT);
        }

        @Override
        public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
            verdicts.put(sessionId, REJECT);
        }

        @Override
        public void onConnectedSession(final SessionProxy sessionProxy, final long nowMs) {
            decide(sessionProxy);
        }

        @Override
        public void onChallengedSession(final SessionProxy sessionProxy, final long nowMs) {
            decide(sessionProxy);
        }

        private void decide(final SessionProxy session) {
            final long verdict = verdicts.get(session.sessionId());
            if (verdict == ACCEPT) {
                if (session.authenticate("client".getBytes(StandardCharsets.US_ASCII))) {
                    verdicts.remove(session.sessionId());
                }
            } else {
                session.reject();
                verdicts.remove(session.sessionId());
            }
        }
    }
}

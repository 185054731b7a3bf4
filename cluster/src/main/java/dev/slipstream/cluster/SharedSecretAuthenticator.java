package dev.slipstream.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.AuthenticatorSupplier;
import io.aeron.security.CredentialsSupplier;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * Admits a client session only if its connect request carries the cluster's shared secret; any
 * other session is rejected before it can send a command (the client's connect fails with the
 * cluster's "session failed authentication"). The secret is compared in constant time.
 *
 * <p>Every admitted session may say hello with any client id (one live session per id): to bind
 * client ids to credentials, use {@link ClientIdAuthenticator} with {@link ClientSecrets}.
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
    private final byte[] secret;

    /**
     * @param secret the shared secret, at least 16 bytes
     * @throws IllegalArgumentException if the secret is shorter than 16 bytes
     */
    public SharedSecretAuthenticator(final byte[] secret) {
        Objects.requireNonNull(secret, "secret must not be null");
        if (secret.length < ClientSecrets.MIN_SECRET_LENGTH) {
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
        return PrincipalCheck.credentials(secret);
    }

    /** @return a new authenticator for one consensus module */
    @Override
    public Authenticator get() {
        // an empty principal binds no client id: the session may say hello as any client
        return new PrincipalCheck(credentials -> MessageDigest.isEqual(secret, credentials) ? new byte[0] : null);
    }
}

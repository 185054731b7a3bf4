package dev.slipstream.cluster;

import io.aeron.security.CredentialsSupplier;
import java.security.MessageDigest;
import java.util.Objects;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A secret per client id: the credentials are the client id and that client's secret, and they
 * may use that client id only. A client that sends another client's id, or a wrong secret, is
 * rejected on connect; one that connects and then writes another id into its commands is
 * refused by the service.
 *
 * <pre>{@code
 * ClientSecrets secrets = ClientSecrets.builder()
 *         .client(7, Files.readAllBytes(Path.of("/etc/engine/gateway-7.secret")))
 *         .client(8, Files.readAllBytes(Path.of("/etc/engine/gateway-8.secret")))
 *         .build();
 * ClusterMember member = ClusterMember.start(config, service, new ClientIdAuthenticator(secrets));
 * // gateway 7:
 * new ClusterCommandClient.Context().clientId(7)
 *         .credentials(ClientSecrets.credentials(7, secretOf7));
 * }</pre>
 */
public final class ClientSecrets implements CredentialStore {
    /** The shortest secret accepted, in bytes: shorter ones are guessable. */
    public static final int MIN_SECRET_LENGTH = 16;
    private final Long2ObjectHashMap<byte[]> secrets;

    private ClientSecrets(final Long2ObjectHashMap<byte[]> secrets) {
        this.secrets = secrets;
    }

    /** @return a builder with no clients */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * What client {@code clientId} sends on connect: its id (8 bytes, little-endian) and its secret.
     *
     * @param clientId the client's id
     * @param secret the client's secret
     * @return a credentials supplier for the client's context
     * @throws IllegalArgumentException if the secret is shorter than {@value #MIN_SECRET_LENGTH} bytes
     */
    public static CredentialsSupplier credentials(final long clientId, final byte[] secret) {
        checkSecret(clientId, secret);
        final byte[] encoded = new byte[Long.BYTES + secret.length];
        new UnsafeBuffer(encoded).putLong(0, clientId);
        System.arraycopy(secret, 0, encoded, Long.BYTES, secret.length);
        return PrincipalCheck.credentials(encoded);
    }

    @Override
    public long[] clientIdsFor(final byte[] encodedCredentials) {
        if (encodedCredentials == null || encodedCredentials.length <= Long.BYTES) {
            return null;
        }
        final long clientId = new UnsafeBuffer(encodedCredentials).getLong(0);
        final byte[] expected = secrets.get(clientId);
        if (expected == null) {
            return null;
        }
        final byte[] presented = java.util.Arrays.copyOfRange(encodedCredentials, Long.BYTES, encodedCredentials.length);
        return MessageDigest.isEqual(expected, presented) ? new long[] {clientId} : null;
    }

    /** @return how many clients have a secret */
    public int size() {
        return secrets.size();
    }

    private static void checkSecret(final long clientId, final byte[] secret) {
        Objects.requireNonNull(secret, "secret must not be null");
        if (secret.length < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException("secret of client " + clientId + " is " + secret.length
                    + " bytes; expected at least " + MIN_SECRET_LENGTH + " bytes, which cannot be guessed");
        }
    }

    /**
     * Collects the clients' secrets.
     *
     * <pre>{@code
     * ClientSecrets secrets = ClientSecrets.builder().client(7, secret7).client(8, secret8).build();
     * }</pre>
     */
    public static final class Builder {
        private final Long2ObjectHashMap<byte[]> secrets = new Long2ObjectHashMap<>();

        private Builder() {
        }

        /**
         * @param clientId a client id, non-negative, given once
         * @param secret that client's secret, at least {@value #MIN_SECRET_LENGTH} bytes
         * @return this builder
         * @throws IllegalArgumentException if the id is negative or given twice, or the secret is too short
         */
        public Builder client(final long clientId, final byte[] secret) {
            if (clientId < 0) {
                throw new IllegalArgumentException("client id must not be negative, was " + clientId);
            }
            checkSecret(clientId, secret);
            if (secrets.containsKey(clientId)) {
                throw new IllegalArgumentException("client " + clientId + " is given a secret twice; expected one per client");
            }
            secrets.put(clientId, secret.clone());
            return this;
        }

        /**
         * @return the secrets, for a {@link ClientIdAuthenticator}
         * @throws IllegalStateException if no client was given
         */
        public ClientSecrets build() {
            if (secrets.isEmpty()) {
                throw new IllegalStateException("no clients: call client(id, secret) for each client before build()");
            }
            return new ClientSecrets(new Long2ObjectHashMap<>(secrets));
        }
    }
}

package dev.slipstream.cluster;

/**
 * Where a {@link ClientIdAuthenticator} looks up which client ids a set of credentials may use:
 * the user's own store (a file, a directory service) or the built-in {@link ClientSecrets}.
 *
 * <p>Called on each member's consensus module thread for every connect request: answer from
 * memory, quickly, and compare secrets in constant time ({@code MessageDigest.isEqual}).
 *
 * <pre>{@code
 * CredentialStore store = credentials -> gatewayTokens.idsFor(credentials);   // your lookup
 * ClusterMember.start(config, service, new ClientIdAuthenticator(store));
 * }</pre>
 */
@FunctionalInterface
public interface CredentialStore {
    /**
     * @param encodedCredentials what the client sent on connect (may be empty, never null)
     * @return the client ids these credentials may say hello with; null or empty to reject the session
     */
    long[] clientIdsFor(byte[] encodedCredentials);
}

package dev.slipstream.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.AuthenticatorSupplier;
import java.util.Objects;

/**
 * Admits a client session only if a {@link CredentialStore} knows its credentials, and binds the
 * session to the client ids the store gives: the service refuses a hello, and so every command,
 * under any other id ({@link CommandWireFormat#STATUS_REFUSED}, naming both). Without it (no
 * authenticator, or {@link SharedSecretAuthenticator}) any admitted session may speak for any
 * client id, one session at a time.
 *
 * <p>One authenticator per consensus module: {@link #get()} makes a fresh one each call, each
 * used on its consensus module's thread only.
 *
 * <pre>{@code
 * ClientSecrets secrets = ClientSecrets.builder().client(7, secret7).client(8, secret8).build();
 * ClusterMember member = ClusterMember.start(config, service, new ClientIdAuthenticator(secrets));
 * }</pre>
 */
public final class ClientIdAuthenticator implements AuthenticatorSupplier {
    private final CredentialStore store;

    /**
     * @param store says which client ids a client's credentials may use
     * @throws NullPointerException if {@code store} is null
     */
    public ClientIdAuthenticator(final CredentialStore store) {
        this.store = Objects.requireNonNull(store, "credential store must not be null");
    }

    /** @return a new authenticator for one consensus module */
    @Override
    public Authenticator get() {
        return new PrincipalCheck(credentials -> {
            final long[] ids = store.clientIdsFor(credentials);
            return ids == null || ids.length == 0 ? null : ClientPrincipal.encode(ids);
        });
    }
}

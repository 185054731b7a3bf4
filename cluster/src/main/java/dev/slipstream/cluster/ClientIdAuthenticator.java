package dev.slipstream.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.AuthenticatorSupplier;
import io.aeron.security.SessionProxy;
import java.util.Objects;
import org.agrona.collections.Long2ObjectHashMap;

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
        return new Check(store);
    }

    /** The principals by session id, decided on the connect request and given when the session is ready. */
    private static final class Check implements Authenticator {
        private static final byte[] REJECTED = new byte[0];
        private final CredentialStore store;
        private final Long2ObjectHashMap<byte[]> principals = new Long2ObjectHashMap<>();

        Check(final CredentialStore store) {
            this.store = store;
        }

        @Override
        public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
            final long[] ids = store.clientIdsFor(encodedCredentials == null ? new byte[0] : encodedCredentials);
            principals.put(sessionId, ids == null || ids.length == 0 ? REJECTED : ClientPrincipal.encode(ids));
        }

        @Override
        public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
            principals.put(sessionId, REJECTED);
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
            final byte[] principal = principals.get(session.sessionId());
            if (principal != null && principal != REJECTED) {
                if (session.authenticate(principal)) {
                    principals.remove(session.sessionId());
                }
            } else {
                session.reject();
                principals.remove(session.sessionId());
            }
        }
    }
}

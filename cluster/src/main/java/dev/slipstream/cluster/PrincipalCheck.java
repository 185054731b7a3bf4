package dev.slipstream.cluster;

import io.aeron.security.Authenticator;
import io.aeron.security.SessionProxy;
import java.util.function.Function;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The authenticator both of the module's suppliers hand each consensus module: it decides on a
 * session's connect request (credentials to a principal, or null to reject) and gives the verdict
 * when the session is ready; a challenge is never issued, so an answer to one rejects. One per
 * consensus module, used on its thread only.
 *
 * <pre>{@code
 * Authenticator check = new PrincipalCheck(credentials -> secretMatches(credentials) ? new byte[0] : null);
 * }</pre>
 */
final class PrincipalCheck implements Authenticator {
    private static final byte[] REJECTED = new byte[0];
    private final Function<byte[], byte[]> principalFor;
    private final Long2ObjectHashMap<byte[]> verdicts = new Long2ObjectHashMap<>();

    /** @param principalFor credentials (never null) to the session's principal, or null to reject it */
    PrincipalCheck(final Function<byte[], byte[]> principalFor) {
        this.principalFor = principalFor;
    }

    @Override
    public void onConnectRequest(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        final byte[] principal = principalFor.apply(encodedCredentials == null ? new byte[0] : encodedCredentials);
        verdicts.put(sessionId, principal == null ? REJECTED : principal);
    }

    @Override
    public void onChallengeResponse(final long sessionId, final byte[] encodedCredentials, final long nowMs) {
        verdicts.put(sessionId, REJECTED);
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
        final byte[] principal = verdicts.get(session.sessionId());
        if (principal != null && principal != REJECTED) {
            // false while the session's egress is not ready: decided again on the next call
            if (session.authenticate(principal)) {
                verdicts.remove(session.sessionId());
            }
        } else {
            session.reject();
            verdicts.remove(session.sessionId());
        }
    }

    /**
     * A client's credentials, sent on connect; no challenge is answered.
     *
     * <pre>{@code
     * CredentialsSupplier supplier = PrincipalCheck.credentials(secret);
     * }</pre>
     */
    static io.aeron.security.CredentialsSupplier credentials(final byte[] encoded) {
        final byte[] copy = encoded.clone();
        return new io.aeron.security.CredentialsSupplier() {
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
}

package dev.slipstream.cluster;

import java.util.Arrays;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The principal an authenticator gives a session, as the service reads it from
 * {@code ClientSession.encodedPrincipal()}: the client ids the session's credentials may use.
 * The cluster keeps the principal in its log with the session, so every member, and a member
 * replaying the log, reads the same one.
 *
 * <pre>
 * "SCID" (4 ASCII bytes) | client id (8, little-endian) | client id | ...
 * </pre>
 *
 * <p>Any other principal (empty, or one from another authenticator such as
 * {@link SharedSecretAuthenticator}) binds nothing: such a session may say hello with any client id.
 *
 * <pre>{@code
 * byte[] principal = ClientPrincipal.encode(new long[] {42});
 * ClientPrincipal.allows(principal, 42);   // true
 * ClientPrincipal.allows(principal, 43);   // false
 * }</pre>
 */
final class ClientPrincipal {
    private static final byte[] MAGIC = {'S', 'C', 'I', 'D'};

    private ClientPrincipal() {
    }

    /** @return the principal for a session that may use exactly these client ids */
    static byte[] encode(final long[] clientIds) {
        final byte[] bytes = new byte[MAGIC.length + clientIds.length * Long.BYTES];
        System.arraycopy(MAGIC, 0, bytes, 0, MAGIC.length);
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        for (int i = 0; i < clientIds.length; i++) {
            buffer.putLong(MAGIC.length + i * Long.BYTES, clientIds[i]);
        }
        return bytes;
    }

    /** @return true if the principal names client ids (the session's identity is bound) */
    static boolean isBound(final byte[] principal) {
        return principal != null && principal.length >= MAGIC.length
                && (principal.length - MAGIC.length) % Long.BYTES == 0
                && Arrays.equals(principal, 0, MAGIC.length, MAGIC, 0, MAGIC.length);
    }

    /** @return true if a session with this principal may say hello as {@code clientId} */
    static boolean allows(final byte[] principal, final long clientId) {
        if (!isBound(principal)) {
            return true;
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(principal);
        for (int at = MAGIC.length; at < principal.length; at += Long.BYTES) {
            if (buffer.getLong(at) == clientId) {
                return true;
            }
        }
        return false;
    }

    /** @return the client ids a bound principal names, for messages ("[42, 43]") */
    static String describe(final byte[] principal) {
        if (!isBound(principal)) {
            return "any";
        }
        final UnsafeBuffer buffer = new UnsafeBuffer(principal);
        final long[] ids = new long[(principal.length - MAGIC.length) / Long.BYTES];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = buffer.getLong(MAGIC.length + i * Long.BYTES);
        }
        return Arrays.toString(ids);
    }
}

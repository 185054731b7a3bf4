package dev.slipstream.cluster;

/**
 * The cluster answered a client's connection with a refusal that trying again will not change:
 * its credentials do not match the cluster's authenticator, the service refused its hello (a
 * client id its credentials may not use, or no room for another client), or the service accepts
 * shorter commands than the client may send. Its message names the reason and what to change.
 *
 * <p>Connecting before the members have elected a leader throws a plain
 * {@link IllegalStateException}, which is worth retrying; this one is not:
 *
 * <pre>{@code
 * while (true) {
 *     try {
 *         return ClusterCommandClient.connect(context);
 *     } catch (ClientRefusedException refused) {
 *         throw refused;                      // wrong secret, id or limits: fix the configuration
 *     } catch (IllegalStateException notYet) {
 *         Thread.sleep(1000);                 // no leader yet
 *     }
 * }
 * }</pre>
 */
public final class ClientRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message the reason and what to change
     * @param cause what Aeron reported, or null
     */
    ClientRefusedException(final String message, final Throwable cause) {
        super(message, cause);
    }
}

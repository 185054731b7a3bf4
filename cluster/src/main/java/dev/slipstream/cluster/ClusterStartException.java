package dev.slipstream.cluster;

/**
 * A cluster member could not start: a port it needs is taken, its directory is in use by
 * another member, or a part of it failed to launch. The message says which and what to do.
 *
 * <pre>{@code
 * try (ClusterMember member = ClusterMember.start(config, service)) {
 *     member.awaitTermination();
 * } catch (ClusterStartException e) {
 *     System.err.println(e.getMessage());   // e.g. "member 1: UDP port 20111 (consensus) on localhost is in use ..."
 * }
 * }</pre>
 */
public final class ClusterStartException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * @param message what failed and what to do
     * @param cause the underlying failure, or null
     */
    public ClusterStartException(final String message, final Throwable cause) {
        super(message, cause);
    }
}

package dev.slipstream.cluster;

/**
 * What a {@link PipelineClusteredService} does when a stage, or the ingress decoder, throws for
 * a command.
 *
 * <p>An exception thrown by business logic is a function of the command and the state, both the
 * same on every member: every member throws it for the same command. {@link #REJECT} (the
 * default) uses that: every member rejects the command alike and goes on, and its client is
 * answered {@link CommandWireFormat#STATUS_REJECTED}. {@link #HALT} stops the member instead; on
 * every member alike, so one bad command stops the whole cluster, and a restart replays it and
 * stops again: choose it only where an exception means the code itself is wrong and no further
 * command may be applied. Either way an {@link Error} (out of memory, stack overflow, an
 * assertion) stops the member it happened on: it is not a function of the log.
 *
 * <pre>{@code
 * PipelineClusteredService.builder(Order::new).ingress(decoder).pipeline(wiring)
 *         .onCommandException(CommandFailurePolicy.HALT)   // not the default
 *         .build();
 * }</pre>
 */
public enum CommandFailurePolicy {
    /**
     * The command is marked rejected ({@link ClusterCommand#isRejected()}) on every member, its
     * client is answered {@link CommandWireFormat#STATUS_REJECTED} with the exception's type and
     * message, and the pipeline goes on. What stages before the throwing one did stays.
     */
    REJECT,
    /** The stage halts and the member stops, as on an {@link Error}. */
    HALT
}

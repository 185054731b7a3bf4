package dev.slipstream.aeron;

/**
 * The bridge could not do what it must: the publication was closed or reached its maximum
 * position, or the outbound stage was stopped while it waited to send. The event named in the
 * message was not sent.
 *
 * <pre>{@code
 * pipeline.handleEventsWith(outbound.stageSpec("to-engine"));   // a failure halts the pipeline
 * ...
 * for (StageFailure failure : pipeline.failures()) {
 *     if (failure.cause() instanceof AeronBridgeException) {
 *         reconnectAndReplay(failure);
 *     }
 * }
 * }</pre>
 */
public class AeronBridgeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what happened and to which event
     */
    public AeronBridgeException(final String message) {
        super(message);
    }
}

package dev.slipstream.cluster;

/**
 * The bytes of a command and of its reply, little-endian as Agrona writes them.
 *
 * <pre>
 * command (ingress): client id (8) | correlation id (8) | payload
 * reply   (egress):  correlation id (8) | status (1)    | payload
 * </pre>
 *
 * <p>A client id names the client across its sessions (a client that reconnects, or restarts,
 * keeps it), so that the pair (client id, correlation id) identifies a command for at-most-once
 * application. A session's first message is a hello (correlation id
 * {@link #HELLO_CORRELATION_ID}, no payload): the service binds the session to that client id
 * (refusing one the session's credentials may not use, and closing an older session of the same
 * id) and answers {@link #STATUS_WELCOME} with the highest correlation id it has applied for the
 * client, so a restarted client goes on after it.
 *
 * <pre>{@code
 * buffer.putLong(CommandWireFormat.CLIENT_ID_OFFSET, clientId);
 * buffer.putLong(CommandWireFormat.CORRELATION_ID_OFFSET, correlationId);
 * int length = CommandWireFormat.COMMAND_HEADER_LENGTH + writePayload(buffer, CommandWireFormat.COMMAND_HEADER_LENGTH);
 * }</pre>
 */
public final class CommandWireFormat {
    /** Where a command's client id is. */
    public static final int CLIENT_ID_OFFSET = 0;
    /** Where a command's correlation id is. */
    public static final int CORRELATION_ID_OFFSET = 8;
    /** A command's header length; its payload follows. */
    public static final int COMMAND_HEADER_LENGTH = 16;

    /** Where a reply's correlation id is. */
    public static final int REPLY_CORRELATION_ID_OFFSET = 0;
    /** Where a reply's status byte is. */
    public static final int REPLY_STATUS_OFFSET = 8;
    /** A reply's header length; its payload follows. */
    public static final int REPLY_HEADER_LENGTH = 9;

    /** Status: the command was applied, and this is the reply a stage wrote. */
    public static final byte STATUS_APPLIED = 0;
    /**
     * Status: a command with this client id and correlation id was applied (or rejected) before,
     * so this one is a re-send; it is not applied again. No payload.
     */
    public static final byte STATUS_DUPLICATE = 1;
    /**
     * Status: the command was refused before it reached the stages: it is longer than the
     * service's limit, its correlation id is negative or too far ahead of the client's oldest unapplied one,
     * its client id is not the one this session said hello with or may use, the session has not
     * said hello, or the session was taken over by a newer one. The payload is the reason, in
     * ASCII. A refused command is not remembered: it may be sent again (once the cause is fixed).
     */
    public static final byte STATUS_REFUSED = 2;
    /**
     * Status: a stage (or the ingress decoder) threw an exception for this command, on every
     * member alike; the stages after it saw it marked rejected. The payload is the exception's
     * type and message, in UTF-8, at most {@link #MAX_REJECTION_LENGTH} bytes. The command counts
     * as applied for at-most-once: a re-send is answered {@link #STATUS_DUPLICATE}.
     */
    public static final byte STATUS_REJECTED = 3;
    /**
     * Outcome: the client gave up waiting for an answer (its command deadline passed). The
     * command may or may not have been applied. Never sent by the service: the client reports it
     * to its {@link ReplyListener} itself. No payload.
     */
    public static final byte STATUS_OUTCOME_UNKNOWN = 4;
    /**
     * Status: the answer to a hello: this session now speaks for the client id. Payload:
     * {@link #WELCOME_HIGHEST_APPLIED_OFFSET} and {@link #WELCOME_MAX_COMMAND_LENGTH_OFFSET}.
     */
    public static final byte STATUS_WELCOME = 5;
    /**
     * Status: a newer session said hello with this session's client id and took it over; the
     * service closes this session. The payload is the reason, in ASCII. A client that gets it
     * stops: it does not reconnect.
     */
    public static final byte STATUS_SUPERSEDED = 6;

    /**
     * The correlation id of a hello and of the session-level answers ({@link #STATUS_WELCOME},
     * a hello's {@link #STATUS_REFUSED}, {@link #STATUS_SUPERSEDED}). A session's first message
     * must be a hello: a command header with this correlation id and no payload. Commands'
     * correlation ids start at 1.
     */
    public static final long HELLO_CORRELATION_ID = 0;
    /** In a welcome's payload: the highest correlation id the cluster has applied for this client (8 bytes). */
    public static final int WELCOME_HIGHEST_APPLIED_OFFSET = 0;
    /** In a welcome's payload: the longest command payload the service accepts (4 bytes). */
    public static final int WELCOME_MAX_COMMAND_LENGTH_OFFSET = 8;
    /** A welcome's payload length. */
    public static final int WELCOME_LENGTH = 12;
    /** The longest rejection reason a {@link #STATUS_REJECTED} reply carries, in bytes. */
    public static final int MAX_REJECTION_LENGTH = 256;

    private CommandWireFormat() {
    }
}

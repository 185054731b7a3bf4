package dev.slipstream.cluster;

/**
 * The bytes of a command and of its reply, little-endian as Agrona writes them.
 *
 * <pre>
 * command (ingress): client id (8) | correlation id (8) | payload
 * reply   (egress):  correlation id (8) | status (1)    | payload
 * </pre>
 *
 * <p>A client id names the client across its sessions (a client that reconnects keeps it), so
 * that the pair (client id, correlation id) identifies a command for at-most-once application.
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
    /** Status: the command was applied before (a resend); it is not applied again. No payload. */
    public static final byte STATUS_DUPLICATE = 1;
    /**
     * Status: the command was refused without being applied: its correlation id is too far ahead
     * of the client's oldest unapplied one, or the message is shorter than a command header. The
     * payload is the reason, in ASCII.
     */
    public static final byte STATUS_REFUSED = 2;

    private CommandWireFormat() {
    }
}

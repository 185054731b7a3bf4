package dev.slipstream.aeron;

/**
 * What an {@link AeronOutbound} stage sent and what it waited for: plain getters, safe to read
 * from any thread at any time, allocation-free. Each counter is written only by the stage's
 * thread.
 *
 * <p>The wait counters count refused attempts: each time the publication answered
 * {@code BACK_PRESSURED}, {@code NOT_CONNECTED} or {@code ADMIN_ACTION} and the stage idled
 * before trying again. They grow with the idle strategy's rate of retries, so compare them with
 * each other and over time, not with the message count.
 *
 * <pre>{@code
 * OutboundMetrics m = outbound.metrics();
 * if (m.backPressured() > lastBackPressured) {
 *     log.info("receiver is slower than the producers: " + m);
 * }
 * }</pre>
 */
public final class OutboundMetrics {
    static final int SENT = 0;
    static final int BYTES = 1;
    static final int OFFERED = 2;
    static final int BACK_PRESSURED = 3;
    static final int NOT_CONNECTED = 4;
    static final int ADMIN_ACTION = 5;
    static final int WAITED = 6;
    private static final int COUNT = 7;

    final PaddedCounters counters = new PaddedCounters(COUNT);

    OutboundMetrics() {
    }

    /**
     * Messages the publication accepted.
     *
     * @return the count
     */
    public long messagesSent() {
        return counters.get(SENT);
    }

    /**
     * Bytes the publication accepted, headers of the {@link WireFormat} included (Aeron's frame
     * headers not).
     *
     * @return the count
     */
    public long bytesSent() {
        return counters.get(BYTES);
    }

    /**
     * Messages too long for one frame, sent with {@code offer} from the stage's own buffer (the
     * others were encoded in place with {@code tryClaim}).
     *
     * @return the count
     */
    public long messagesOffered() {
        return counters.get(OFFERED);
    }

    /**
     * Attempts refused because the receivers (or the network) were behind.
     *
     * @return the count
     */
    public long backPressured() {
        return counters.get(BACK_PRESSURED);
    }

    /**
     * Attempts refused because no subscriber was connected.
     *
     * @return the count
     */
    public long notConnected() {
        return counters.get(NOT_CONNECTED);
    }

    /**
     * Attempts refused for an administrative action (a term rotation); retried at once.
     *
     * @return the count
     */
    public long adminAction() {
        return counters.get(ADMIN_ACTION);
    }

    /**
     * Messages that had to wait at least once before the publication accepted them.
     *
     * @return the count
     */
    public long messagesThatWaited() {
        return counters.get(WAITED);
    }

    @Override
    public String toString() {
        return "OutboundMetrics{sent=" + messagesSent() + ", bytes=" + bytesSent() + ", offered=" + messagesOffered()
                + ", waited=" + messagesThatWaited() + ", backPressured=" + backPressured()
                + ", notConnected=" + notConnected() + ", adminAction=" + adminAction() + '}';
    }
}

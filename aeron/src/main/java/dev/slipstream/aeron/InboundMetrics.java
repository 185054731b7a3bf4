package dev.slipstream.aeron;

/**
 * What an {@link AeronInbound} received, what it had to refuse for now, and what it found
 * missing: plain getters, safe to read from any thread at any time, allocation-free. The image
 * counters are written by the Aeron client's conductor thread, the others by the polling thread;
 * each counter has one writer.
 *
 * <pre>{@code
 * InboundMetrics m = inbound.metrics();
 * if (m.gaps() > 0) {
 *     alert(m.missingMessages() + " messages never arrived: " + m);
 * }
 * }</pre>
 */
public final class InboundMetrics {
    static final int RECEIVED = 0;
    static final int BYTES = 1;
    static final int ABORTS = 2;
    static final int GAPS = 3;
    static final int MISSING = 4;
    static final int REWOUND = 5;
    static final int MALFORMED = 6;
    static final int IMAGES_AVAILABLE = 7;
    static final int IMAGES_UNAVAILABLE = 8;
    private static final int COUNT = 9;

    final PaddedCounters counters = new PaddedCounters(COUNT);

    InboundMetrics() {
    }

    /**
     * Messages decoded into the ring and published.
     *
     * @return the count
     */
    public long messagesReceived() {
        return counters.get(RECEIVED);
    }

    /**
     * Bytes of those messages, {@link WireFormat} headers included.
     *
     * @return the count
     */
    public long bytesReceived() {
        return counters.get(BYTES);
    }

    /**
     * Times a message found the ring full and was left to Aeron ({@code ABORT}), to be delivered
     * again on a later poll. Nothing is lost by an abort; many of them mean the ring's stages are
     * slower than the far producers, who are being back-pressured.
     *
     * @return the count
     */
    public long aborts() {
        return counters.get(ABORTS);
    }

    /**
     * Discontinuities in a session's stream sequence, each reported to
     * {@link InboundListener#onGap}.
     *
     * @return the count
     */
    public long gaps() {
        return counters.get(GAPS);
    }

    /**
     * Messages skipped over by forward gaps: the sum of {@code received - expected} over gaps
     * where the sequence jumped ahead.
     *
     * @return the count
     */
    public long missingMessages() {
        return counters.get(MISSING);
    }

    /**
     * Gaps where the sequence went back (a publisher restarted its numbering).
     *
     * @return the count
     */
    public long sequenceResets() {
        return counters.get(REWOUND);
    }

    /**
     * Messages shorter than the {@link WireFormat#HEADER_LENGTH}: not from a bridge; reported to
     * {@link InboundListener#onMalformedMessage} and not put in the ring.
     *
     * @return the count
     */
    public long malformedMessages() {
        return counters.get(MALFORMED);
    }

    /**
     * Images (publisher sessions) that became available.
     *
     * @return the count
     */
    public long imagesAvailable() {
        return counters.get(IMAGES_AVAILABLE);
    }

    /**
     * Images that went away (the publisher closed, crashed or was cut off).
     *
     * @return the count
     */
    public long imagesUnavailable() {
        return counters.get(IMAGES_UNAVAILABLE);
    }

    @Override
    public String toString() {
        return "InboundMetrics{received=" + messagesReceived() + ", bytes=" + bytesReceived() + ", aborts=" + aborts()
                + ", gaps=" + gaps() + ", missing=" + missingMessages() + ", resets=" + sequenceResets()
                + ", malformed=" + malformedMessages() + ", imagesAvailable=" + imagesAvailable()
                + ", imagesUnavailable=" + imagesUnavailable() + '}';
    }
}

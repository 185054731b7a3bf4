package dev.slipstream.aeron;

import io.aeron.Image;

/**
 * Told by an {@link AeronInbound} about publisher sessions coming and going, gaps in a stream's
 * sequence, and messages it could not read. Every method has an empty default: implement what
 * you act on. Counted in {@link InboundMetrics} whether or not a listener is set.
 *
 * <p>{@link #onImageAvailable} and {@link #onImageUnavailable} run on the Aeron client's
 * conductor thread; {@link #onGap} and {@link #onMalformedMessage} run on the receiver's polling
 * thread, before the message that revealed them is published to the ring. Keep them short and
 * never let them block: they hold up the receiver.
 *
 * <pre>{@code
 * InboundListener listener = new InboundListener() {
 *     public void onGap(int sessionId, long expectedSequence, long receivedSequence) {
 *         log.warn("session " + sessionId + ": expected " + expectedSequence + ", got " + receivedSequence);
 *         requestReplayFrom(expectedSequence);
 *     }
 * };
 * }</pre>
 */
public interface InboundListener {
    /**
     * A publisher session joined the subscription.
     *
     * @param image the new image (its session id, source identity, join position)
     */
    default void onImageAvailable(Image image) {
    }

    /**
     * A publisher session left: it closed, crashed, or was cut off for longer than the driver's
     * liveness timeout. Messages it sent that were not received by then are lost to this
     * receiver; a later session of the same stream shows how many by its first sequence.
     *
     * @param image the image that went away
     */
    default void onImageUnavailable(Image image) {
    }

    /**
     * A session's stream sequence was not the one expected. {@code receivedSequence >
     * expectedSequence}: messages {@code expectedSequence .. receivedSequence - 1} never arrived
     * here (this receiver joined late or was restarted, or the publisher's session was lost);
     * {@code receivedSequence < expectedSequence}: the publisher restarted its numbering, so
     * messages may repeat or be missing and cannot be told apart by sequence. The message is
     * still delivered to the ring after this call; the receiver then expects
     * {@code receivedSequence + 1}.
     *
     * @param sessionId the Aeron session of the message
     * @param expectedSequence the sequence this receiver expected
     * @param receivedSequence the sequence that arrived
     */
    default void onGap(int sessionId, long expectedSequence, long receivedSequence) {
    }

    /**
     * A message shorter than the {@link WireFormat} header arrived: it was not sent by an
     * {@link AeronOutbound}. It is skipped (not put in the ring).
     *
     * @param sessionId the Aeron session of the message
     * @param length the message's length in bytes
     */
    default void onMalformedMessage(int sessionId, int length) {
    }
}

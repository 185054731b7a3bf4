/**
 * Slipstream over Aeron: an outbound stage that continues a ring into an Aeron publication, and
 * an inbound receiver that polls an Aeron subscription into a ring, keeping the ring's
 * back-pressure, a per-stream sequence number in every message and gap detection.
 *
 * <ul>
 *   <li>{@code dev.slipstream.aeron}: {@link dev.slipstream.aeron.AeronOutbound},
 *       {@link dev.slipstream.aeron.AeronInbound}, the codecs, the listener and the metrics.</li>
 * </ul>
 */
// Aeron and Agrona publish automatic modules only (names in their manifests); re-exporting them
// is deliberate, since their types are part of this module's API.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module dev.slipstream.aeron {
    requires transitive dev.slipstream;
    // Aeron and Agrona types (publications, subscriptions, buffers, idle strategies, agents) are
    // part of this module's API, so users get them too. Both are automatic modules (named in
    // their jars' manifests).
    requires transitive io.aeron.client;
    requires transitive org.agrona;

    exports dev.slipstream.aeron;
}

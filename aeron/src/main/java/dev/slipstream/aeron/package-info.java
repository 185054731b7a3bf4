/**
 * The Aeron bridge: a Slipstream pipeline continues in another process or on another host.
 *
 * <p>{@link dev.slipstream.aeron.AeronOutbound} is an {@link dev.slipstream.processor.EventHandler}
 * that sends each event through an {@link io.aeron.ExclusivePublication}; while the publication
 * refuses (back-pressured, not connected, admin action) it waits inside {@code onEvent}, so its
 * sequence does not advance and the ring's producers feel the far side exactly as they feel a
 * slow local stage. {@link dev.slipstream.aeron.AeronInbound} polls an {@link io.aeron.Subscription}
 * and decodes each message straight into a claimed ring slot; when the ring is full it returns
 * {@code ABORT}, so Aeron keeps the message and the far publisher is back-pressured in turn.
 *
 * <p>Every message starts with the 8-byte {@link dev.slipstream.aeron.WireFormat header}: a
 * stream sequence number that the inbound side checks per session, reporting every gap to an
 * {@link dev.slipstream.aeron.InboundListener}.
 *
 * <pre>{@code
 * // sending process: a stage of the pipeline
 * AeronOutbound<Trade> out = AeronOutbound.builder(aeron.addExclusivePublication(channel, 10), TRADE_ENCODER).build();
 * pipeline.handleEventsWith(out.stageSpec("to-matching"));
 *
 * // receiving process: a receiver thread into the pipeline's ring
 * AeronInbound<Trade> in = AeronInbound.builder(aeron, channel, 10, pipeline.ringBuffer(), TRADE_DECODER).build();
 * new Thread(in, "from-gateway").start();
 * }</pre>
 */
package dev.slipstream.aeron;

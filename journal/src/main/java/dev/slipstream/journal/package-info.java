/**
 * A durable journal for Slipstream pipelines. {@link dev.slipstream.journal.Journal} owns a
 * directory of memory-mapped segment files; its {@link dev.slipstream.journal.JournalStage}
 * encodes each event in place with a {@link dev.slipstream.journal.JournalCodec} and forces each
 * batch by a {@link dev.slipstream.journal.SyncPolicy}; {@link dev.slipstream.journal.JournalReader}
 * replays it into a handler or a ring after a restart.
 *
 * <pre>{@code
 * try (Journal journal = Journal.open(JournalConfig.of(dir))) {
 *     long next = journal.nextSequence();
 *     JournalStage<Order> stage = journal.stage(codec, 0);
 *     pipeline.handleEventsWith(stage.spec("journal")).then(matching);
 *     pipeline.start();
 *     journal.newReader().replayInto(pipeline, 0, next - 1, codec);   // rebuild the book
 *     // ... live orders ...
 * }
 * }</pre>
 */
package dev.slipstream.journal;

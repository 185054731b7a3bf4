/**
 * Slipstream's journal: a pipeline stage that makes every event durable before the stages after
 * it see it, and the recovery and replay that rebuild a pipeline after a crash.
 *
 * <ul>
 *   <li>{@code dev.slipstream.journal}: {@link dev.slipstream.journal.Journal} (a directory of
 *       segment files, its recovery, retention and writer lock),
 *       {@link dev.slipstream.journal.JournalStage} (the stage),
 *       {@link dev.slipstream.journal.JournalReader} (replay), the codec and the sync policies.</li>
 * </ul>
 */
module dev.slipstream.journal {
    requires transitive dev.slipstream;
    // sun.misc.Unsafe#invokeCleaner: unmaps a finished segment at once, instead of when the
    // garbage collector gets to its buffer, so that retention frees disk space when it deletes.
    requires jdk.unsupported;

    exports dev.slipstream.journal;
}

package dev.slipstream.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * A JFR event written periodically for each stage of each running pipeline: where the stage
 * is, how far behind the producers, and how much room the ring has left.
 *
 * <p>Disabled unless a recording enables it; its hook is registered with JFR only while a
 * pipeline runs ({@link JfrMonitoring}), so it costs nothing otherwise. Enable it in a
 * recording, with the period you want:
 *
 * <pre>{@code
 * try (Recording recording = new Recording()) {
 *     recording.enable(StageBacklogEvent.NAME).withPeriod(Duration.ofMillis(100));
 *     recording.start();
 *     // ... run the pipeline ...
 *     recording.dump(Path.of("pipeline.jfr"));
 * }
 * }</pre>
 */
@Name(StageBacklogEvent.NAME)
@Label("Stage Backlog")
@Category({"Slipstream", "Pipeline"})
@Description("Per-stage position and backlog of a running Slipstream pipeline")
@Period("1 s")
@StackTrace(false)
@Enabled(false)
public final class StageBacklogEvent extends Event {
    /** The event's JFR name, for {@code Recording.enable(String)}. */
    public static final String NAME = "dev.slipstream.StageBacklog";

    /** The pipeline's name. */
    @Label("Pipeline")
    public String pipeline;

    /** The stage's name. */
    @Label("Stage")
    public String stage;

    /** The stage's sequence: the last event it finished with. */
    @Label("Sequence")
    public long sequence;

    /** The producers' cursor. */
    @Label("Cursor")
    public long cursor;

    /** Events between the stage and the cursor. */
    @Label("Backlog")
    public long backlog;

    /** Free slots in the ring. */
    @Label("Remaining Capacity")
    public long remainingCapacity;

    /** Events the stage has handled so far. */
    @Label("Events Processed")
    public long eventsProcessed;

    /** Exceptions the stage's handler has thrown so far. */
    @Label("Exceptions Handled")
    public long exceptionsHandled;

    /** Creates an empty event; the monitoring hook fills in the fields and commits it. */
    public StageBacklogEvent() {
    }
}

package dev.slipstream.monitor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * A JFR event written when a stage has had a backlog but made no progress for longer than its
 * pipeline's stall threshold: a handler blocked on I/O or a lock, a dead downstream service, a
 * livelock.
 *
 * <p>Stalls are checked at this event's period (1 s unless the recording says otherwise); while a
 * stage stays stalled, every check writes another event with the stall's length so far. Like
 * {@link StageBacklogEvent}, it costs nothing unless a recording enables it.
 *
 * <pre>{@code
 * recording.enable(StageStallEvent.NAME).withPeriod(Duration.ofMillis(200));
 * }</pre>
 */
@Name(StageStallEvent.NAME)
@Label("Stage Stall")
@Category({"Slipstream", "Pipeline"})
@Description("A stage of a Slipstream pipeline has a backlog and has made no progress for longer than the threshold")
@Period("1 s")
@StackTrace(false)
@Enabled(false)
public final class StageStallEvent extends Event {
    /** The event's JFR name, for {@code Recording.enable(String)}. */
    public static final String NAME = "dev.slipstream.StageStall";

    /** The pipeline's name. */
    @Label("Pipeline")
    public String pipeline;

    /** The stage's name. */
    @Label("Stage")
    public String stage;

    /** The sequence the stage is stuck at. */
    @Label("Sequence")
    public long sequence;

    /** Events waiting for the stage. */
    @Label("Backlog")
    public long backlog;

    /** How long the stage has made no progress. */
    @Label("Stalled For")
    @Timespan(Timespan.NANOSECONDS)
    public long stalledFor;

    /** The threshold the stall exceeded. */
    @Label("Threshold")
    @Timespan(Timespan.NANOSECONDS)
    public long threshold;

    /** Creates an empty event; the monitoring hook fills in the fields and commits it. */
    public StageStallEvent() {
    }
}

package dev.slipstream.bench.support;

import java.util.Locale;
import org.openjdk.jol.vm.VM;

/**
 * Makes the events a ring preallocates, and says where in memory they landed, or puts them where
 * an experiment asks.
 *
 * <p>Why it matters: a {@link ValueEvent} takes 48 bytes, four events to three 64-byte lines, and a
 * ring fills its slots one event after another, so the first event's address modulo 16 decides
 * how every event lies across the lines. Slipstream's unicast blocking cell runs at two levels
 * that follow it, the faster with the events at 16-byte boundaries, whatever the code (the
 * figures are in
 * {@code docs/benchmarks/continuous.md}). Where they land is decided by everything
 * the JVM allocated before the ring, down to the length of the class path, so two jars compared
 * "like for like" can draw different levels. This factory counts where each event lands
 * ({@link #shareAtSixteen()}), so a run can be put in its stratum, and can pin the placement
 * (system property {@code bench.eventAlignment}) so that two jars meet the same one.
 *
 * <p>Modes ({@code -Dbench.eventAlignment=...}):
 * <ul>
 *   <li>{@code natural} (the default): each event where the allocator puts it, as a user's ring
 *       gets them; only counted.</li>
 *   <li>{@code 16}: every event at a 16-byte boundary.</li>
 *   <li>{@code 8}: every event 8 bytes past a 16-byte boundary.</li>
 * </ul>
 * A pinned event that lands on the wrong side is dropped, with a 24-byte filler allocated behind
 * it, so that the next one lands 72 bytes further: on the other side. Addresses are read when the
 * event is made; a garbage collection may move the events later, which the benchmarks, allocating
 * nothing per event, do not meet during a pass.
 *
 * <pre>{@code
 * RingBuffer<ValueEvent> ring = RingBuffer.createSingleProducer(EventPlacement::newEvent, 65536, wait);
 * System.out.println(EventPlacement.shareAtSixteen());   // 1.0 under -Dbench.eventAlignment=16
 * }</pre>
 */
public final class EventPlacement {
    /** Where events go. */
    public enum Mode {
        /** Where the allocator puts them. */
        NATURAL,
        /** At a 16-byte boundary. */
        SIXTEEN,
        /** 8 bytes past a 16-byte boundary. */
        EIGHT_PAST
    }

    /** Gives up pinning after this many tries in a row (a TLAB refill can land either way). */
    private static final int MAX_TRIES = 16;

    private static final EventPlacement DEFAULT = new EventPlacement(mode(System.getProperty("bench.eventAlignment",
            "natural")));

    private final Mode mode;
    /** Written and read by the thread that builds the rings; the benchmarks build on one thread. */
    private long made;
    private long atSixteen;
    /**
     * The last filler: stored so that it escapes, or the compiler could drop the allocation that
     * moves the next event.
     */
    private Object filler;

    /**
     * A factory of events placed as {@code mode} says.
     *
     * @param mode where the events go
     */
    public EventPlacement(final Mode mode) {
        this.mode = mode;
    }

    /**
     * The mode a system property value names.
     *
     * @param value {@code natural}, {@code 16} or {@code 8}
     * @return the mode
     * @throws IllegalArgumentException naming the value and the ones accepted
     */
    public static Mode mode(final String value) {
        return switch (value.trim().toLowerCase(Locale.ROOT)) {
            case "natural" -> Mode.NATURAL;
            case "16" -> Mode.SIXTEEN;
            case "8" -> Mode.EIGHT_PAST;
            default -> throw new IllegalArgumentException("bench.eventAlignment must be natural, 16 or 8, got '"
                    + value + "'");
        };
    }

    /**
     * A new event from the factory that {@code bench.eventAlignment} configures; for a ring's
     * event factory.
     *
     * @return the event
     */
    public static ValueEvent newEvent() {
        return DEFAULT.next();
    }

    /**
     * The share of the events made so far by {@link #newEvent()} that landed at a 16-byte boundary.
     *
     * @return a fraction from 0 to 1, or NaN if none was made
     */
    public static double shareAtSixteen() {
        return DEFAULT.sixteenShare();
    }

    /**
     * The next event, placed as this factory's mode says (or, after {@value #MAX_TRIES} tries in a
     * row that landed on the wrong side, where the last try landed).
     *
     * @return the event
     */
    public ValueEvent next() {
        ValueEvent event = new ValueEvent();
        if (mode != Mode.NATURAL) {
            final boolean wantSixteen = mode == Mode.SIXTEEN;
            for (int tries = 1; atSixteen(event) != wantSixteen && tries < MAX_TRIES; tries++) {
                filler = new long[1];
                event = new ValueEvent();
            }
            filler = null;
        }
        made++;
        if (atSixteen(event)) {
            atSixteen++;
        }
        return event;
    }

    /**
     * The share of this factory's events that landed at a 16-byte boundary.
     *
     * @return a fraction from 0 to 1, or NaN if none was made
     */
    public double sixteenShare() {
        return made == 0 ? Double.NaN : atSixteen / (double) made;
    }

    private static boolean atSixteen(final Object event) {
        return (VM.current().addressOf(event) & 15L) == 0L;
    }
}

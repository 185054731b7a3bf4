package dev.slipstream.cluster;

import dev.slipstream.processor.EventHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The timer tests' stateful stage: records every event it sees, in order, with its cluster time:
 * {@code C<amount>@<time>} for a command, {@code T<timer id>:<payload amount>@<time>} for a
 * timer event. The record is its snapshotted state, so two members agree only if their stages
 * saw the same commands and timer events in the same order at the same cluster times.
 */
class SeenEvents implements EventHandler<ClusterCommand<Amount>>, StageState {
    /** Written by the stage thread; read by tests (a copy-on-write list, safe to read at any time). */
    final List<String> seen = new CopyOnWriteArrayList<>();
    /** How many events the last snapshot written held; -1 before one is written. */
    volatile int atSnapshot = -1;

    @Override
    public void onEvent(final ClusterCommand<Amount> event, final long sequence, final boolean endOfBatch) {
        seen.add(event.isTimer()
                ? "T" + event.timerId() + ":" + event.payload().value + "@" + timeOf(event)
                : "C" + event.payload().value + "@" + event.timestamp());
        event.payload().countAfter = seen.size();
    }

    /** The time recorded for a timer event: the cluster time it fired at. */
    long timeOf(final ClusterCommand<Amount> timerEvent) {
        return timerEvent.timestamp();
    }

    /** @return whether any event seen so far starts with {@code prefix} */
    boolean saw(final String prefix) {
        return seen.stream().anyMatch(e -> e.startsWith(prefix));
    }

    /** @return the cluster time of the first event starting with {@code prefix} */
    long timeOf(final String prefix) {
        final String event = seen.stream().filter(e -> e.startsWith(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no event " + prefix + " in " + seen));
        return Long.parseLong(event.substring(event.indexOf('@') + 1));
    }

    @Override
    public int writeSnapshot(final MutableDirectBuffer buffer, final int offset) {
        final List<String> events = List.copyOf(seen);
        int at = offset;
        buffer.putInt(at, events.size());
        at += Integer.BYTES;
        for (final String event : events) {
            at += buffer.putStringAscii(at, event);
        }
        atSnapshot = events.size();
        return at - offset;
    }

    @Override
    public void loadSnapshot(final DirectBuffer buffer, final int offset, final int length) {
        seen.clear();
        int at = offset;
        final int n = buffer.getInt(at);
        at += Integer.BYTES;
        for (int i = 0; i < n; i++) {
            final String event = buffer.getStringAscii(at);
            seen.add(event);
            at += Integer.BYTES + event.length();
        }
    }
}

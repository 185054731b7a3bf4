package dev.slipstream.stress.topology;

import java.util.Arrays;

/** The soak tests' event: who published it, its per-producer number, and one mark per stage. */
final class SoakEvent {
    int producer;
    long value;
    /** marks[i] = sequence, written by stage i after handling; read by the stages after it. */
    final long[] marks = new long[4];

    static void fill(final SoakEvent event, final long sequence, final Integer producer, final Long value) {
        event.producer = producer;
        event.value = value;
        Arrays.fill(event.marks, -1L);
    }
}

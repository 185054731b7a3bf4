package dev.slipstream.topology;

/** A mutable event with a value and one mark per stage, to check ordering between stages. */
final class TestEvent {
    long value;
    /** marks[i] is set to the event's sequence by stage i; plain writes, published by the stage's sequence. */
    final long[] marks = new long[4];

    static void set(final TestEvent event, final long sequence, final long value) {
        event.value = value;
        java.util.Arrays.fill(event.marks, -1L);
    }
}

package dev.slipstream.topology;

/** A mutable event with a value and marks that stages set, to check ordering between stages. */
final class TestEvent {
    long value;
    /** Bit i set by stage i; reset by the translator. */
    volatile long marks;

    static void set(final TestEvent event, final long sequence, final long value) {
        event.value = value;
        event.marks = 0;
    }
}

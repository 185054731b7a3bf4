package dev.slipstream.processor;

/** A mutable event for tests. */
final class LongEvent {
    long value;

    @Override
    public String toString() {
        return "LongEvent[" + value + "]";
    }
}

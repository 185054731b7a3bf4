package dev.slipstream.processor;

/** A mutable event for tests. */
final class LongEvent {
    long value;
    /** Written by a first stage, checked by the stage after it. */
    long derived;
    /** Which producer published it, in multi-producer tests. */
    int producer;

    @Override
    public String toString() {
        return "LongEvent[" + value + "]";
    }
}

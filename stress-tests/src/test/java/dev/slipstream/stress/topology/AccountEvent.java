package dev.slipstream.stress.topology;

/** An event that says who published it: producer, that producer's index, and its ring sequence. */
final class AccountEvent {
    int producer;
    long index;
    long sequence;

    static void set(final AccountEvent event, final long sequence, final int producer, final long index) {
        event.producer = producer;
        event.index = index;
        event.sequence = sequence;
    }
}

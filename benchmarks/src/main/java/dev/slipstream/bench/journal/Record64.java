package dev.slipstream.bench.journal;

/** The benchmark's event: a 64-byte payload (eight longs) and, for latency, when it was meant to be sent. */
final class Record64 {
    static final int PAYLOAD = 64;

    long a;
    long b;
    long c;
    long d;
    long e;
    long f;
    long g;
    long h;
    /** When the paced producer meant to publish it ({@link System#nanoTime()}); not journalled. */
    long intendedNanos;

    void fill(final long i) {
        a = i;
        b = i + 1;
        c = i + 2;
        d = i + 3;
        e = i + 4;
        f = i + 5;
        g = i + 6;
        h = i + 7;
    }

    long sum() {
        return a + b + c + d + e + f + g + h;
    }
}

package dev.slipstream.examples.topology;

/** Helpers the topology examples share: argument parsing and throughput printing. */
final class Examples {
    private Examples() {
    }

    /** The event count: the first argument, or {@code defaultCount}. */
    static long events(final String[] args, final long defaultCount) {
        if (args.length == 0) {
            return defaultCount;
        }
        final long count = Long.parseLong(args[0].replace("_", ""));
        if (count < 1) {
            throw new IllegalArgumentException("event count must be at least 1, got " + count);
        }
        return count;
    }

    /** Prints events per second between {@code startNanos} and now. */
    static void printThroughput(final String name, final long events, final long startNanos) {
        final long nanos = Math.max(1, System.nanoTime() - startNanos);
        System.out.printf("%s: %,d events in %,d ms = %,.0f events/s%n", name, events, nanos / 1_000_000,
                events * 1e9 / nanos);
    }
}

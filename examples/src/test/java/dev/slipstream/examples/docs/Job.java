package dev.slipstream.examples.docs;

/** A job element of the queue and work-pool samples. */
final class Job {
    final int id;

    Job(final int id) {
        this.id = id;
    }
}

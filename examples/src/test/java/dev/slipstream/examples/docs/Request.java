package dev.slipstream.examples.docs;

/** A request element of the LSCQ samples. */
final class Request {
    final int id;

    Request(final int id) {
        this.id = id;
    }

    boolean urgent() {
        return id < 0;
    }
}

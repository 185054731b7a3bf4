package dev.slipstream.cluster;

/** The test commands' payload: an amount. */
final class Amount {
    long value;
    /** Written by the ledger stage for the reply stage: the ledger's count after this command. */
    long countAfter;

    @Override
    public String toString() {
        return Long.toString(value);
    }
}

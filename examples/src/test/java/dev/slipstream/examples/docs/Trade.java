package dev.slipstream.examples.docs;

final class Trade {
    long price;
    long quantity;
    String symbol;     // references are fine; they are overwritten on each publication
}

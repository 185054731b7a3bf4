package dev.slipstream.aeron.guide;

import dev.slipstream.aeron.MessageDecoder;
import dev.slipstream.aeron.MessageEncoder;
import java.nio.ByteOrder;
import org.agrona.MutableDirectBuffer;

/** The guide's event, with the codec the guide shows (docs/guide/aeron-bridge.md). */
public final class Quote {
    long instrument;
    long price;
    long quantity;

    static final MessageEncoder<Quote> QUOTE_ENCODER = new MessageEncoder<>() {
        @Override
        public int encodedLength(final Quote quote) {
            return 24;                                   // fixed length: three longs
        }

        @Override
        public int encode(final Quote quote, final MutableDirectBuffer buffer, final int offset) {
            buffer.putLong(offset, quote.instrument, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 8, quote.price, ByteOrder.LITTLE_ENDIAN);
            buffer.putLong(offset + 16, quote.quantity, ByteOrder.LITTLE_ENDIAN);
            return 24;
        }
    };

    static final MessageDecoder<Quote> QUOTE_DECODER = (buffer, offset, length, quote) -> {
        quote.instrument = buffer.getLong(offset, ByteOrder.LITTLE_ENDIAN);
        quote.price = buffer.getLong(offset + 8, ByteOrder.LITTLE_ENDIAN);
        quote.quantity = buffer.getLong(offset + 16, ByteOrder.LITTLE_ENDIAN);
    };
}

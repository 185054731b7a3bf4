package dev.slipstream.examples.orderbook;

import dev.slipstream.aeron.MessageDecoder;
import dev.slipstream.aeron.MessageEncoder;
import java.nio.ByteOrder;
import org.agrona.MutableDirectBuffer;

/**
 * How orders and execution reports travel between {@link GatewayNode} and
 * {@link MatchingEngineNode}, after the bridge's 8-byte stream-sequence header. Little-endian,
 * fixed length, allocation-free.
 *
 * <pre>
 * order  (34 bytes): type (1), side (1), client id (4), order id (8), price (8), quantity (8), reserved (4)
 * report (24 bytes): order id (8), filled quantity (8), fills (4), rejected (1), reserved (3)
 * </pre>
 *
 * The order does not carry the client's submission time: clocks of two hosts are not comparable,
 * so the gateway keeps it and measures the round trip on its own clock.
 */
final class OrderWire {
    static final int ORDER_LENGTH = 34;
    static final int REPORT_LENGTH = 24;
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private OrderWire() {
    }

    static final MessageEncoder<OrderEvent> ORDER_ENCODER = new MessageEncoder<>() {
        @Override
        public int encodedLength(final OrderEvent order) {
            return ORDER_LENGTH;
        }

        @Override
        public int encode(final OrderEvent order, final MutableDirectBuffer buffer, final int offset) {
            buffer.putByte(offset, order.type);
            buffer.putByte(offset + 1, (byte) order.side.ordinal());
            buffer.putInt(offset + 2, order.clientId, LE);
            buffer.putLong(offset + 6, order.orderId, LE);
            buffer.putLong(offset + 14, order.price, LE);
            buffer.putLong(offset + 22, order.quantity, LE);
            buffer.putInt(offset + 30, 0, LE);
            return ORDER_LENGTH;
        }
    };

    /** Decodes an order; its submission time becomes the time it arrived here (this host's clock). */
    static final MessageDecoder<OrderEvent> ORDER_DECODER = (buffer, offset, length, order) -> {
        if (length != ORDER_LENGTH) {
            throw new IllegalArgumentException("order message of " + length + " bytes, expected " + ORDER_LENGTH);
        }
        order.setOrder(buffer.getByte(offset), Side.values()[buffer.getByte(offset + 1)],
                buffer.getLong(offset + 6, LE), buffer.getLong(offset + 14, LE), buffer.getLong(offset + 22, LE),
                buffer.getInt(offset + 2, LE), System.nanoTime());
    };

    /** The execution report the matching stage wrote into the order's slot. */
    static final MessageEncoder<OrderEvent> REPORT_ENCODER = new MessageEncoder<>() {
        @Override
        public int encodedLength(final OrderEvent order) {
            return REPORT_LENGTH;
        }

        @Override
        public int encode(final OrderEvent order, final MutableDirectBuffer buffer, final int offset) {
            buffer.putLong(offset, order.orderId, LE);
            buffer.putLong(offset + 8, order.filledQuantity, LE);
            buffer.putInt(offset + 16, order.fills, LE);
            buffer.putByte(offset + 20, (byte) (order.rejected ? 1 : 0));
            buffer.putByte(offset + 21, (byte) 0);
            buffer.putShort(offset + 22, (short) 0, LE);
            return REPORT_LENGTH;
        }
    };

    static final MessageDecoder<Report> REPORT_DECODER = (buffer, offset, length, report) -> {
        if (length != REPORT_LENGTH) {
            throw new IllegalArgumentException("report message of " + length + " bytes, expected " + REPORT_LENGTH);
        }
        report.orderId = buffer.getLong(offset, LE);
        report.filledQuantity = buffer.getLong(offset + 8, LE);
        report.fills = buffer.getInt(offset + 16, LE);
        report.rejected = buffer.getByte(offset + 20) != 0;
    };

    /** An execution report as the gateway receives it: one slot of its reports ring. */
    static final class Report {
        long orderId;
        long filledQuantity;
        int fills;
        boolean rejected;
    }
}

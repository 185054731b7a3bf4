package dev.slipstream.examples.orderbook;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OrderBookTest {
    private final OrderBook book = new OrderBook(1_000, 64);
    private final RecordingListener reports = new RecordingListener();

    @Test
    void restingLimitOrdersSetTheTopOfBook() {
        book.limit(1, Side.BUY, 99, 10, reports);
        book.limit(2, Side.BUY, 100, 5, reports);
        book.limit(3, Side.SELL, 102, 7, reports);
        book.limit(4, Side.SELL, 101, 3, reports);

        assertEquals(List.of(), reports.take(), "nothing crosses, nothing is reported");
        assertEquals(100, book.bestBid());
        assertEquals(101, book.bestAsk());
        assertEquals(5, book.quantityAt(Side.BUY, 100));
        assertEquals(4, book.restingOrders());
    }

    @Test
    void betterPriceTradesFirstThenOlderOrderAtOnePrice() {
        book.limit(1, Side.SELL, 101, 10, reports);
        book.limit(2, Side.SELL, 100, 10, reports);
        book.limit(3, Side.SELL, 100, 10, reports);   // same price as 2, later: behind it

        book.limit(4, Side.BUY, 101, 25, reports);

        assertEquals(List.of(
                "trade 4 with 2 10@100",
                "trade 4 with 3 10@100",
                "trade 4 with 1 5@101"), reports.take());
        assertEquals(List.of(new RestingOrder(1, Side.SELL, 101, 5)), book.snapshot());
    }

    @Test
    void tradesHappenAtTheRestingOrdersPrice() {
        book.limit(1, Side.BUY, 100, 10, reports);
        book.limit(2, Side.SELL, 95, 4, reports);

        assertEquals(List.of("trade 2 with 1 4@100"), reports.take());
    }

    @Test
    void partialFillKeepsTheRestingOrdersTimePriority() {
        book.limit(1, Side.BUY, 100, 10, reports);
        book.limit(2, Side.BUY, 100, 10, reports);
        book.limit(3, Side.SELL, 100, 4, reports);    // 1 partially filled, stays first
        book.limit(4, Side.SELL, 100, 8, reports);    // rest of 1 first, then 2

        assertEquals(List.of(
                "trade 3 with 1 4@100",
                "trade 4 with 1 6@100",
                "trade 4 with 2 2@100"), reports.take());
        assertEquals(List.of(new RestingOrder(2, Side.BUY, 100, 8)), book.snapshot());
        assertEquals(8, book.quantityAt(Side.BUY, 100));
    }

    @Test
    void aggressiveLimitOrderRestsItsUnfilledQuantity() {
        book.limit(1, Side.SELL, 100, 3, reports);
        book.limit(2, Side.BUY, 102, 10, reports);

        assertEquals(List.of("trade 2 with 1 3@100"), reports.take());
        assertEquals(102, book.bestBid());
        assertEquals(OrderBook.NO_PRICE, book.bestAsk());
        assertEquals(List.of(new RestingOrder(2, Side.BUY, 102, 7)), book.snapshot());
    }

    @Test
    void marketOrderSweepsLevelsAndCancelsWhatItCannotFill() {
        book.limit(1, Side.BUY, 100, 5, reports);
        book.limit(2, Side.BUY, 98, 5, reports);

        book.market(3, Side.SELL, 12, reports);

        assertEquals(List.of(
                "trade 3 with 1 5@100",
                "trade 3 with 2 5@98",
                "cancelled 3 2"), reports.take());
        assertEquals(0, book.restingOrders());
        assertEquals(OrderBook.NO_PRICE, book.bestBid());
    }

    @Test
    void marketOrderNeverRests() {
        book.market(1, Side.BUY, 10, reports);

        assertEquals(List.of("cancelled 1 10"), reports.take());
        assertEquals(0, book.restingOrders());
    }

    @Test
    void cancelRemovesTheOpenQuantityAndMovesTheTopOfBook() {
        book.limit(1, Side.SELL, 101, 10, reports);
        book.limit(2, Side.SELL, 103, 10, reports);
        book.limit(3, Side.BUY, 101, 4, reports);     // 1 has 6 left
        reports.take();

        book.cancel(1, reports);

        assertEquals(List.of("cancelled 1 6"), reports.take());
        assertEquals(103, book.bestAsk());
        assertEquals(0, book.quantityAt(Side.SELL, 101));
    }

    @Test
    void cancelInTheMiddleOfALevelKeepsTheOthersInOrder() {
        book.limit(1, Side.BUY, 100, 1, reports);
        book.limit(2, Side.BUY, 100, 2, reports);
        book.limit(3, Side.BUY, 100, 3, reports);

        book.cancel(2, reports);
        book.market(4, Side.SELL, 4, reports);

        assertEquals(List.of("cancelled 2 2", "trade 4 with 1 1@100", "trade 4 with 3 3@100"), reports.take());
    }

    @Test
    void cancelOfAFilledOrUnknownOrderIsRejected() {
        book.limit(1, Side.BUY, 100, 5, reports);
        book.market(2, Side.SELL, 5, reports);
        reports.take();

        book.cancel(1, reports);
        book.cancel(42, reports);

        assertEquals(List.of(
                "rejected 1 reason " + ExecutionListener.REJECT_UNKNOWN_ORDER,
                "rejected 42 reason " + ExecutionListener.REJECT_UNKNOWN_ORDER), reports.take());
    }

    @Test
    void badOrdersAreRejectedWithTheirReason() {
        book.limit(1, Side.BUY, 100, 5, reports);
        book.limit(1, Side.SELL, 200, 5, reports);      // id 1 is resting
        book.limit(2, Side.BUY, 0, 5, reports);
        book.limit(3, Side.BUY, 1_001, 5, reports);
        book.limit(4, Side.BUY, 100, 0, reports);
        book.market(5, Side.SELL, -1, reports);

        assertEquals(List.of(
                "rejected 1 reason " + ExecutionListener.REJECT_DUPLICATE_ID,
                "rejected 2 reason " + ExecutionListener.REJECT_BAD_PRICE,
                "rejected 3 reason " + ExecutionListener.REJECT_BAD_PRICE,
                "rejected 4 reason " + ExecutionListener.REJECT_BAD_QUANTITY,
                "rejected 5 reason " + ExecutionListener.REJECT_BAD_QUANTITY), reports.take());
        assertEquals(1, book.restingOrders());
    }

    @Test
    void fullBookRejectsTheRestButKeepsTheTrades() {
        final OrderBook small = new OrderBook(1_000, 2);
        small.limit(1, Side.SELL, 105, 1, reports);
        small.limit(2, Side.SELL, 106, 1, reports);
        small.limit(3, Side.BUY, 105, 3, reports);     // trades 1 with order 1, then rests 2 (room again)
        small.limit(4, Side.BUY, 100, 1, reports);     // book holds 2 and 3: full

        assertEquals(List.of(
                "trade 3 with 1 1@105",
                "rejected 4 reason " + ExecutionListener.REJECT_BOOK_FULL), reports.take());
        assertEquals(2, small.restingOrders());
    }

    @Test
    void constructorRejectsBadLimits() {
        final IllegalArgumentException price = assertThrows(IllegalArgumentException.class,
                () -> new OrderBook(0, 10));
        assertEquals("maxPrice must be between 1 and " + OrderBook.MAX_PRICE_LIMIT + ", got 0", price.getMessage());
        final IllegalArgumentException capacity = assertThrows(IllegalArgumentException.class,
                () -> new OrderBook(100, 0));
        assertEquals("capacity must be at least 1, got 0", capacity.getMessage());
    }

    @Test
    void agreesWithTheReferenceMatcherOnARandomStream() {
        final int maxPrice = 200;
        final int capacity = 300;      // small: the book-full path is exercised too
        final OrderBook fast = new OrderBook(maxPrice, capacity);
        final ReferenceMatcher slow = new ReferenceMatcher(maxPrice, capacity);
        final ExecutionDigest fastReports = new ExecutionDigest();
        final ExecutionDigest slowReports = new ExecutionDigest();
        final SplittableRandom random = new SplittableRandom(7);
        for (long id = 1; id <= 200_000; id++) {
            final Side side = random.nextBoolean() ? Side.BUY : Side.SELL;
            final int kind = random.nextInt(10);
            if (kind < 6) {
                final long price = random.nextInt(-2, maxPrice + 3);    // a few out of range
                final long quantity = random.nextInt(0, 50);            // a few zero
                fast.limit(id, side, price, quantity, fastReports);
                slow.limit(id, side, price, quantity, slowReports);
            } else if (kind < 7) {
                final long quantity = random.nextInt(1, 120);
                fast.market(id, side, quantity, fastReports);
                slow.market(id, side, quantity, slowReports);
            } else {
                final long target = Math.max(1, id - random.nextInt(1, 400));
                fast.cancel(target, fastReports);
                slow.cancel(target, slowReports);
            }
        }
        assertEquals(slowReports.toString(), fastReports.toString());
        assertEquals(slow.snapshot(), fast.snapshot());
        assertTrue(fastReports.trades() > 10_000, "the stream trades: " + fastReports);
        assertTrue(fastReports.rejects() > 100, "the stream hits every reject path: " + fastReports);
    }
}

package dev.slipstream.examples.orderbook;

import java.util.ArrayList;
import java.util.List;

/** Keeps every report as a short line, for assertions. */
final class RecordingListener implements ExecutionListener {
    final List<String> reports = new ArrayList<>();

    @Override
    public void onTrade(final long takerId, final long makerId, final Side takerSide, final long price,
                        final long quantity) {
        reports.add("trade " + takerId + " with " + makerId + " " + quantity + "@" + price);
    }

    @Override
    public void onCancelled(final long orderId, final long quantity) {
        reports.add("cancelled " + orderId + " " + quantity);
    }

    @Override
    public void onRejected(final long orderId, final int reason) {
        reports.add("rejected " + orderId + " reason " + reason);
    }

    List<String> take() {
        final List<String> copy = List.copyOf(reports);
        reports.clear();
        return copy;
    }
}

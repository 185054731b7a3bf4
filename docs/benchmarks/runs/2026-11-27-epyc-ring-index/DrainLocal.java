import dev.slipstream.bench.support.ValueEvent;
import java.util.*;

/**
 * A stage's per-event loop with no second thread: the calling thread fills a ring of 4,096
 * events (they stay in its caches), then runs the stage's processor itself; the handler of the
 * last event halts it. Rounds alternate three handler classes (stages A, B, C), so the call to
 * onEvent sees three classes, as in a pipeline. Prints the median over the second half of the
 * rounds, per handler class, in ns per event.
 *
 * javac -cp benchmarks.jar DrainLocal.java
 * java -Xms1g -Xmx1g -XX:+UseParallelGC -cp benchmarks.jar:. DrainLocal slip|lmax ROUNDS
 */
public class DrainLocal {
    static final int N = 4096;
    interface Halt { void halt(); }
    static abstract class SH implements dev.slipstream.processor.EventHandler<ValueEvent> {
        long t0, t1; long sum; Runnable halt;
        final void mark(long s) { if (s == 0) t0 = System.nanoTime(); else if (s == N - 1) { t1 = System.nanoTime(); halt.run(); } }
    }
    static final class SA extends SH { public void onEvent(ValueEvent e, long s, boolean end) { e.a = e.value * 31 + 7; mark(s);} }
    static final class SB extends SH { public void onEvent(ValueEvent e, long s, boolean end) { e.b = e.a ^ (e.a >>> 3); mark(s);} }
    static final class SC extends SH { public void onEvent(ValueEvent e, long s, boolean end) { sum += e.b; mark(s);} }
    static abstract class LH implements com.lmax.disruptor.EventHandler<ValueEvent> {
        long t0, t1; long sum; Runnable halt;
        final void mark(long s) { if (s == 0) t0 = System.nanoTime(); else if (s == N - 1) { t1 = System.nanoTime(); halt.run(); } }
    }
    static final class LA extends LH { public void onEvent(ValueEvent e, long s, boolean end) { e.a = e.value * 31 + 7; mark(s);} }
    static final class LB extends LH { public void onEvent(ValueEvent e, long s, boolean end) { e.b = e.a ^ (e.a >>> 3); mark(s);} }
    static final class LC extends LH { public void onEvent(ValueEvent e, long s, boolean end) { sum += e.b; mark(s);} }

    static double slip(int i) {
        var ring = dev.slipstream.ring.RingBuffer.createSingleProducer(ValueEvent::new, N, new dev.slipstream.wait.YieldingWaitStrategy());
        SH h = i % 3 == 0 ? new SA() : i % 3 == 1 ? new SB() : new SC();
        var p = new dev.slipstream.processor.BatchEventProcessor<>(ring, ring.newBarrier(), h);
        h.halt = p::halt;
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        p.run();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    static double lmax(int i) {
        var ring = com.lmax.disruptor.RingBuffer.createSingleProducer(ValueEvent::new, N, new com.lmax.disruptor.YieldingWaitStrategy());
        LH h = i % 3 == 0 ? new LA() : i % 3 == 1 ? new LB() : new LC();
        var p = new com.lmax.disruptor.BatchEventProcessorBuilder().build(ring, ring.newBarrier(), h);
        h.halt = p::halt;
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        p.run();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    public static void main(String[] args) {
        String side = args[0]; int rounds = Integer.parseInt(args[1]);
        List<Double>[] byType = new List[]{new ArrayList<>(), new ArrayList<>(), new ArrayList<>()};
        for (int i = 0; i < rounds; i++) {
            double ns = side.equals("lmax") ? lmax(i) : slip(i);
            if (i >= rounds / 2) byType[i % 3].add(ns);
        }
        StringBuilder sb = new StringBuilder("DRAINLOCAL side=" + side);
        for (int k = 0; k < 3; k++) { Collections.sort(byType[k]); sb.append(String.format(" %s=%.3f", "ABC".charAt(k), byType[k].get(byType[k].size() / 2))); }
        System.out.println(sb);
    }
}

import dev.slipstream.bench.support.ValueEvent;
import java.util.*;

/**
 * A stage's per-event cost alone: a ring of 65,536 events is filled before its one stage starts,
 * and the handler times events 0 to 65,535 (one batch). Rounds alternate three handler classes
 * (stages A, B, C), so the processor's call to onEvent sees three classes, as in a pipeline.
 * Sides: slip, lmax (handlers implementing both libraries' EventHandler, as the benchmark's
 * StageHandlers did) and slipOnly, lmaxOnly (handlers implementing one library's interface).
 * Prints the median over the second half of the rounds, per handler class, in ns per event.
 * Stage C adds to a field on the line of the flag the main thread polls, so only A and B compare.
 *
 * javac -cp benchmarks.jar Drain.java
 * java -Xms1g -Xmx1g -XX:+UseParallelGC -cp benchmarks.jar:. Drain slip|slipOnly|lmax|lmaxOnly 600
 */
public class Drain {
    static final int N = 65536;
    static abstract class H implements dev.slipstream.processor.EventHandler<ValueEvent>, com.lmax.disruptor.EventHandler<ValueEvent> {
        long t0, t1; volatile boolean done; long sum;
        public final void onStart() {} public final void onShutdown() {}
        public final void onBatchStart(long a, long b) {} public final void onTimeout(long s) {}
        final void mark(long s) { if (s == 0) t0 = System.nanoTime(); else if (s == N - 1) { t1 = System.nanoTime(); done = true; } }
    }
    static final class A extends H { public void onEvent(ValueEvent e, long s, boolean end) { e.a = e.value * 31 + 7; mark(s);} }
    static final class B extends H { public void onEvent(ValueEvent e, long s, boolean end) { e.b = e.a ^ (e.a >>> 3); mark(s);} }
    static final class C extends H { public void onEvent(ValueEvent e, long s, boolean end) { sum += e.b; mark(s);} }

    static abstract class SH implements dev.slipstream.processor.EventHandler<ValueEvent> {
        long t0, t1; volatile boolean done; long sum;
        final void mark(long s) { if (s == 0) t0 = System.nanoTime(); else if (s == N - 1) { t1 = System.nanoTime(); done = true; } }
    }
    static final class SA extends SH { public void onEvent(ValueEvent e, long s, boolean end) { e.a = e.value * 31 + 7; mark(s);} }
    static final class SB extends SH { public void onEvent(ValueEvent e, long s, boolean end) { e.b = e.a ^ (e.a >>> 3); mark(s);} }
    static final class SC extends SH { public void onEvent(ValueEvent e, long s, boolean end) { sum += e.b; mark(s);} }
    static abstract class LH implements com.lmax.disruptor.EventHandler<ValueEvent> {
        long t0, t1; volatile boolean done; long sum;
        final void mark(long s) { if (s == 0) t0 = System.nanoTime(); else if (s == N - 1) { t1 = System.nanoTime(); done = true; } }
    }
    static final class LA extends LH { public void onEvent(ValueEvent e, long s, boolean end) { e.a = e.value * 31 + 7; mark(s);} }
    static final class LB extends LH { public void onEvent(ValueEvent e, long s, boolean end) { e.b = e.a ^ (e.a >>> 3); mark(s);} }
    static final class LC extends LH { public void onEvent(ValueEvent e, long s, boolean end) { sum += e.b; mark(s);} }
    static double slipOnly(int i) throws Exception {
        var ring = dev.slipstream.ring.RingBuffer.createSingleProducer(ValueEvent::new, N, new dev.slipstream.wait.YieldingWaitStrategy());
        SH h = i % 3 == 0 ? new SA() : i % 3 == 1 ? new SB() : new SC();
        var p = new dev.slipstream.processor.BatchEventProcessor<>(ring, ring.newBarrier(), h);
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        Thread t = new Thread(p); t.start();
        while (!h.done) Thread.onSpinWait();
        p.halt(); t.join();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    static double lmaxOnly(int i) throws Exception {
        var ring = com.lmax.disruptor.RingBuffer.createSingleProducer(ValueEvent::new, N, new com.lmax.disruptor.YieldingWaitStrategy());
        LH h = i % 3 == 0 ? new LA() : i % 3 == 1 ? new LB() : new LC();
        var p = new com.lmax.disruptor.BatchEventProcessorBuilder().build(ring, ring.newBarrier(), h);
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        Thread t = new Thread(p); t.start();
        while (!h.done) Thread.onSpinWait();
        p.halt(); t.join();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    static H handler(int i) { return i % 3 == 0 ? new A() : i % 3 == 1 ? new B() : new C(); }

    static double slip(int i) throws Exception {
        var ring = dev.slipstream.ring.RingBuffer.createSingleProducer(ValueEvent::new, N, new dev.slipstream.wait.YieldingWaitStrategy());
        H h = handler(i);
        var p = new dev.slipstream.processor.BatchEventProcessor<>(ring, ring.newBarrier(), h);
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        Thread t = new Thread(p); t.start();
        while (!h.done) Thread.onSpinWait();
        p.halt(); t.join();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    static double lmax(int i) throws Exception {
        var ring = com.lmax.disruptor.RingBuffer.createSingleProducer(ValueEvent::new, N, new com.lmax.disruptor.YieldingWaitStrategy());
        H h = handler(i);
        var p = new com.lmax.disruptor.BatchEventProcessorBuilder().build(ring, ring.newBarrier(), h);
        ring.addGatingSequences(p.getSequence());
        for (long v = 0; v < N; v++) { long s = ring.next(); ValueEvent e = ring.get(s); e.value = v; e.a = v; ring.publish(s); }
        Thread t = new Thread(p); t.start();
        while (!h.done) Thread.onSpinWait();
        p.halt(); t.join();
        return (h.t1 - h.t0) / (double) (N - 1);
    }
    public static void main(String[] args) throws Exception {
        String side = args[0]; int rounds = Integer.parseInt(args[1]);
        List<Double>[] byType = new List[]{new ArrayList<>(), new ArrayList<>(), new ArrayList<>()};
        for (int i = 0; i < rounds; i++) {
            double ns = side.equals("lmax") ? lmax(i) : side.equals("slip") ? slip(i) : side.equals("slipOnly") ? slipOnly(i) : lmaxOnly(i);
            if (i >= rounds / 2) byType[i % 3].add(ns);
        }
        StringBuilder sb = new StringBuilder("DRAIN side=" + side);
        for (int k = 0; k < 3; k++) { Collections.sort(byType[k]); sb.append(String.format(" %s=%.3f", "ABC".charAt(k), byType[k].get(byType[k].size() / 2))); }
        System.out.println(sb);
    }
}

package dev.slipstream.bench.ring;

import dev.slipstream.bench.support.Threads;

import java.util.ArrayList;
import java.util.List;

/**
 * The batch event processors of one rig or topology and the daemon threads that run them,
 * started together and halted together.
 *
 * <pre>{@code
 * ProcessorThreads<P> stages = new ProcessorThreads<>(lib);
 * P last = stages.add(lib.processor(ring, barrier, handler));
 * stages.start("unicast");              // threads lmax-unicast-0, ...
 * stages.stop();
 * }</pre>
 *
 * @param <P> the library's processor type
 */
public final class ProcessorThreads<P extends Runnable> {
    private final RingLibrary<?, ?, ?, ?, P> lib;
    private final List<P> processors = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    /** @param lib the library of the processors, which also names their threads */
    public ProcessorThreads(final RingLibrary<?, ?, ?, ?, P> lib) {
        this.lib = lib;
    }

    /** @return {@code processor}, now one of those {@link #start} runs */
    public P add(final P processor) {
        processors.add(processor);
        return processor;
    }

    /** Starts one daemon thread per processor, named {@code <library>-<name>-<index>}. */
    public void start(final String name) {
        for (int i = 0; i < processors.size(); i++) {
            Threads.startDaemon(threads, processors.get(i), lib.name() + "-" + name + "-" + i);
        }
    }

    /** @return the threads started so far */
    public Thread[] threads() {
        return threads.toArray(new Thread[0]);
    }

    /** Halts every processor and joins the threads (see {@link Threads#joinAll}). */
    public void stop() {
        for (P p : processors) {
            lib.halt(p);
        }
        Threads.joinAll(threads());
    }
}

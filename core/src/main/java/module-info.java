/**
 * Slipstream: low-latency event passing between threads.
 *
 * <ul>
 *   <li>{@code dev.slipstream.sequence}: sequences, sequencers and barriers (who may read or write which slot).</li>
 *   <li>{@code dev.slipstream.wait}: how consumers and producers wait.</li>
 *   <li>{@code dev.slipstream.ring}: the preallocated ring buffer, translators and the pull-style poller.</li>
 *   <li>{@code dev.slipstream.agent}: the runner that owns a thread's loop, its lifecycle, error policy and idling.</li>
 *   <li>{@code dev.slipstream.processor}: event handlers and the batch event processor that runs them.</li>
 *   <li>{@code dev.slipstream.topology}: the DSL that wires stages, work pools and their lifecycle; the unbounded ingress in front of a ring.</li>
 *   <li>{@code dev.slipstream.monitor}: allocation-free stage metrics and JFR events.</li>
 *   <li>{@code dev.slipstream.queue}: the LPRQ and SCQ/LSCQ lock-free MPMC queues (they use only {@code sequence} and {@code wait}).</li>
 * </ul>
 */
module dev.slipstream {
    // JFR events cost nothing while no recording runs. Static: a runtime image without jdk.jfr
    // (jlink) still runs pipelines, and JfrMonitoring then skips JFR. On the module path the JDK
    // resolves jdk.jfr only if the application asks for it (--add-modules jdk.jfr, or a module of
    // its own that requires it); on the class path it is always there.
    requires static jdk.jfr;

    exports dev.slipstream.sequence;
    exports dev.slipstream.wait;
    exports dev.slipstream.ring;
    exports dev.slipstream.agent;
    exports dev.slipstream.processor;
    exports dev.slipstream.topology;
    exports dev.slipstream.monitor;
    exports dev.slipstream.queue;
}

package dev.slipstream.cluster;

import org.agrona.concurrent.AgentTerminationException;

/**
 * A clustered service that hands every callback to a {@link PipelineClusteredService} until
 * {@link #fail} is called; the service thread's next duty cycle then throws what it was given
 * there: an {@code Error} (the agent's thread dies with it; the rest of the member runs on), or an
 * {@link AgentTerminationException}, as the pipeline service throws when a stage failed (the
 * agent closes, and its consensus module, seeing the service gone, shuts down and frees its
 * counters). No client is needed to stop the member.
 *
 * <pre>{@code
 * StoppingService service = new StoppingService(TestPipelines.service(Ledger::new, new AtomicReference<>()));
 * ClusterMember member = ClusterMember.start(config, service);
 * service.fail(new AssertionError(StoppingService.MESSAGE));   // the member stops within a duty cycle
 * }</pre>
 */
final class StoppingService extends DelegatingService {
    /** The message of what the service thread throws. */
    static final String MESSAGE = "boom";
    private volatile RuntimeException termination;
    private volatile Error error;

    StoppingService(final PipelineClusteredService<Amount> service) {
        super(service);
    }

    /**
     * Makes the service thread throw {@code failure} at its next duty cycle.
     *
     * @param failure an {@link Error} or an {@link AgentTerminationException}
     */
    void fail(final Throwable failure) {
        if (failure instanceof Error thrown) {
            error = thrown;
        } else {
            termination = (AgentTerminationException) failure;
        }
    }

    @Override
    public int doBackgroundWork(final long nowNs) {
        if (error != null) {
            throw error;
        }
        if (termination != null) {
            throw termination;
        }
        return service.doBackgroundWork(nowNs);
    }
}

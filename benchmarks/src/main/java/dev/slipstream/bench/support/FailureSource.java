package dev.slipstream.bench.support;

/**
 * Where a waiting benchmark thread learns that another thread of the topology died.
 *
 * <pre>{@code
 * sink.await(target, "sequencer", () -> crewFailure);
 * }</pre>
 */
@FunctionalInterface
public interface FailureSource {
    /** The first failure of a helper thread. */
    Throwable failure();
}

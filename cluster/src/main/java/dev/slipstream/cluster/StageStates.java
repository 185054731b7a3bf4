package dev.slipstream.cluster;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The stateful stages of a clustered pipeline, by name, in the order they were registered: the
 * order of their sections in a snapshot. A snapshot is loaded only into a pipeline that
 * registers the same names in the same order. A state is either a {@link StageState} (copied
 * whole into a buffer, then sent) or a {@link StreamingStageState} (streamed into the snapshot):
 * both kinds mix in one pipeline, and the snapshot's bytes do not say which wrote them.
 *
 * <pre>{@code
 * states.registerStreaming("book", book);    // a StreamingStageState
 * states.register("risk", risk);             // a StageState
 * }</pre>
 */
public final class StageStates {
    private final List<String> names = new ArrayList<>();
    /** Each a {@link StageState} or a {@link StreamingStageState}. */
    private final List<Object> states = new ArrayList<>();

    StageStates() {
    }

    /**
     * Registers a stage's state.
     *
     * @param name the section's name in snapshots, unique in this pipeline
     * @param state how the state is written and read
     * @throws IllegalArgumentException if the name is blank or taken
     * @throws NullPointerException if an argument is null
     */
    public void register(final String name, final StageState state) {
        Objects.requireNonNull(state, "state must not be null");
        add(name, state);
    }

    /**
     * Registers a stage's state, streamed into snapshots and out of them. (A name of its own, not
     * an overload of {@link #register}: a class that implements both interfaces, say while it
     * moves from one to the other, is registered without a cast.)
     *
     * @param name the section's name in snapshots, unique in this pipeline
     * @param state how the state is written and read
     * @throws IllegalArgumentException if the name is blank or taken
     * @throws NullPointerException if an argument is null
     */
    public void registerStreaming(final String name, final StreamingStageState state) {
        Objects.requireNonNull(state, "state must not be null");
        add(name, state);
    }

    private void add(final String name, final Object state) {
        Objects.requireNonNull(name, "name must not be null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a stage state needs a non-blank name");
        }
        if (names.contains(name)) {
            throw new IllegalArgumentException("stage state name '" + name + "' is registered already; names "
                    + "must be unique in one pipeline (registered: " + names + ")");
        }
        names.add(name);
        states.add(state);
    }

    /** @return the registered names, in order */
    public List<String> names() {
        return Collections.unmodifiableList(names);
    }

    int size() {
        return states.size();
    }

    String name(final int index) {
        return names.get(index);
    }

    /** @return the state registered {@code index}-th: a {@link StageState} or a {@link StreamingStageState} */
    Object state(final int index) {
        return states.get(index);
    }
}

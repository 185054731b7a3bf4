package dev.slipstream.topology;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A snapshot of a pipeline's graph (ring, stages, edges), renderable as Mermaid or Graphviz DOT.
 *
 * <pre>{@code
 * TopologyDescription graph = pipeline.describe();
 * System.out.println(graph.stageNames());   // [decode, journal, replicate, match]
 * System.out.println(graph.toMermaid());    // paste into a Markdown page
 * }</pre>
 */
public final class TopologyDescription {
    /**
     * One stage.
     *
     * @param name the stage's name
     * @param workerPool whether it is a work pool
     * @param workers its thread count
     */
    public record StageInfo(String name, boolean workerPool, int workers) {
        /**
         * Validates the record.
         *
         * @param name the stage's name
         * @param workerPool whether it is a work pool
         * @param workers its thread count
         */
        public StageInfo {
            Objects.requireNonNull(name, "name must not be null");
        }
    }

    /**
     * A dependency: {@code to} reads an event only after {@code from} has finished it. The ring
     * itself appears as {@link #ringNodeName()}.
     *
     * @param from the upstream node
     * @param to the downstream stage
     */
    public record Edge(String from, String to) {
        /**
         * Validates the record.
         *
         * @param from the upstream node
         * @param to the downstream stage
         */
        public Edge {
            Objects.requireNonNull(from, "from must not be null");
            Objects.requireNonNull(to, "to must not be null");
        }
    }

    private final String pipelineName;
    private final String ringNode;
    private final int bufferSize;
    private final String producerType;
    private final List<StageInfo> stages;
    private final List<Edge> edges;

    TopologyDescription(final String pipelineName, final int bufferSize, final String producerType,
                        final List<StageInfo> stages, final List<Edge> edges) {
        this.pipelineName = pipelineName;
        this.ringNode = pipelineName + ".ring";
        this.bufferSize = bufferSize;
        this.producerType = producerType;
        this.stages = List.copyOf(stages);
        this.edges = List.copyOf(edges);
    }

    /**
     * The pipeline's name.
     *
     * @return the name
     */
    public String pipelineName() {
        return pipelineName;
    }

    /**
     * The name under which the ring appears as the source of edges.
     *
     * @return {@code <pipeline>.ring}
     */
    public String ringNodeName() {
        return ringNode;
    }

    /**
     * The stages, upstream before downstream (in the order they were added).
     *
     * @return the stages
     */
    public List<StageInfo> stages() {
        return stages;
    }

    /**
     * The stage names, in {@link #stages()} order.
     *
     * @return the names
     */
    public List<String> stageNames() {
        return stages.stream().map(StageInfo::name).collect(Collectors.toList());
    }

    /**
     * The dependencies, from the ring or a stage to each stage that follows it.
     *
     * @return the edges
     */
    public List<Edge> edges() {
        return edges;
    }

    /**
     * A Mermaid flowchart (left to right) of the graph.
     *
     * @return Mermaid source
     */
    public String toMermaid() {
        return render("flowchart LR\n", "%s[(\"%s\")]\n", "%s[\"%s\"]\n", "%s[[\"%s\"]]\n", "%s --> %s\n", "");
    }

    /**
     * A Graphviz DOT digraph (left to right) of the graph.
     *
     * @return DOT source
     */
    public String toDot() {
        return render("digraph \"" + escape(pipelineName) + "\" {\n    rankdir=LR;\n",
                "%s [shape=cylinder, label=\"%s\"];\n", "%s [shape=box, label=\"%s\"];\n",
                "%s [shape=box3d, label=\"%s\"];\n", "%s -> %s;\n", "}\n");
    }

    /** One line per node and per edge, each from its format with the ids and escaped labels. */
    private String render(final String header, final String ring, final String stage, final String pool,
                          final String edge, final String footer) {
        final Map<String, String> ids = ids();
        final StringBuilder sb = new StringBuilder(header);
        sb.append("    ").append(String.format(ring, ids.get(ringNode), escape(ringLabel())));
        for (final StageInfo info : stages) {
            sb.append("    ").append(String.format(info.workerPool() ? pool : stage, ids.get(info.name()),
                    escape(stageLabel(info))));
        }
        edges.forEach(e -> sb.append("    ").append(String.format(edge, ids.get(e.from()), ids.get(e.to()))));
        return sb.append(footer).toString();
    }

    private Map<String, String> ids() {
        final Map<String, String> ids = new HashMap<>();
        ids.put(ringNode, "ring");
        for (int i = 0; i < stages.size(); i++) {
            ids.put(stages.get(i).name(), "s" + i);
        }
        return ids;
    }

    private String ringLabel() {
        return pipelineName + " ring (" + bufferSize + ", " + producerType + ")";
    }

    private static String stageLabel(final StageInfo stage) {
        return stage.workerPool() ? stage.name() + " x" + stage.workers() : stage.name();
    }

    private static String escape(final String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    @Override
    public String toString() {
        return edges.stream().map(edge -> edge.from() + " -> " + edge.to())
                .collect(Collectors.joining(", ", pipelineName + ": ", ""));
    }
}

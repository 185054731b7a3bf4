#!/usr/bin/env bash
# CI smoke run of the benchmark suite: checks that every benchmark still runs, not how fast.
#
#   benchmarks/smoke.sh            (after: mvn -B -o -pl benchmarks -am package -DskipTests)
#
# 1. Every JMH benchmark in benchmarks.jar runs once: one fork, no warm-up, one 200 ms iteration,
#    one wait strategy (-p wait=yielding), failing on the first error (-foe true), so a checksum
#    mismatch (thrown inside a benchmark) fails the script. The one-queue shapes
#    (QueueShapesOneThread, QueueShapesTwoThreads) run every queue in `pair` only and the
#    default queue (LprqQueue) in their other shapes: each shape's code is the same for every
#    queue, and each queue's set-up is the same for every shape, so the 70 JVMs of the other
#    pairs would check nothing more.
# 2. The JSON results must hold at least one result for every benchmark that `-l` lists.
# 3. One tiny latency run per implementation (one-way pipeline and ping-pong) must exit 0 and
#    write its percentile line and .hlog file.
# 4. One tiny run of the Aeron bridge benchmark per implementation (raw, bridge), mode
#    (throughput, latency) and channel (IPC, UDP loopback) must exit 0.
# 5. One tiny continuous-stream run (ContinuousThroughput) per topology and implementation must
#    exit 0 and print its RESULT line (a checksum mismatch throws).
# 6. The core-to-core probe (CoreToCoreProbe) must print its PROBE line, and refuse a count of 0.
# 7. The article's workloads (ArticleWorkloads): every workload for two queues in one JVM, one
#    named workload alone, an unknown workload refused by name; queue-article.sh for one round
#    of one workload with a second build beside a queue (LABEL=JAR:QUEUE) must write the summary
#    with that side's ratios; thread-times.sh must print the producer's THREAD line.
#
# Environment: JAVA (default: java on PATH), SMOKE_JMH_ARGS (extra JMH arguments),
# SMOKE_OUT (keep the output there instead of a temporary directory).
set -euo pipefail

cd "$(dirname "$0")/.."
JAR=benchmarks/target/benchmarks.jar
JAVA=${JAVA:-java}
if [[ ! -f "$JAR" ]]; then
    echo "smoke: $JAR is missing; build it with: mvn -B -o -pl benchmarks -am package -DskipTests" >&2
    exit 1
fi
if [[ -n "${SMOKE_OUT:-}" ]]; then
    OUT=$SMOKE_OUT
    mkdir -p "$OUT"
else
    OUT=$(mktemp -d)
    trap 'rm -rf "$OUT"' EXIT
fi
start=$SECONDS

"$JAVA" -Djmh.ignoreLock=true -jar "$JAR" -l | grep '^dev\.slipstream\.bench\.' | sort -u > "$OUT/expected.txt"
count=$(wc -l < "$OUT/expected.txt")
if [[ "$count" -eq 0 ]]; then
    echo "smoke: FAILED: benchmarks.jar lists no benchmark (annotation processor not run?)" >&2
    exit 1
fi
echo "smoke: running $count JMH benchmarks once each"

# The smoke run measures nothing, so it does not wait for JMH's machine-wide lock (another
# benchmark may be running on a shared CI machine).
jmh_once() {   # name (of the JSON and log files), then more JMH arguments
    local name=$1
    shift
    # shellcheck disable=SC2086
    if ! "$JAVA" -Djmh.ignoreLock=true -jar "$JAR" -f 1 -wi 0 -i 1 -r 200ms -foe true -p wait=yielding \
            -jvmArgsAppend "-Xms256m -Xmx256m -Dbench.timeoutSeconds=60" \
            -rf json -rff "$OUT/$name.json" ${SMOKE_JMH_ARGS:-} "$@" > "$OUT/$name.log" 2>&1; then
        grep -E 'checksum mismatch|Exception|Error' "$OUT/$name.log" | head -20 >&2 || true
        echo "smoke: FAILED: a JMH benchmark failed (log: $OUT/$name.log)" >&2
        [[ -n "${SMOKE_OUT:-}" ]] || tail -40 "$OUT/$name.log" >&2
        exit 1
    fi
}
other_shapes='dev\.slipstream\.bench\.queue\.QueueShapes(OneThread|TwoThreads)\.(dequeueOnlyEmpty|enqueueOnly|mixed[0-9]+)$'
jmh_once jmh 'dev\.slipstream\.bench\.' -e "$other_shapes"
jmh_once jmh-shapes "$other_shapes" -p impl=LprqQueue

cat "$OUT/jmh.json" "$OUT/jmh-shapes.json" | grep -o '"benchmark" : "[^"]*"' | sed 's/.*: "\(.*\)"/\1/' | sort -u > "$OUT/ran.txt"
missing=$(comm -23 "$OUT/expected.txt" "$OUT/ran.txt")
if [[ -n "$missing" ]]; then
    echo "smoke: FAILED: no result for:" >&2
    echo "$missing" | sed 's/^/  /' >&2
    exit 1
fi
echo "smoke: all $count JMH benchmarks produced a result ($((SECONDS - start)) s)"

for impl in slipstream lmax abq; do
    for mode in oneway pingpong; do
        if ! "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.latency.LatencyMain --mode "$mode" --impl "$impl" \
                --wait blocking --topology pipeline --rates 10000 --warmup-ms 200 --measure-ms 300 \
                --out "$OUT/latency" >> "$OUT/latency.log" 2>&1; then
            cat "$OUT/latency.log" >&2
            echo "smoke: FAILED: latency run $mode $impl" >&2
            exit 1
        fi
    done
done
lines=$(grep -c -v '^mode' "$OUT/latency/latency.tsv" || true)
hlogs=$(find "$OUT/latency/hlog" -name '*.hlog' | wc -l)
if [[ "$lines" -ne 6 || "$hlogs" -ne 6 ]]; then
    echo "smoke: FAILED: expected 6 latency results and 6 .hlog files, got $lines and $hlogs" >&2
    exit 1
fi
cat "$OUT/latency.log"

# The Aeron bridge against raw Aeron, over IPC and UDP loopback: each mode once, tiny, yielding
# (exit 3 on a lost message).
for channel in ipc udp; do
    for impl in raw bridge; do
        for mode in throughput latency; do
            if ! "$JAVA" -Xmx256m --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp "$JAR" \
                    dev.slipstream.bench.aeron.AeronBridgeBench --mode "$mode" --impl "$impl" --wait yield \
                    --channel "$channel" --messages 20000 --rate 20000 --ring 1024 --term 65536 \
                    >> "$OUT/aeron.log" 2>&1; then
                cat "$OUT/aeron.log" >&2
                echo "smoke: FAILED: Aeron bridge run $mode $impl $channel" >&2
                exit 1
            fi
        done
    done
done
cat "$OUT/aeron.log"
# The continuous stream: every topology, every implementation, a tiny pass (checksums checked).
continuous=0
for shape in unicast pipeline sequencer multicast diamond; do
    for impl in dsl slipstream lmax abq; do
        if ! "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.throughput.ContinuousThroughput "$shape" "$impl" yielding \
                -events 30000 -warmups 1 -passes 1 -ringSize 1024 > "$OUT/continuous.log" 2>&1 \
                || ! grep -q '^RESULT' "$OUT/continuous.log"; then
            cat "$OUT/continuous.log" >&2
            echo "smoke: FAILED: continuous run $shape $impl" >&2
            exit 1
        fi
        continuous=$((continuous + 1))
    done
done
echo "smoke: $continuous continuous-stream runs"
article=0
for queue in LprqQueue ConcurrentLinkedQueue; do
    if ! "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.queue.ArticleWorkloads "$queue" 1,2 2000 1 1 \
            > "$OUT/article.log" 2>&1 || [[ $(grep -c '^RESULT' "$OUT/article.log") -ne 12 ]]; then
        cat "$OUT/article.log" >&2
        echo "smoke: FAILED: article workloads $queue" >&2
        exit 1
    fi
    article=$((article + 1))
done
if ! "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.queue.ArticleWorkloads LprqQueue 2 2000 1 1 Pair > "$OUT/article.log" 2>&1 \
        || [[ $(grep -c '^RESULT' "$OUT/article.log") -ne 1 ]] || ! grep -q '^RESULT queue=LprqQueue workload=Pair threads=2 ' "$OUT/article.log"; then
    cat "$OUT/article.log" >&2
    echo "smoke: FAILED: article workloads, one named workload" >&2
    exit 1
fi
if "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.queue.ArticleWorkloads LprqQueue 2 2000 1 1 Pairs > "$OUT/article.log" 2>&1 \
        || ! grep -q 'unknown workload Pairs; expected all or some of' "$OUT/article.log"; then
    cat "$OUT/article.log" >&2
    echo "smoke: FAILED: article workloads accepted an unknown workload" >&2
    exit 1
fi
if ! JAR="$JAR" QUEUES="LprqQueue again=$JAR:LprqQueue" WORKLOADS=Pair WARMUPS=0 RUNS=1 \
        bash benchmarks/scripts/queue-article.sh "$OUT/queue-article" 1 2000 2 > "$OUT/queue-article.log" 2>&1 \
        || ! grep -q '^### again vs LprqQueue' "$OUT/queue-article/summary.md" \
        || ! grep -q '^| Pair | [0-9.]* \[' "$OUT/queue-article/summary.md"; then
    cat "$OUT/queue-article.log" >&2
    echo "smoke: FAILED: queue-article.sh with a second build" >&2
    exit 1
fi
if ! bash benchmarks/scripts/thread-times.sh "$JAVA" -Xmx256m -cp "$JAR" dev.slipstream.bench.throughput.ContinuousThroughput \
        unicast dsl yielding -events 60000000 -warmups 0 -passes 1 > "$OUT/thread-times.log" 2>&1 \
        || ! grep -q '^RESULT' "$OUT/thread-times.log" || ! grep -q '^THREAD [0-9]* java [0-9.]* ' "$OUT/thread-times.log"; then
    cat "$OUT/thread-times.log" >&2
    echo "smoke: FAILED: thread-times.sh" >&2
    exit 1
fi
# pool-rounds.py on a kept continuous.sh output (a file of three sides, two of them paired here)
pooled=docs/benchmarks/runs/2026-11-29-redesign-same-layouts/blocking-three-jars-16.txt
if ! python3 benchmarks/scripts/pool-rounds.py 'unicast blocking' old=old new=head "$pooled" > "$OUT/pool.log" 2>&1 \
        || ! grep -q '^unicast blocking: 16 rounds from 1 files$' "$OUT/pool.log" \
        || ! grep -q '^  new/old: median of per-round ratios [0-9.]* (95% bootstrap interval [0-9.]*-[0-9.]*)' "$OUT/pool.log"; then
    cat "$OUT/pool.log" >&2
    echo "smoke: FAILED: pool-rounds.py" >&2
    exit 1
fi
if python3 benchmarks/scripts/pool-rounds.py 'unicast blocking' old=old new=nosuchside "$pooled" > "$OUT/pool.log" 2>&1 \
        || ! grep -q "no round of 'unicast blocking' has both old=old and new=nosuchside" "$OUT/pool.log"; then
    cat "$OUT/pool.log" >&2
    echo "smoke: FAILED: pool-rounds.py accepted a side that no round has" >&2
    exit 1
fi
if ! "$JAVA" -cp "$JAR" dev.slipstream.bench.throughput.CoreToCoreProbe 1000 3 > "$OUT/probe.log" 2>&1 \
        || ! grep -q '^PROBE rtt_ns=[0-9.]* samples=[0-9.]*,[0-9.]*,[0-9.]*$' "$OUT/probe.log"; then
    cat "$OUT/probe.log" >&2
    echo "smoke: FAILED: core-to-core probe" >&2
    exit 1
fi
if "$JAVA" -cp "$JAR" dev.slipstream.bench.throughput.CoreToCoreProbe 0 3 > "$OUT/probe.log" 2>&1 \
        || ! grep -q 'round trips and samples must be >= 1, got 0 and 3' "$OUT/probe.log"; then
    cat "$OUT/probe.log" >&2
    echo "smoke: FAILED: core-to-core probe accepted a count of 0" >&2
    exit 1
fi
echo "smoke: OK ($count JMH benchmarks, 6 latency runs, 8 Aeron bridge runs, $continuous continuous runs, $article article-workload runs, a queue-article.sh, a thread-times.sh and a pool-rounds.py run, 1 probe run, $((SECONDS - start)) s)"

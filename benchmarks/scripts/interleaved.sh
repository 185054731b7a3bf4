#!/usr/bin/env bash
# Side-by-side throughput of several benchmark jars (or several implementations), one JMH fork
# per JVM, interleaved A B C A B C ..., so that a slow or fast phase of the machine hits every
# side alike. Prints a line per round (how long it has run, about how long is left), then the
# median score per side and, for every pair of sides, the median and range of the per-round ratios.
#
# Usage: benchmarks/scripts/interleaved.sh ROUNDS BENCHMARK WAIT SIDE...
#   WAIT is the wait-strategy parameter, or - for a benchmark without one
#   SIDE is LABEL=JAR:IMPL[:JVMARG], e.g. new=benchmarks/target/benchmarks.jar:slipstream
#   or parked=benchmarks/target/benchmarks.jar:slipstream:-Dbench.producerWait=park1
#   (several JVM arguments: separate them with colons, -Da=1:-Db=2)
#   IMPL may carry further JMH parameters after commas: ScqQueue,remap=false,order=8
#   env JMH_OPTS: extra JMH options (default "-wi 3 -w 1s -i 3 -r 1s")
#   env METRIC: compare this secondary metric (e.g. polled, a queue benchmark's consumer counter)
#               instead of the primary score
#   env SPLIT:  also split every measurement iteration at this score into a slow and a fast mode
#               and compare the sides within each mode (for benchmarks whose iterations jump
#               between two levels while the machine moves its virtual CPUs; see
#               docs/benchmarks/history/speed-study.md)
#   env KEEP:   copy the raw JMH outputs (JSON and logs) into this directory
# Example:
#   benchmarks/scripts/interleaved.sh 7 UnicastThroughput yielding \
#       new=benchmarks/target/benchmarks.jar:slipstream lmax=benchmarks/target/benchmarks.jar:lmax
set -euo pipefail
rounds=$1; bench=$2; wait=$3; shift 3
sides=("$@")
out=$(mktemp -d)
# every side of a round runs from a jar path of the same length (see layout.sh)
. "$(dirname "$0")/layout.sh"
LAYOUT_DIR=$out/jars
. "$(dirname "$0")/progress.sh"
opts=${JMH_OPTS:-"-wi 3 -w 1s -i 3 -r 1s"}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  java: $(java -version 2>&1 | head -1)"
began=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    echo "round $r/$rounds: $(progress_left "$began" $((r - 1)) "$rounds"), load $(cut -d' ' -f1 /proc/loadavg)"
    index=0
    for side in "${sides[@]}"; do
        label=${side%%=*}; rest=${side#*=}; jar=${rest%%:*}; rest=${rest#*:}
        jar=$(layout_jar "$r" "$index" "$jar"); index=$((index + 1))
        impl=${rest%%:*}; params=""
        if [[ $impl == *,* ]]; then
            for p in $(tr ',' ' ' <<< "${impl#*,}"); do params="$params -p $p"; done
            impl=${impl%%,*}
        fi
        jvmargs=()
        [[ $rest == *:* ]] && jvmargs=(-jvmArgsAppend "$(tr ':' ' ' <<< "${rest#*:}")")
        # shellcheck disable=SC2086
        waitparam=""
        [[ $wait != "-" ]] && waitparam="-p wait=$wait"
        java -jar "$jar" "$bench" -p impl="$impl" $params $waitparam -f 1 $opts "${jvmargs[@]}" \
            -rf json -rff "$out/$label-$r.json" > "$out/$label-$r.log" 2>&1 \
            || { echo "FAILED: $label round $r (see $out/$label-$r.log)"; exit 1; }
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$LAYOUT_DIR"
[[ -n ${KEEP:-} ]] && mkdir -p "$KEEP" && cp "$out"/* "$KEEP"/
METRIC=${METRIC:-} SPLIT=${SPLIT:-} python3 - "$out" "$rounds" "${sides[@]}" <<'PY'
import json, os, statistics, sys
out, rounds, sides = sys.argv[1], int(sys.argv[2]), [s.split('=')[0] for s in sys.argv[3:]]
metric = os.environ.get("METRIC")
def pick(result):
    return result["secondaryMetrics"][metric] if metric else result["primaryMetric"]
unit = pick(json.load(open(f"{out}/{sides[0]}-1.json"))[0])["scoreUnit"]
score = {s: [pick(json.load(open(f"{out}/{s}-{r}.json"))[0])["score"] for r in range(1, rounds + 1)] for s in sides}
for s in sides:
    print(f"{s:>12}: median {statistics.median(score[s]):12.4g} {unit}  forks " + " ".join(f"{v:.4g}" for v in score[s]))
for i, a in enumerate(sides):
    for b in sides[i + 1:]:
        ratios = [x / y for x, y in zip(score[b], score[a])]
        print(f"{b + '/' + a:>24}: median {statistics.median(ratios):.2f}  range {min(ratios):.2f}-{max(ratios):.2f}")
split = os.environ.get("SPLIT")
if split:
    # every measurement iteration of every fork, each put in the mode its score falls in
    limit = float(split)
    iters = {s: [v for r in range(1, rounds + 1)
                 for fork in pick(json.load(open(f"{out}/{s}-{r}.json"))[0])["rawData"] for v in fork]
             for s in sides}
    print(f"modes split at {limit:g} {unit}:")
    mode = {}
    for s in sides:
        slow = [v for v in iters[s] if v < limit]
        fast = [v for v in iters[s] if v >= limit]
        mode[s] = (slow, fast)
        line = f"{s:>12}: slow {len(slow):3d} iterations"
        line += f", median {statistics.median(slow):10.4g}" if slow else ", median          -"
        line += f"   fast {len(fast):3d} iterations"
        line += f", median {statistics.median(fast):10.4g}" if fast else ", median          -"
        print(line)
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            parts = []
            for k, name in ((0, "slow"), (1, "fast")):
                if mode[a][k] and mode[b][k]:
                    parts.append(f"{name} {statistics.median(mode[b][k]) / statistics.median(mode[a][k]):.2f}")
            print(f"{b + '/' + a:>24}: within-mode ratio of medians: " + (", ".join(parts) or "no common mode"))
PY

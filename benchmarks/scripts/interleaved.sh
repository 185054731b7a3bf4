#!/usr/bin/env bash
# Side-by-side throughput of several benchmark jars (or several implementations), one JMH fork
# per JVM, interleaved A B C A B C ..., so that a slow or fast phase of the machine hits every
# side alike. Prints the median score per side and, for every pair of sides, the median and range
# of the per-round ratios.
#
# Usage: benchmarks/scripts/interleaved.sh ROUNDS BENCHMARK WAIT SIDE...
#   WAIT is the wait-strategy parameter, or - for a benchmark without one
#   SIDE is LABEL=JAR:IMPL[:JVMARG], e.g. new=benchmarks/target/benchmarks.jar:slipstream
#   or parked=benchmarks/target/benchmarks.jar:slipstream:-Dbench.producerWait=park1
#   env JMH_OPTS: extra JMH options (default "-wi 3 -w 1s -i 3 -r 1s")
#   env METRIC: compare this secondary metric (e.g. polled, a queue benchmark's consumer counter)
#               instead of the primary score
# Example:
#   benchmarks/scripts/interleaved.sh 7 UnicastThroughput yielding \
#       new=benchmarks/target/benchmarks.jar:slipstream lmax=benchmarks/target/benchmarks.jar:lmax
set -euo pipefail
rounds=$1; bench=$2; wait=$3; shift 3
sides=("$@")
out=$(mktemp -d)
opts=${JMH_OPTS:-"-wi 3 -w 1s -i 3 -r 1s"}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  java: $(java -version 2>&1 | head -1)"
for ((r = 1; r <= rounds; r++)); do
    for side in "${sides[@]}"; do
        label=${side%%=*}; rest=${side#*=}; jar=${rest%%:*}; rest=${rest#*:}
        impl=${rest%%:*}; jvmarg=""
        [[ $rest == *:* ]] && jvmarg="-jvmArgsAppend ${rest#*:}"
        # shellcheck disable=SC2086
        waitparam=""
        [[ $wait != "-" ]] && waitparam="-p wait=$wait"
        java -jar "$jar" "$bench" -p impl="$impl" $waitparam -f 1 $opts $jvmarg \
            -rf json -rff "$out/$label-$r.json" > "$out/$label-$r.log" 2>&1 \
            || { echo "FAILED: $label round $r (see $out/$label-$r.log)"; exit 1; }
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
METRIC=${METRIC:-} python3 - "$out" "$rounds" "${sides[@]}" <<'PY'
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
PY

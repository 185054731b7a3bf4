#!/usr/bin/env bash
# Side-by-side one-way latency and consumer CPU of several wait strategies (or implementations),
# one JVM per side per round, interleaved A B C A B C ..., so that a slow or fast phase of the
# machine hits every side alike. Prints a line per round (how long it has run, about how long is
# left), then, for every rate, each side's median p50, p90 and consumer CPU per event over the
# rounds and, for every pair of sides, the median and range of the per-round ratios.
#
# Usage: benchmarks/scripts/latency-interleaved.sh ROUNDS RATES SIDE...
#   RATES is a comma-separated list of events per second, e.g. 10000,100000,1000000
#   SIDE is LABEL=IMPL:WAIT[:JAR], e.g. hybrid=slipstream:hybrid lite=slipstream:liteblocking
#        or before=slipstream:yielding:/tmp/old-benchmarks.jar (a side's own benchmarks jar)
#   env JAR:  the benchmarks jar of sides that name none (default: benchmarks/target/benchmarks.jar)
#   env LATENCY_OPTS: extra LatencyMain options (default "--warmup-ms 1000 --measure-ms 2000")
#   env KEEP: copy every run's latency.tsv into this directory
# Example:
#   benchmarks/scripts/latency-interleaved.sh 7 10000,100000,1000000 \
#       hybrid=slipstream:hybrid lite=slipstream:liteblocking busy=slipstream:busyspin
set -euo pipefail
rounds=$1; rates=$2; shift 2
sides=("$@")
jar=${JAR:-benchmarks/target/benchmarks.jar}
opts=${LATENCY_OPTS:-"--warmup-ms 1000 --measure-ms 2000"}
out=$(mktemp -d)
# every side of a round runs from a jar path of the same length (see layout.sh)
. "$(dirname "$0")/layout.sh"
LAYOUT_DIR=$out/jars
. "$(dirname "$0")/progress.sh"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)  java: $(java -version 2>&1 | head -1)"
began=$(date +%s)
for ((r = 1; r <= rounds; r++)); do
    echo "round $r/$rounds: $(progress_left "$began" $((r - 1)) "$rounds"), load $(cut -d' ' -f1 /proc/loadavg)"
    index=0
    for side in "${sides[@]}"; do
        label=${side%%=*}; rest=${side#*=}; impl=${rest%%:*}; wait=${rest#*:}; side_jar=$jar
        if [[ $wait == *:* ]]; then side_jar=${wait#*:}; wait=${wait%%:*}; fi
        side_jar=$(layout_jar "$r" "$index" "$side_jar"); index=$((index + 1))
        mkdir -p "$out/$label-$r"
        # shellcheck disable=SC2086
        java -cp "$side_jar" dev.slipstream.bench.latency.LatencyMain --mode oneway --impl "$impl" \
            --wait "$wait" --topology unicast --rates "$rates" $opts --out "$out/$label-$r" \
            > "$out/$label-$r/log" 2>&1 || { echo "FAILED: $label round $r (see $out/$label-$r/log)"; exit 1; }
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$LAYOUT_DIR"
if [[ -n ${KEEP:-} ]]; then
    mkdir -p "$KEEP"
    for d in "$out"/*/; do cp "$d/latency.tsv" "$KEEP/$(basename "$d").tsv"; done
fi
python3 - "$out" "$rounds" "${sides[@]}" <<'PY'
import csv, statistics, sys
out, rounds, sides = sys.argv[1], int(sys.argv[2]), [s.split('=')[0] for s in sys.argv[3:]]
runs = {}  # (side, round) -> {rate: row}
for s in sides:
    for r in range(1, rounds + 1):
        with open(f"{out}/{s}-{r}/latency.tsv") as f:
            runs[(s, r)] = {int(row["rate"]): row for row in csv.DictReader(f, delimiter="\t")}
rates = sorted(runs[(sides[0], 1)])
metrics = (("p50", "p50_ns", 1e3, "us"), ("p90", "p90_ns", 1e3, "us"),
           ("cpu/event", "stage_cpu_ns_per_event", 1e3, "us"))
for rate in rates:
    print(f"rate {rate}/s")
    for s in sides:
        parts = []
        for name, key, scale, unit in metrics:
            values = [float(runs[(s, r)][rate][key]) / scale for r in range(1, rounds + 1)]
            parts.append(f"{name} {statistics.median(values):9.2f} {unit}")
        print(f"  {s:>10}: " + "  ".join(parts))
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            for name, key, _, _ in metrics:
                ratios = [float(runs[(a, r)][rate][key]) / float(runs[(b, r)][rate][key])
                          for r in range(1, rounds + 1)]
                print(f"  {a + '/' + b + ' ' + name:>28}: median {statistics.median(ratios):.2f}"
                      f"  range {min(ratios):.2f}-{max(ratios):.2f}")
PY

#!/usr/bin/env bash
# What the clustered pipeline's round trip costs against Aeron Cluster's own: a one-member
# cluster and a paced client in one JVM per run, the two implementations interleaved in every
# round (echo, pipeline, echo, pipeline, ...), with the load average recorded before every run.
#
#   echo      a plain ClusteredService that answers each command in onSessionMessage, at once
#   pipeline  PipelineClusteredService: the command decoded into the ring, STAGES stages, the
#             last replying through the outbox; the leader sends the reply as soon as it is
#             ready, from doBackgroundWork on its own publication (fast replies on, the default)
#   pipeline-off  the same with fast replies off: the reply goes out on the next log callback
#             (the next command, or the reply timer's event)
#
# Every command is timed from its intended send time (coordinated omission avoided), every
# answer is checked (correlation id, status, amount); a run that fails the check is reported
# and the script exits non-zero at the end. HdrHistogram gives the percentiles.
#
# At the end, per rate: each implementation's median (min-max) over rounds of p50, p99, p99.9 and
# the rate achieved, and the ratio pipeline / echo of each figure per round: median (min-max).
#
# Usage: benchmarks/scripts/cluster-round-trip.sh [ROUNDS] [RATES]
#   ROUNDS default 7 (at least 7 for a published figure); RATES default 10000,50000 (commands/s)
#   env JAR       the benchmarks jar (default benchmarks/target/benchmarks.jar;
#                 build: mvn -B -q -pl benchmarks -am package -DskipTests)
#   env SECONDS_MEASURED  measured seconds per run (default 10), after WARMUP seconds (default 3)
#   env STAGES    the pipeline's stages, the last one replying (default 1)
#   env EXTRA     more ClusterRoundTripBench options for both implementations, e.g.
#                 "--timers heap" or "--tick-ms 1" (the consensus module's timers),
#                 "--ring-wait yielding", "--client-idle spin", "--members 3" (three members in
#                 the JVM: each command committed by a majority)
#   env FAST_REPLIES  on (default: echo, pipeline), off (echo, pipeline-off) or both (echo,
#                 pipeline, pipeline-off, interleaved in every round)
#   env OUT       where the raw RESULT lines go (default a temporary file, printed at the start)
#   env JAR_BASE  a benchmarks jar of an earlier build: adds pipeline-base (the pipeline, fast
#                 replies on, from that jar) to every round, to compare a change side by side
# Run time with the defaults: about 8 minutes (7 rounds x 2 rates x 2 implementations x ~16 s);
# FAST_REPLIES=both: about 12 minutes.
set -euo pipefail
rounds=${1:-7}
rates=${2:-10000,50000}
jar=${JAR:-benchmarks/target/benchmarks.jar}
seconds=${SECONDS_MEASURED:-10}
warmup=${WARMUP:-3}
stages=${STAGES:-1}
extra=${EXTRA:-}
case ${FAST_REPLIES:-on} in
    on) impls="echo pipeline" ;;
    off) impls="echo pipeline-off" ;;
    both) impls="echo pipeline pipeline-off" ;;
    *) echo "FAST_REPLIES must be on, off or both, was '${FAST_REPLIES}'" >&2; exit 1 ;;
esac
jar_base=${JAR_BASE:-}
if [[ -n $jar_base ]]; then
    [[ -f $jar_base ]] || { echo "JAR_BASE $jar_base is not a file" >&2; exit 1; }
    impls="$impls pipeline-base"
fi
nimpls=$(wc -w <<< "$impls")
out=${OUT:-$(mktemp /tmp/cluster-round-trip.XXXXXX)}
[[ -f $jar ]] || { echo "no $jar: build it with mvn -B -q -pl benchmarks -am package -DskipTests" >&2; exit 1; }
(( rounds >= 7 )) || echo "NOTE: $rounds rounds: fewer than 7, not enough for a published figure"
nrates=$(tr ',' '\n' <<< "$rates" | grep -c .)
runs=$((rounds * nrates * nimpls))
# about 3 s a run besides warm-up and measurement: the JVM, the member's start and election, the close
planned=$((runs * (warmup + seconds + 3)))
: > "$out"
{
    echo "# cluster-round-trip: $(date -u +%FT%TZ), rounds $rounds, rates $rates, warm-up $warmup s, measured $seconds s,"\
        "stages $stages, implementations $impls, extra '${extra}'"
    [[ -z $jar_base ]] || echo "# pipeline-base from $jar_base"
    echo "# planned: $runs runs, about $((planned / 60)) min $((planned % 60)) s"
    echo "# java: $(java -version 2>&1 | head -1); cores: $(nproc); $(grep -m1 'model name' /proc/cpuinfo || true)"
    echo "# uptime: $(uptime)"
} | tee -a "$out"
echo "raw results: $out"
failed=0
run() {   # round, impl, rate
    local round=$1 impl=$2 rate=$3 log options run_jar=$jar
    echo "# round $round $impl rate $rate: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out"
    case $impl in
        pipeline-off) options="--impl pipeline --fast-replies off" ;;
        pipeline) options="--impl pipeline --fast-replies on" ;;
        pipeline-base) options="--impl pipeline --fast-replies on"; run_jar=$jar_base ;;
        *) options="--impl $impl" ;;
    esac
    # shellcheck disable=SC2086
    log=$(java -Xms512m -Xmx512m --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp "$run_jar" \
        dev.slipstream.bench.cluster.ClusterRoundTripBench $options --rate "$rate" --seconds "$seconds" \
        --warmup "$warmup" --stages "$stages" $extra 2>&1) || { failed=1; echo "# round $round $impl rate $rate FAILED" | tee -a "$out"; }
    grep '^FAILED' <<< "$log" | sed "s/^/# round $round $impl rate $rate /" | tee -a "$out" || true
    grep '^RESULT' <<< "$log" | sed -e "s/^RESULT /RESULT round=$round /" -e "s/ impl=[a-z-]* / impl=$impl /" \
        | tee -a "$out" || true
}
for ((r = 1; r <= rounds; r++)); do
    for rate in ${rates//,/ }; do
        for impl in $impls; do
            run "$r" "$impl" "$rate"
        done
    done
done
echo "# uptime after: $(uptime)" | tee -a "$out"
python3 - "$out" <<'PY'
import statistics, sys
from collections import defaultdict
rows = defaultdict(dict)   # (impl, rate, figure) -> round -> value
for line in open(sys.argv[1]):
    if not line.startswith("RESULT"):
        continue
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    rows[(f["impl"], int(f["rate"]), f["figure"])][int(f["round"])] = float(f["value"])
def spread(vals):
    return f"{statistics.median(vals):>9,.1f} ({min(vals):,.1f}-{max(vals):,.1f})"
for rate in sorted({r for (_, r, _) in rows}):
    print(f"\nrate {rate:,} commands/s: median (min-max) over rounds; latency in us from the intended send time")
    impls = [i for i in ("echo", "pipeline", "pipeline-off", "pipeline-base") if any(k[0] == i and k[1] == rate for k in rows)]
    for impl in impls:
        cells = []
        for fig, name in (("p50", "p50"), ("p99", "p99"), ("p999", "p99.9"), ("achieved", "achieved/s")):
            v = list(rows.get((impl, rate, fig), {}).values())
            cells.append(f"{name} {spread(v)}" if v else f"{name} -")
        print(f"  {impl:<12} " + "  ".join(cells))
    for impl in (i for i in impls if i != "echo"):
        for fig, name in (("p50", "p50"), ("p99", "p99"), ("p999", "p99.9")):
            p, e = rows.get((impl, rate, fig), {}), rows.get(("echo", rate, fig), {})
            ratios = [p[r] / e[r] for r in sorted(set(p) & set(e)) if e[r] > 0]
            if ratios:
                print(f"  {impl} / echo {name}: {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f},"
                      f" {len(ratios)} rounds)")
PY
exit $failed

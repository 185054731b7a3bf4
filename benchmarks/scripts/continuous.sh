#!/usr/bin/env bash
# A continuous stream, side by side (the Disruptor paper's method): each run is its own JVM that
# publishes back to back for the whole pass and stops the clock when the last stage has seen the
# last event (ContinuousThroughput). Sides run interleaved, A B C A B C ..., ROUNDS times, with
# the 1-minute load average printed before every run. Prints, per side, the median of the runs
# (each run's score is its median measured pass), the slowest run against that median, the mean
# batch size of every stage, and for every other side the median and range of the per-round
# ratios against the first side.
#
# Usage: benchmarks/scripts/continuous.sh ROUNDS SHAPE WAIT SIDE...
#   SHAPE: unicast, pipeline, sequencer, multicast or diamond; WAIT: busyspin, yielding, blocking, ...
#   SIDE:  LABEL=JAR:IMPL[:JVMARG...], IMPL one of dsl (the Slipstream builder), slipstream (core
#          classes), lmax, abq; e.g. lmax=benchmarks/target/benchmarks.jar:lmax; JVM arguments for
#          this side only after further colons, e.g. park=JAR:dsl:-Dbench.producerWait=park1
#   env PASS_OPTS: ContinuousThroughput options (default "-seconds 1.5 -warmups 1 -passes 3")
#   env JVM_OPTS:  JVM options (default "-Xms1g -Xmx1g -XX:+UseParallelGC")
#   env KEEP:      also write every run's output into this directory
#   env PROBE:     1 to time a cache line's round trip between the two CPUs (CoreToCoreProbe) in
#                  its own JVM before and after every run; printed beside the run and kept in its log
# Each side's summary shows the share of its rings' events that landed at a 16-byte boundary: it
# sets the unicast blocking cell's level (EventPlacement). To compare two jars on the same placement, pin
# it on every side, once each way: SIDE:-Dbench.eventAlignment=16 and SIDE:-Dbench.eventAlignment=8.
# Example:
#   benchmarks/scripts/continuous.sh 7 unicast yielding \
#       lmax=benchmarks/target/benchmarks.jar:lmax slipstream=benchmarks/target/benchmarks.jar:dsl
set -euo pipefail
rounds=$1; shape=$2; wait=$3; shift 3
sides=("$@")
out=$(mktemp -d)
# every side of a round runs from a jar path of the same length (see layout.sh)
. "$(dirname "$0")/layout.sh"
LAYOUT_DIR=$out/jars
pass_opts=${PASS_OPTS:-"-seconds 1.5 -warmups 1 -passes 3"}
jvm_opts=${JVM_OPTS:-"-Xms1g -Xmx1g -XX:+UseParallelGC"}
echo "continuous $shape $wait, $rounds rounds, passes: $pass_opts, jvm: $jvm_opts"
echo "java: $(java -version 2>&1 | head -1)"
# the median round trip of a cache line between the two CPUs, in ns
probe() { java -cp "$1" dev.slipstream.bench.throughput.CoreToCoreProbe 20000 7 | sed -n 's/^PROBE rtt_ns=\([0-9.]*\).*/\1/p'; }
for ((r = 1; r <= rounds; r++)); do
    index=0
    for side in "${sides[@]}"; do
        label=${side%%=*}; rest=${side#*=}; jar=${rest%%:*}; rest=${rest#*:}
        jar=$(layout_jar "$r" "$index" "$jar"); index=$((index + 1))
        impl=${rest%%:*}; side_opts=""
        [[ $rest == *:* ]] && side_opts=$(tr ':' ' ' <<< "${rest#*:}")
        load=$(cut -d' ' -f1 /proc/loadavg)
        probe=""
        [[ ${PROBE:-0} == 1 ]] && probe="probe before $(probe "$jar")"
        # shellcheck disable=SC2086
        java $jvm_opts $side_opts -cp "$jar" dev.slipstream.bench.throughput.ContinuousThroughput \
            "$shape" "$impl" "$wait" $pass_opts > "$out/$label-$r.log" 2>&1 \
            || { echo "FAILED: $label round $r"; cat "$out/$label-$r.log"; exit 1; }
        if [[ -n $probe ]]; then
            probe="$probe after $(probe "$jar")"
            echo "PROBE_NS $probe" >> "$out/$label-$r.log"
        fi
        echo "round $r $label (load before $load): $(grep '^RESULT' "$out/$label-$r.log" | cut -d' ' -f5-) $probe"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
rm -rf "$LAYOUT_DIR"
if [[ -n ${KEEP:-} ]]; then mkdir -p "$KEEP"; cp "$out"/*.log "$KEEP"/; fi
python3 - "$out" "$rounds" "${sides[@]}" <<'PY'
import re, statistics, sys
out, rounds, sides = sys.argv[1], int(sys.argv[2]), [s.split('=')[0] for s in sys.argv[3:]]
def result(label, r):
    line = next(l for l in open(f"{out}/{label}-{r}.log") if l.startswith("RESULT"))
    fields = dict(kv.split("=", 1) for kv in line.split()[1:])
    # events16: the share of the ring's events at a 16-byte boundary (absent from older jars)
    return float(fields["meps"]), fields["batch"], float(fields["bytesPerEvent"]), float(fields.get("events16", "nan"))
res = {s: [result(s, r) for r in range(1, rounds + 1)] for s in sides}
for s in sides:
    meps = [x[0] for x in res[s]]
    med = statistics.median(meps)
    stages = {}
    for _, batch, _, _ in res[s]:
        for part in batch.split(","):
            name, value = part.split(":")
            if value != "-":
                stages.setdefault(name, []).append(float(value))
    batches = " ".join(f"{n}:{statistics.median(v):.1f} ({min(v):.1f}-{max(v):.1f})" for n, v in stages.items()) or "-"
    alloc = max(x[2] for x in res[s])
    shares = [x[3] for x in res[s] if x[3] == x[3]]
    at16 = f"{statistics.median(shares):.2f} ({min(shares):.2f}-{max(shares):.2f})" if shares else "-"
    print(f"{s:>12}: median {med:8.2f} M events/s  slowest run {min(meps) / med:.2f}x median  "
          f"runs {' '.join(f'{v:.1f}' for v in meps)}  mean batch {batches}  max B/event {alloc:.4f}"
          f"  events at 16 B {at16}")
def probes(label, r):
    line = next((l for l in open(f"{out}/{label}-{r}.log") if l.startswith("PROBE_NS")), None)
    return [float(x) for x in line.split()[3::2]] if line else None
if probes(sides[0], 1) is not None:
    # Not a comparison to quote (the plain medians above are): it shows which runs met the slow
    # placement of the two CPUs, a round trip above 150 ns before or after the run.
    for s in sides:
        near = [res[s][r - 1][0] for r in range(1, rounds + 1) if max(probes(s, r)) < 150]
        far = [res[s][r - 1][0] for r in range(1, rounds + 1) if max(probes(s, r)) >= 150]
        fmt = lambda v: f"median {statistics.median(v):8.2f} of {len(v)}" if v else "none"
        print(f"{s:>12}: round trip < 150 ns before and after: {fmt(near)}; otherwise: {fmt(far)}")
base = sides[0]
for s in sides[1:]:
    ratios = [b[0] / a[0] for a, b in zip(res[base], res[s])]
    print(f"{s + '/' + base:>24}: median {statistics.median(ratios):.2f}  range {min(ratios):.2f}-{max(ratios):.2f}"
          f"  ratios {' '.join(f'{x:.2f}' for x in ratios)}")
PY

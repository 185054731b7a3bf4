#!/usr/bin/env bash
# slipstream-journal against Chronicle Queue, side by side on one machine: for each round, each
# library runs in JVMs of its own, interleaved (slipstream, chronicle, slipstream, ...), with the
# load average printed before every run. Figures (64-byte payloads):
#   append: events/s appended with no sync; replay: events/s read back (Chronicle: its tailer);
#   latency at each rate with a force every batch: p50 / p99 / p99.9 from when an event was due
#   until the stage after the journal sees it durable, and the rate the pipeline kept.
# At the end: each figure's median per library, and the median and range of the per-round ratios
# (slipstream / chronicle for rates, chronicle / slipstream for latencies: above 1 favours slipstream).
#
# Usage: benchmarks/scripts/journal-interleaved.sh [ROUNDS] [RATES]
#   ROUNDS default 7; RATES default 10000,100000,1000000 (events per second)
#   env JAR: the benchmarks jar (default benchmarks/target/benchmarks.jar; build it with
#            mvn -B -q -pl benchmarks -am package -DskipTests)
#   env RECORDS: events per throughput run (default 4000000); SECONDS_MEASURED: measured seconds per latency run (default 2)
#   env OUT: where the raw RESULT lines go (default a temporary file, printed at the end)
# Run time: about 4 minutes with the defaults on 2 cores (each latency run 1 s warm-up + SECONDS).
set -euo pipefail
rounds=${1:-7}
rates=${2:-10000,100000,1000000}
jar=${JAR:-benchmarks/target/benchmarks.jar}
records=${RECORDS:-4000000}
seconds=${SECONDS_MEASURED:-2}
out=${OUT:-$(mktemp /tmp/journal-interleaved.XXXXXX)}
# Chronicle Queue reaches JDK internals (its documented flags for Java 17+) and phones home unless told not to.
chronicle_flags=(--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
    --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-exports=jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED
    --add-opens=jdk.compiler/com.sun.tools.javac=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
    --add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED
    --add-opens=java.base/java.util=ALL-UNNAMED --add-opens=java.base/java.nio=ALL-UNNAMED
    --add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/jdk.internal.misc=ALL-UNNAMED
    -Dchronicle.analytics.disable=true -Dchronicle.announcer.disable=true)
[[ -f $jar ]] || { echo "no $jar: build it with mvn -B -q -pl benchmarks -am package -DskipTests" >&2; exit 1; }
echo "java: $(java -version 2>&1 | head -1); cores: $(nproc); results: $out"
: > "$out"
run() {   # impl, round, JournalBench options...
    local impl=$1 round=$2; shift 2
    echo "round $round $impl $*: load $(cut -d' ' -f1-3 /proc/loadavg)"
    java -Xms1g -Xmx1g -XX:+AlwaysPreTouch "${chronicle_flags[@]}" -cp "$jar" dev.slipstream.bench.journal.JournalBench \
        --impl "$impl" "$@" 2>/dev/null | grep '^RESULT' | sed "s/^RESULT /RESULT round=$round /" | tee -a "$out"
}
for ((r = 1; r <= rounds; r++)); do
    for impl in slipstream chronicle; do
        run "$impl" "$r" --test throughput --records "$records"
    done
    for rate in ${rates//,/ }; do
        for impl in slipstream chronicle; do
            run "$impl" "$r" --test latency --rate "$rate" --seconds "$seconds"
        done
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'PY'
import re, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    rows.setdefault((f["test"], f["figure"]), {}).setdefault(f["impl"], {})[int(f["round"])] = float(f["value"])
print(f"{'test':<16}{'figure':<8}{'slipstream':>14}{'chronicle':>14}  ratio (median, range; >1 favours slipstream)")
for (test, figure), by_impl in sorted(rows.items()):
    s, c = by_impl.get("slipstream", {}), by_impl.get("chronicle", {})
    rounds = sorted(set(s) & set(c))
    if not rounds:
        continue
    higher_is_better = figure in ("append", "replay", "rate")
    ratios = [(s[r] / c[r]) if higher_is_better else (c[r] / s[r]) for r in rounds if s[r] > 0 and c[r] > 0]
    unit = "ev/s" if higher_is_better else "us"
    print(f"{test:<16}{figure:<8}{statistics.median(s[r] for r in rounds):>14,.1f}{statistics.median(c[r] for r in rounds):>14,.1f}"
          f"  {statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}, {len(ratios)} rounds) [{unit}]")
PY

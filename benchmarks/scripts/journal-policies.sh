#!/usr/bin/env bash
# What each sync policy of slipstream-journal costs: append-to-durable latency (p50, p99, p99.9,
# from when an event was due until the stage after the journal sees it) at each rate, for a force
# every batch, a force at most every 500 us, and no force (page cache only), ROUNDS interleaved
# rounds, each run its own JVM, the 1-minute load printed before each run. Prints the medians.
#
# Usage: benchmarks/scripts/journal-policies.sh [ROUNDS] [RATES]
#   ROUNDS default 5; RATES default 10000,100000,1000000; env JAR (default benchmarks/target/benchmarks.jar)
#   env OUT: where the raw RESULT lines go (default a temporary file)
# About 3 minutes with the defaults on 2 cores.
set -euo pipefail
rounds=${1:-5}
rates=${2:-10000,100000,1000000}
jar=${JAR:-benchmarks/target/benchmarks.jar}
out=${OUT:-$(mktemp /tmp/journal-policies.XXXXXX)}
: > "$out"
echo "java: $(java -version 2>&1 | head -1); raw results: $out"
for ((r = 1; r <= rounds; r++)); do
    for rate in ${rates//,/ }; do
        for policy in batch 500us never; do
            echo "round $r policy $policy rate $rate: load $(cut -d' ' -f1-3 /proc/loadavg)"
            java -Xms1g -Xmx1g -cp "$jar" dev.slipstream.bench.journal.JournalBench --impl slipstream \
                --test latency --rate "$rate" --seconds 2 --policy "$policy" | grep '^RESULT' | sed "s/^RESULT /RESULT round=$r /" >> "$out"
        done
    done
done
python3 - "$out" <<'PY'
import collections, re, statistics, sys
v = collections.defaultdict(list)
for line in open(sys.argv[1]):
    f = dict(kv.split("=", 1) for kv in line.split()[1:])
    v[(f["test"], f["figure"])].append(float(f["value"]))
print(f"{'test':28} {'p50 us':>10} {'p99 us':>10} {'p99.9 us':>10} {'rate ev/s':>12}  (medians)")
for test in sorted({t for t, _ in v}, key=lambda t: (int(re.search(r"\d+", t).group()), t)):
    row = [statistics.median(v[(test, k)]) for k in ("p50", "p99", "p999", "rate")]
    print(f"{test:28} {row[0]:10.1f} {row[1]:10.1f} {row[2]:10.1f} {row[3]:12.0f}")
PY

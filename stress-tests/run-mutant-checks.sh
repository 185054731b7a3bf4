#!/usr/bin/env bash
# Runs every mutant proof of this module N times in a row and reports each run that missed.
#
# A mutant proof is a JUnit test named the...Catches... (theCheckCatches..., theModelCheckCatches...,
# theHarnessCatches...) or IndexRingConsumeMarkLincheckTest's aPlainStoreConsumeMarkIsCaught...:
# it runs a concurrency check against a seeded bug from stress-tests/MUTANTS.md and passes only if
# the check catches it. A proof that fails (or errors) is a miss: its check did not catch its
# mutant in that run. Run this on a loaded machine: a proof that catches only when the scheduler
# happens to interleave the right way shows up here.
#
# Usage:   stress-tests/run-mutant-checks.sh [N]          (default 20)
# Env:     BUSY_THREADS  busy loops to run beside the checks for the whole time (default 0), to
#                        load an idle machine
#          MVN_OPTS_EXTRA extra Maven arguments, e.g. "-o"
#          WORKDIR       where the per-run logs and reports go (default stress-tests/target/mutant-runs)
# Output:  one line per run (start and end load average, seconds, proofs run, misses and their
#          names), then a summary; exit code 1 if any run missed or ran no proof.
set -uo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$module_dir/.." && pwd)"
runs="${1:-20}"
busy="${BUSY_THREADS:-0}"
workdir="${WORKDIR:-$module_dir/target/mutant-runs}"
selection='*#the*Catches*+aPlainStoreConsumeMarkIsCaught*, !QueueTestlibSuiteTest'

if ! [[ "$runs" =~ ^[1-9][0-9]*$ ]]; then
    echo "run-mutant-checks: N must be a positive whole number of runs, got '$runs'" >&2
    exit 2
fi
if ! [[ "$busy" =~ ^[0-9]+$ ]]; then
    echo "run-mutant-checks: BUSY_THREADS must be a whole number, got '$busy'" >&2
    exit 2
fi
mkdir -p "$workdir"

busy_pids=()
stop_busy() {
    for pid in "${busy_pids[@]}"; do
        kill "$pid" 2>/dev/null
    done
}
trap stop_busy EXIT
for ((b = 0; b < busy; b++)); do
    ( while :; do :; done ) &
    busy_pids+=("$!")
done

load() { cut -d' ' -f1 /proc/loadavg; }

total_misses=0
bad_runs=0
echo "run | load at start | load at end | seconds | proofs | misses"
for ((r = 1; r <= runs; r++)); do
    log="$workdir/run-$r.log"
    reports="$workdir/run-$r-reports"
    rm -rf "$reports" "$module_dir/target/surefire-reports"
    load_start="$(load)"
    start_s=$SECONDS
    # shellcheck disable=SC2086 # MVN_OPTS_EXTRA is a list of words on purpose
    (cd "$root" && mvn -B -q -Pstress ${MVN_OPTS_EXTRA:-} -pl stress-tests -am test \
        -Dtest="$selection" -Dsurefire.failIfNoSpecifiedTests=false) >"$log" 2>&1
    seconds=$((SECONDS - start_s))
    load_end="$(load)"
    mkdir -p "$reports"
    cp "$module_dir"/target/surefire-reports/TEST-*.xml "$reports"/ 2>/dev/null
    # proofs that ran: test cases less skipped ones (the @Disabled mutant subclasses of the
    # model checks match the selection too, and are reported as skipped)
    proofs=$(cat "$reports"/TEST-*.xml 2>/dev/null | awk '/<testsuite /{
        match($0, / tests="[0-9]+"/); t = substr($0, RSTART + 8, RLENGTH - 9);
        match($0, / skipped="[0-9]+"/); s = substr($0, RSTART + 10, RLENGTH - 11); n += t - s }
        END { print n + 0 }')
    missed=$(for f in "$reports"/TEST-*.xml; do
        [[ -f "$f" ]] || continue
        # the name of every test case followed by a failure or error element
        awk '/<testcase /{ match($0, /name="[^"]*"/); name = substr($0, RSTART + 6, RLENGTH - 7);
                           match($0, /classname="[^"]*"/); cls = substr($0, RSTART + 11, RLENGTH - 12) }
             /<(failure|error)[ >]/{ print cls "#" name }' "$f"
    done | sort -u)
    misses=0
    [[ -n "$missed" ]] && misses=$(wc -l <<<"$missed")
    if ((proofs == 0)); then
        bad_runs=$((bad_runs + 1))
        echo "$r | $load_start | $load_end | $seconds | 0 | no proof ran: see $log"
        continue
    fi
    total_misses=$((total_misses + misses))
    ((misses > 0)) && bad_runs=$((bad_runs + 1))
    echo "$r | $load_start | $load_end | $seconds | $proofs | $misses${missed:+ ($(tr '\n' ' ' <<<"$missed"))}"
done
echo "summary: $runs runs, $total_misses misses, $bad_runs runs with a miss or no proof, busy loops beside: $busy, CPUs: $(nproc)"
((bad_runs == 0))

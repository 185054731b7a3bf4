#!/usr/bin/env bash
# Runs the jcstress suite of this module and fails when anything went wrong.
#
# jcstress exits 0 in two cases where nothing was tested: a filter that matches no test
# ("FATAL: No matching tests.") and a test that needs more actor threads than there are CPUs
# ("No scheduling is possible"). This wrapper turns those, FORBIDDEN outcomes, failed or
# errored tests, and a run that reports zero results, into exit code 1.
#
# Usage:   stress-tests/run-jcstress.sh [test-filter-regex]     (default: every test)
# Build:   mvn -B -o -pl stress-tests -am package -DskipTests
# Env:     JCSTRESS_MODE     sanity | quick (default) | default | tough | stress
#          JCSTRESS_OPTS     extra jcstress arguments, e.g. "-c 2 -time 500"
#          JCSTRESS_JVM_ARGS one JVM configuration instead of the auto-detected set (interpreter,
#                            C1, C2, C2 with its randomizers, each with and without biased
#                            locking), e.g. "-XX:-TieredCompilation -XX:+UnlockDiagnosticVMOptions
#                            -XX:+StressGCM"; passed to jcstress as one -jvmArgs line
#          JCSTRESS_JAVA     the java launcher (default: java on the PATH)
#          JCSTRESS_TIMEOUT  wall-clock limit in seconds for the whole run (default 3600)
#          JCSTRESS_WORKDIR  where the log, results/ and the result blob go
#                            (default: stress-tests/target/jcstress-run)
set -uo pipefail

module_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
jar="$module_dir/target/jcstress.jar"
filter="${1:-dev.slipstream.stress}"
mode="${JCSTRESS_MODE:-quick}"
java_cmd="${JCSTRESS_JAVA:-java}"
limit_s="${JCSTRESS_TIMEOUT:-3600}"
workdir="${JCSTRESS_WORKDIR:-$module_dir/target/jcstress-run}"
log="$workdir/jcstress-output.txt"

if [[ ! -f "$jar" ]]; then
    echo "jcstress: FAIL: $jar is missing; build it with: mvn -B -o -pl stress-tests -am package -DskipTests" >&2
    exit 1
fi
mkdir -p "$workdir"

start_s=$SECONDS
# -v: print the outcome table of every test (not only failing ones) into the log.
# shellcheck disable=SC2086 # JCSTRESS_OPTS is a list of words on purpose
(cd "$workdir" && timeout --kill-after=30 "$limit_s" \
    "$java_cmd" -jar "$jar" -t "$filter" -m "$mode" -sc false -v ${JCSTRESS_OPTS:-} \
    ${JCSTRESS_JVM_ARGS:+-jvmArgs "$JCSTRESS_JVM_ARGS"}) >"$log" 2>&1
rc=$?
elapsed_s=$((SECONDS - start_s))

reasons=()
if [[ $rc -ne 0 ]]; then
    if [[ $rc -eq 124 || $rc -eq 137 ]]; then
        reasons+=("killed after the ${limit_s}s limit (exit $rc)")
    else
        reasons+=("jcstress exited with $rc")
    fi
fi
grep -q 'FATAL: No matching tests' "$log" && reasons+=("no test matches the filter '$filter'")
grep -q 'No scheduling is possible' "$log" && reasons+=("a test needs more actor threads than CPUs (No scheduling is possible)")
# A FORBIDDEN outcome that was observed: a table row "<result>  <samples>  <freq>%  Forbidden  <desc>"
# with a non-zero sample count (outcomes declared by exact id are listed with 0 samples too).
forbidden_rows="$(grep -E '^[[:space:]]+.+[[:space:]][0-9,]*[1-9][0-9,]*[[:space:]]+[0-9.<>]+%[[:space:]]+Forbidden([[:space:]]|$)' "$log")"
[[ -n "$forbidden_rows" ]] && reasons+=("FORBIDDEN outcomes observed")
grep -Eq '(Failed|Error) tests: [1-9]' "$log" && reasons+=("$(grep -Eo '(Failed|Error) tests: [0-9]+' "$log" | paste -sd ',' -)")

# A test that collected no samples tested nothing (termination tests do that in sanity mode):
# sum the SAMPLES column of each test's table in the RUN RESULTS section.
empty_tests="$(awk '
    function flush() { if (name != "" && samples == 0) print name; name = "" }
    /^RUN RESULTS:/ { in_results = 1; next }
    !in_results { next }
    /^\.+ \[[A-Z ]+\] / { flush(); name = $NF; samples = 0; next }
    name != "" && /[0-9.<>]+%[[:space:]]+(Acceptable|Forbidden|Interesting)/ {
        for (i = 2; i <= NF; i++) if ($i ~ /%$/) { n = $(i - 1); gsub(",", "", n); samples += n; break }
    }
    END { flush() }' "$log")"
[[ -n "$empty_tests" ]] && reasons+=("tests with no samples: $(echo "$empty_tests" | paste -sd ' ' -)")

# The last progress line: "(Results: 8 planned; 8 passed, 0 failed, 0 soft errs, 0 hard errs)".
results_line="$(grep -Eo 'Results: [0-9]+ planned; [0-9]+ passed, [0-9]+ failed, [0-9]+ soft errs, [0-9]+ hard errs' "$log" | tail -n 1)"
planned=0 passed=0 failed=0 soft=0 hard=0
if [[ -n "$results_line" ]]; then
    read -r planned passed failed soft hard < <(echo "$results_line" | grep -Eo '[0-9]+' | paste -sd ' ' -)
fi
if [[ -z "$results_line" || $planned -eq 0 || $((passed + failed + soft + hard)) -eq 0 ]]; then
    reasons+=("zero tests were run")
fi
[[ $failed -gt 0 ]] && reasons+=("$failed results failed")
[[ $((soft + hard)) -gt 0 ]] && reasons+=("$soft soft and $hard hard errors")
[[ -n "$results_line" && $passed -lt $planned ]] && reasons+=("only $passed of $planned planned results passed")

# Verbose mode prints one "[OK] <test>" line per configuration, and again in the summary.
names_ok="$(grep -Eo '^\.+ \[OK\] [[:alnum:]_.$]+' "$log" | awk '{print $3}' | sort -u)"
names_bad="$(grep -Eo '^\.+ \[[A-Z ]+\] [[:alnum:]_.$]+' "$log" | grep -v '\[OK\]' | awk '{print $NF}' | sort -u)"
tests_bad="$(grep -c . <<<"$names_bad")"
tests_ok="$(comm -23 <(echo "$names_ok") <(echo "$names_bad") | grep -c .)"
summary="$tests_ok tests OK, $tests_bad not OK, results: $planned planned, $passed passed, $failed failed, $soft soft errs, $hard hard errs; filter '$filter', mode $mode, ${elapsed_s}s; log $log"

if [[ ${#reasons[@]} -gt 0 ]]; then
    sed -n '/^RUN RESULTS:/,$p' "$log" | grep -v '^[[:space:]]*$' | head -n 200 >&2
    [[ -n "$forbidden_rows" ]] && { echo "Observed FORBIDDEN outcomes:" >&2; echo "$forbidden_rows" >&2; }
    grep -q '^RUN RESULTS:' "$log" || tail -n 5 "$log" >&2
    printf 'jcstress: FAIL (%s): %s\n' "$(printf '%s; ' "${reasons[@]}" | sed 's/; $//')" "$summary" >&2
    exit 1
fi
echo "jcstress: PASS: $summary"

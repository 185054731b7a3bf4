#!/usr/bin/env bash
# The per-consumer FIFO stress (QueueFifoStressTest) at the size of a long run: ROUNDS rounds of
# every case (8 x 8 and 16 x 16 threads; LprqQueue rings of 1, 2, 4 and the default; LscqQueue;
# ScqQueue), PER_PRODUCER values per producer, on the JDK given (default: java on the PATH).
# Prints the load before and after and the per-case results; exits non-zero on any violation.
#
# Usage: stress-tests/run-fifo-stress.sh [ROUNDS] [PER_PRODUCER] [JAVA_HOME]
#   e.g. stress-tests/run-fifo-stress.sh 50 500000
#        stress-tests/run-fifo-stress.sh 50 500000 /usr/lib/jvm/temurin-25-jdk-amd64
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-50}
per_producer=${2:-500000}
if [[ -n ${3:-} ]]; then
    export JAVA_HOME=$3
fi
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); java: $(${JAVA_HOME:+$JAVA_HOME/bin/}java -version 2>&1 | head -1)"
log=$(mktemp)
status=0
mvn -B -Dstyle.color=never -pl stress-tests -am verify -Djacoco.skip=true -Dsurefire.failIfNoSpecifiedTests=false \
    -Dtest='QueueFifoStressTest#everyConsumerSeesEachProducersElementsInOrderAndEveryElementOnce' \
    -Dslipstream.fifo.rounds="$rounds" -Dslipstream.fifo.perProducer="$per_producer" > "$log" 2>&1 || status=$?
grep -E 'Tests run:|FAIL|round [0-9]+ of|BUILD' "$log" || true
rm -f "$log"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$status"

#!/usr/bin/env bash
# The LSCQ article's workloads (ArticleWorkloads) at 2 and 8 threads, 7 rounds, one JVM per side and
# round, the starting side rotated every round: LprqQueue before the change (head.jar, the
# benchmarks jar of the tree before it) and after (inl.jar), and ConcurrentLinkedQueue, JCTools'
# MpmcUnboundedXaddArrayQueue and LinkedBlockingQueue from inl.jar. Started inside a window with
# every other Java process stopped and the 1-minute load below 0.3; load.txt has the load before
# each JVM (from round 1 on it is the benchmark's own threads). `python3 summary.py` prints the table.
# Usage: JARS=DIR run.sh   (DIR holds head.jar and inl.jar)
set -u
sides=(head:head:LprqQueue inl:inl:LprqQueue clq:inl:ConcurrentLinkedQueue xadd:inl:MpmcUnboundedXaddArrayQueue lbq:inl:LinkedBlockingQueue)
n=${#sides[@]}
mkdir -p raw
for r in 1 2 3 4 5 6 7; do
  for ((k = 0; k < n; k++)); do
    IFS=: read -r label jar q <<< "${sides[$(((k + r - 1) % n))]}"
    echo "round $r $label load $(cut -d' ' -f1 /proc/loadavg)" >> load.txt
    java -Xms1g -Xmx1g -cp "$JARS/$jar.jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" 2,8 1000000 2 3 > raw/$label-$r.txt 2>&1
  done
done
echo "done $(cat /proc/loadavg)" >> load.txt

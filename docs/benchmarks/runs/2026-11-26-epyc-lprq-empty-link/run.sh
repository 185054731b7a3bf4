#!/usr/bin/env bash
# 7 rounds, interleaved: LprqQueue before (old jar), LprqQueue after (new jar), ConcurrentLinkedQueue; 2 and 8 threads
set -eu
out=docs/benchmarks/runs/2026-11-26-epyc-lprq-empty-link
for r in 1 2 3 4 5 6 7; do
  for side in before:BEFORE.jar:LprqQueue after:AFTER.jar:LprqQueue clq:AFTER.jar:ConcurrentLinkedQueue xadd:AFTER.jar:MpmcUnboundedXaddArrayQueue; do
    IFS=: read -r label jar q <<< "$side"
    echo "round $r $label load $(cut -d' ' -f1 /proc/loadavg)" >> $out/load.txt
    java -Xms1g -Xmx1g -cp "$jar" dev.slipstream.bench.queue.ArticleWorkloads "$q" 2,8 1000000 2 3 > $out/$label-$r.txt 2>&1
  done
done
echo "done $(cat /proc/loadavg)" >> $out/load.txt

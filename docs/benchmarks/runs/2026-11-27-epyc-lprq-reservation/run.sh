#!/usr/bin/env bash
set -u
sides=(inl:inl tl:tl)
mkdir -p raw
for r in 1 2 3 4 5 6 7; do
  for k in 0 1; do
    IFS=: read -r label jar <<< "${sides[$(((k + r) % 2))]}"
    echo "round $r $label load $(cut -d' ' -f1 /proc/loadavg)" >> load.txt
    java -Xms1g -Xmx1g -cp /tmp/cj/$jar.jar dev.slipstream.bench.queue.ArticleWorkloads LprqQueue 1,2 1000000 2 3 > raw/$label-$r.txt 2>&1
  done
done
echo "done $(cat /proc/loadavg)" >> load.txt

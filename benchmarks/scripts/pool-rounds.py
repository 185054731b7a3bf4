#!/usr/bin/env python3
"""Pools the rounds of several continuous.sh outputs of one cell, for a cell whose runs fall in
modes (unicast with blocking waits: each JVM settles at about 30 or 55 M events/s, as its ring's
events landed; see EventPlacement), where the median of one run's 16-32 per-round ratios moves by
more than the difference being asked about.

Usage: benchmarks/scripts/pool-rounds.py 'SHAPE WAIT' BASE=LABEL[,LABEL...] OTHER=LABEL[,LABEL...] FILE...
  Reads every section "continuous SHAPE WAIT" of each FILE (output of continuous.sh, several
  cells per file allowed; long and 20M-event passes of one cell are pooled alike, so keep them
  in separate files) and pairs, round by round, the run of a BASE label with the run of an
  OTHER label of the same round (a side may carry another label in another file: new,head).
  Prints both sides' median over all pooled runs, the share of runs at or above FAST M events/s
  (env FAST, default 45), the median of the per-round ratios OTHER/BASE and its 95% bootstrap
  interval (resampling rounds, 5,000 draws, fixed seed).
Example:
  benchmarks/scripts/pool-rounds.py 'unicast blocking' old=old new=new,head run1.txt run2.txt
"""
import os
import random
import re
import statistics
import sys


def rounds(path, cell):
    """One {round: {label: M events/s}} per section of this cell in one file."""
    sections, current = [], None
    for line in open(path):
        if line.startswith("continuous "):
            current = {} if line.startswith(f"continuous {cell},") else None
            if current is not None:
                sections.append(current)
            continue
        m = re.match(r"round (\d+) (\S+) .*meps=([\d.]+)", line)
        if m and current is not None:
            current.setdefault(int(m.group(1)), {})[m.group(2)] = float(m.group(3))
    return sections


def main():
    cell, base_arg, other_arg, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    base_name, base_labels = base_arg.split("=")[0], base_arg.split("=")[1].split(",")
    other_name, other_labels = other_arg.split("=")[0], other_arg.split("=")[1].split(",")
    fast = float(os.environ.get("FAST", "45"))
    base, other = [], []
    for path in files:
        for section in rounds(path, cell):
            for runs in section.values():
                b = next((runs[k] for k in base_labels if k in runs), None)
                o = next((runs[k] for k in other_labels if k in runs), None)
                if b is not None and o is not None:
                    base.append(b)
                    other.append(o)
    if not base:
        sys.exit(f"no round of '{cell}' has both {base_arg} and {other_arg} in {files}")
    ratios = [o / b for b, o in zip(base, other)]
    draw = random.Random(1)
    medians = sorted(statistics.median(draw.choices(ratios, k=len(ratios))) for _ in range(5000))
    share = lambda xs: sum(x >= fast for x in xs) / len(xs)
    print(f"{cell}: {len(ratios)} rounds from {len(files)} files")
    print(f"  {base_name}: median {statistics.median(base):.2f} M events/s, {share(base):.2f} of runs >= {fast:g}")
    print(f"  {other_name}: median {statistics.median(other):.2f} M events/s, {share(other):.2f} of runs >= {fast:g}")
    print(f"  {other_name}/{base_name}: median of per-round ratios {statistics.median(ratios):.3f}"
          f" (95% bootstrap interval {medians[125]:.3f}-{medians[4874]:.3f}),"
          f" ratio of medians {statistics.median(other) / statistics.median(base):.3f}")


if __name__ == "__main__":
    main()

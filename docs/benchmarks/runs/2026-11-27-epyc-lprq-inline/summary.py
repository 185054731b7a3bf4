import re, statistics, collections, sys
pat = re.compile(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) ops=(\d+) ns_per_op=([0-9.]+)")
sides = ["head", "inl", "clq", "xadd", "lbq"]
ns = collections.defaultdict(dict)
for s in sides:
    for r in range(1, 8):
        for line in open(f"raw/{s}-{r}.txt"):
            m = pat.match(line)
            if m:
                ns[(s, m[2], int(m[3]))][r] = float(m[5])
W = ["EnqueueOnly", "DequeueOnlyEmpty", "Pair", "50Enqueue50Dequeue", "30Enqueue70Dequeue", "70Enqueue30Dequeue"]
def ratio(a, b, w, t):  # a's ns / b's ns per round: above 1, b faster
    x = [ns[(a, w, t)][r] / ns[(b, w, t)][r] for r in range(1, 8)]
    return f"{statistics.median(x):.2f} [{min(x):.2f}-{max(x):.2f}]"
for t in (2, 8):
    print(f"\n## {t} threads: median ns/op; ratios = median [min-max] of per-round ratios (above 1: the second side is faster)\n")
    print("| workload | shipped | inlined | CLQ | xadd | LBQ | shipped/inlined | CLQ/inlined | xadd/inlined | LBQ/inlined |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in W:
        med = [statistics.median(ns[(s, w, t)].values()) for s in sides]
        print(f"| {w} | " + " | ".join(f"{m:.1f}" for m in med) + " | " + " | ".join(ratio(a, "inl", w, t) for a in ("head", "clq", "xadd", "lbq")) + " |")

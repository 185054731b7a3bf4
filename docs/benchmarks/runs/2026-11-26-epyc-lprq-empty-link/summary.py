import re, statistics, collections, glob, os
d=os.path.join(os.path.dirname(os.path.abspath(__file__)), 'raw')
pat=re.compile(r"RESULT queue=(\S+) workload=(\S+) threads=(\d+) ops=\d+ ns_per_op=([0-9.]+)")
ns=collections.defaultdict(dict)
for f in glob.glob(d+'/*-[0-9].txt'):
    label,r=os.path.basename(f)[:-4].rsplit('-',1)
    for line in open(f):
        m=pat.match(line)
        if m: ns[(label,m[2],int(m[3]))][int(r)]=float(m[4])
W=["EnqueueOnly","DequeueOnlyEmpty","Pair","50Enqueue50Dequeue","30Enqueue70Dequeue","70Enqueue30Dequeue"]
labels=["before","after","clq","xadd"]
for t in (2,8):
    print(f"\n## {t} threads: median ns/op; ratios = median [min-max] of per-round peer/queue\n")
    print("| workload | before | after | CLQ | xadd | after/before | before vs CLQ | after vs CLQ | after vs xadd |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in W:
        med=[statistics.median(ns[(l,w,t)].values()) if ns[(l,w,t)] else float('nan') for l in labels]
        def rat(a,b):
            A,B=ns[(a,w,t)],ns[(b,w,t)]
            rs=sorted(A[r]/B[r] for r in A if r in B)
            return f"{statistics.median(rs):.2f} [{rs[0]:.2f}-{rs[-1]:.2f}]" if rs else "-"
        print(f"| {w} | "+" | ".join(f"{m:.1f}" for m in med)+f" | {rat('before','after')} | {rat('clq','before')} | {rat('clq','after')} | {rat('xadd','after')} |")

#!/usr/bin/env python3
"""bench/gen_genome.py MBP FASTA GUIDES: the benchmarks' genome (bench/records.sh,
bench/peers.sh): one FASTA record of MBP million random bases in 60-base
lines, with soft-masked (lower-case) runs of 3,000 bases and N runs of
10,000, and 312 guides of 23 bases cut from its upper-case, N-free parts
(GUIDES, FASTA); GUIDES.both holds them and their reverse complements.
Seeded: the same files every time."""
import random
import sys

n = int(float(sys.argv[1]) * 1e6)
random.seed(7)
s = bytearray(random.choices(b'ACGT', k=n))
for _ in range(n // 200000):       # soft-masked runs
    a = random.randrange(n)
    s[a:a + 3000] = s[a:a + 3000].lower()
for _ in range(n // 1000000):      # N runs
    a = random.randrange(n)
    s[a:a + 10000] = b'N' * len(s[a:a + 10000])
s = bytes(s[:n])
with open(sys.argv[2], 'wb') as f:
    f.write(b'>chrB bench\n')
    for i in range(0, n, 60):
        f.write(s[i:i + 60] + b'\n')
g = []
while len(g) < 312:
    a = random.randrange(n - 23)
    w = s[a:a + 23]
    if w.isupper() and b'N' not in w:
        g.append(w)
comp = bytes.maketrans(b'ACGT', b'TGCA')
with open(sys.argv[3], 'wb') as f:
    for i, w in enumerate(g):
        f.write(b'>g%d\n%s\n' % (i, w))
with open(sys.argv[3] + '.both', 'wb') as f:
    for i, w in enumerate(g):
        f.write(b'>g%d\n%s\n>g%d_rc\n%s\n' % (i, w, i, w.translate(comp)[::-1]))

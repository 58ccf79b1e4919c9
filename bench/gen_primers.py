#!/usr/bin/env python3
"""bench/gen_primers.py READS N OUT: N distinct 24-base primers cut from the
150-base lines of READS (its first 8 MB; seeded: the same every time),
sorted, one a line into OUT; OUT.fa the same as FASTA (p0, p1, ...);
OUT.both the primers and their reverse complements, one a line (line mode's
equivalent of --dna's both strands).  Used by bench/records.sh and
bench/peers.sh."""
import random
import sys

lines = [l for l in open(sys.argv[1], 'rb').read(8 << 20).split(b'\n') if len(l) == 150]
random.seed(99)
ps = set()
while len(ps) < int(sys.argv[2]):
    l = random.choice(lines)
    s = random.randrange(0, 150 - 24)
    ps.add(l[s:s + 24])
ps = sorted(ps)
out = sys.argv[3]
open(out, 'wb').write(b'\n'.join(ps) + b'\n')
open(out + '.fa', 'wb').write(b''.join(b'>p%d\n%s\n' % (i, p) for i, p in enumerate(ps)))
comp = bytes.maketrans(b'ACGT', b'TGCA')
open(out + '.both', 'wb').write(b'\n'.join(ps + [p.translate(comp)[::-1] for p in ps]) + b'\n')

#!/usr/bin/env bats
# Sequence files as records (issue 38): FASTA and FASTQ read as records
# with --dna, both strands, the hit table (--hits), patterns from FASTA.
# The references: seqkit (locate, grep) on real genomes and reads from
# Debian's example packages; the oracle of tests/recoracle.c (a plain DP
# over the joined sequence and its reverse complement) on random records
# (tests/records_oracle.sh); hand-made cases for the rest.
bats_require_minimum_version 1.5.0
load test_helper

D="$BATS_FILE_TMPDIR"
# ALL: 1 in check-full, where a case runs every setting; make check takes
# some settings in turn
ALL=$(depth 0 1)
P515=GTGYCAGCMGCCGCGGTAA

setup_file() {
    # A FASTA of two records: the primer across a line break, on the
    # minus strand, soft-masked, next to N runs; CRLF in the second.
    printf '>chr1 first record\nACGTACGTTTGTGCCAGCAGCC\nGCGGTAAGGGTTACCGCGGCTGCTGGCACAAA\nacgt\n' > "$D/g.fa"
    printf '>chr2\r\nNNNNgtgtcagcagccgcggtaaNNN\r\n' >> "$D/g.fa"
    # FASTQ: r1 forward, r2 none, r3 minus
    printf '@r1 x\nACGTGTGCCAGCAGCCGCGGTAAC\n+\nIIIIIIIIIIIIIIIIIIIIIIII\n@r2\nTTTTTTTTTT\n+\nIIIIIIIIII\n@r3\nTTACCGCGGCTGCTGGCACA\n+r3\nIIIIIIIIIIIIIIIIIIII\n' > "$D/r.fq"
}

@test "FASTA: a site across a line break and on the minus strand; records whole" {
    run agrep-gpu --dna -c "$P515" "$D/g.fa"
    assert_output 2
    run agrep-gpu --dna "$P515" "$D/g.fa"
    assert_output "$(cat "$D/g.fa")"
    run agrep-gpu --dna --hits "$P515" "$D/g.fa"
    assert_output "$(printf 'pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar
%s\tchr1\t0\t+\t10\t29\tGTGCCAGCAGCCGCGGTAA\t19=
%s\tchr1\t0\t-\t32\t51\tTTACCGCGGCTGCTGGCAC\t19=
%s\tchr2\t0\t+\t4\t23\tgtgtcagcagccgcggtaa\t19=' "$P515" "$P515" "$P515")"
    run agrep-gpu --dna --hits=bed --strand=- "$P515" "$D/g.fa"
    assert_output "$(printf 'chr1\t32\t51\t%s\t0\t-' "$P515")"
    run agrep-gpu --dna --hits=json --strand=+ "$P515" "$D/g.fa"
    assert_line --index 0 '{"type":"hit","pat_id":"GTGYCAGCMGCCGCGGTAA","text_id":"chr1","cost":0,"strand":"+","start":10,"end":29,"match_region":"GTGCCAGCAGCCGCGGTAA","cigar":"19="}'
    # from a pipe (its first bytes seen without taking them)
    run agrep-gpu --dna --hits=bed --strand=- "$P515" < <(cat "$D/g.fa")
    assert_output "$(printf 'chr1\t32\t51\t%s\t0\t-' "$P515")"
    # a compressed pipe, with --decompress: its decoded first bytes seen
    # the same way (the site across the line break is found)
    gzip -c "$D/g.fa" > "$D/g.fa.gz"
    run agrep-gpu --dna --decompress --hits=bed --strand=+ "$P515" < <(cat "$D/g.fa.gz")
    assert_output "$(agrep-gpu --dna --hits=bed --strand=+ "$P515" "$D/g.fa")"
    assert_line --partial 'chr1	10	29'
    # line mode (today's behaviour, asked for): the split site is lost
    run agrep-gpu --dna --records=lines -c "$P515" "$D/g.fa"
    assert_output 2
}

@test "FASTQ: records whole, -v, -c, -l, -L, -m, -q by record; the sequence alone" {
    run agrep-gpu --dna "$P515" "$D/r.fq"
    assert_output "$(sed -n '1,4p;9,12p' "$D/r.fq")"
    run agrep-gpu --dna -v "$P515" "$D/r.fq"
    assert_output "$(sed -n '5,8p' "$D/r.fq")"
    run agrep-gpu --dna -c "$P515" "$D/r.fq" "$D/g.fa"
    assert_output "$(printf '%s:2\n%s:2' "$D/r.fq" "$D/g.fa")"
    run agrep-gpu --dna -l "$P515" "$D/r.fq" "$D/g.fa"
    assert_output "$(printf '%s\n%s' "$D/r.fq" "$D/g.fa")"
    run agrep-gpu --dna -L "$P515" "$D/r.fq"
    assert_output ""
    run agrep-gpu --dna -m1 "$P515" "$D/r.fq"
    assert_output "$(sed -n '1,4p' "$D/r.fq")"
    run agrep-gpu --dna -q "$P515" "$D/r.fq"
    assert_output ''
    # the name and quality lines are not searched (IIII, r3)
    run -1 agrep-gpu --dna --strand=+ -c IIIIIIII "$D/r.fq"
    assert_output 0
    # -j1 and tiny batches give the same records
    run agrep-gpu --dna -j1 "$P515" "$D/r.fq"
    assert_output "$(sed -n '1,4p;9,12p' "$D/r.fq")"
    AGREP_GPU_REC_BATCH=1 run agrep-gpu --dna "$P515" "$D/r.fq"
    assert_output "$(sed -n '1,4p;9,12p' "$D/r.fq")"
}

@test "patterns from FASTA are named by their headers; a plain file by line numbers" {
    printf '>p515F 16S V4\nGTGYCAGC\nMGCCGCGGTAA\n>other\nAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n' > "$D/p.fa"
    run agrep-gpu --dna --hits=bed -f "$D/p.fa" "$D/g.fa"
    assert_output "$(printf 'chr1\t10\t29\tp515F\t0\t+\nchr1\t32\t51\tp515F\t0\t-\nchr2\t4\t23\tp515F\t0\t+')"
    printf 'CCCCCCCCCCCC\n%s\n' "$P515" > "$D/p.txt"
    run agrep-gpu --dna --hits=bed --strand=+ -f "$D/p.txt" "$D/g.fa"
    assert_output "$(printf 'chr1\t10\t29\t2\t0\t+\nchr2\t4\t23\t2\t0\t+')"
    # a pattern keeps its NUL bytes (-f reads them as they are)
    printf 'xa\0bx\nab\n' > "$D/nul.txt"
    printf 'a\0b\n' > "$D/nul.pat"
    run agrep-gpu -a -c -f "$D/nul.pat" "$D/nul.txt"
    assert_output 1
}

@test "--hits on lines of text: the line number is the text_id; -k counts edits" {
    printf 'the house of the LORD\nno match here\nthe hoose of the lord\n' > "$D/t"
    run agrep-gpu -k1 --hits 'house of the LORD' "$D/t"
    assert_output "$(printf 'pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar
house of the LORD\t1\t0\t+\t4\t21\thouse of the LORD\t17=')"
    run agrep-gpu -i -k1 --hits=bed 'house of the LORD' "$D/t"
    assert_output "$(printf '1\t4\t21\thouse of the LORD\t0\t+\n3\t4\t21\thouse of the LORD\t1\t+')"
    run -1 agrep-gpu --hits nothing "$D/t"
    assert_output ''
}

@test "both strands need sequences; bad options and patterns are refused" {
    run -2 agrep-gpu --dna 'AC.GT' "$D/g.fa"
    assert_output --partial 'no reverse complement'
    run agrep-gpu --dna --strand=+ --records=lines -c 'GTG.CAG' "$D/g.fa"
    assert_output 2
    run -2 agrep-gpu --dna --strand=x ACGT "$D/g.fa"
    run -2 agrep-gpu --strand=+ ACGT "$D/g.fa"
    run -2 agrep-gpu --hits -c ACGT "$D/g.fa"
    run -2 agrep-gpu --hits=sam ACGT "$D/g.fa"
    run -2 agrep-gpu --records=fasta -n ACGT "$D/g.fa"
    run -2 agrep-gpu --dna -k4 ACGT "$D/g.fa"
    assert_output --partial "pattern 'ACGT' is not longer than -k 4"
    # from -f, named by its line: the name and the sequence
    printf 'ACGTACGT\nAC\n' > "$D/pp"
    run -2 agrep-gpu --dna -k2 -f "$D/pp" "$D/g.fa"
    assert_output --partial "pattern 2 ('AC') is not longer than -k 2"
    run -2 agrep-gpu --hits -E 'ab+c' "$D/g.fa"
}

@test "empty sequences (reads trimmed to nothing, header-only FASTA records) are records without a match, as seqkit reads them" {
    # cutadapt keeps a read trimmed to length 0 as "@r\n\n+\n\n"; these
    # were refused (exit 2, "empty sequence") and the rest of the file left
    # unsearched
    printf '@r1\nACGTAC\n+\nIIIIII\n@r2\n\n+\n\n@r3\nTTACGA\n+\nIIIIII\n@r4\n\n+\n\n' > "$D/e.fq"
    printf '>a\n>b x\nACGTAC\n>c\n\n>d\nTTAC\nGA\n>e\n' > "$D/e.fa"
    # (make check: each check at one -j, in turn: FASTQ and -v of it and
    # --hits at -j1, FASTA and -v of it and the spans at -j2)
    for j in 1 2; do
        for f in e.fq e.fa; do
            ((ALL || (j == 1) == (f == e.fq))) || continue
            run -0 agrep-gpu -j$j --dna -c ACG "$D/$f"
            assert_output 2
            assert_equal "$stderr" ''
            run -0 agrep-gpu -j$j --dna -c -v ACG "$D/$f"
            assert_output "$([ $f = e.fq ] && echo 2 || echo 3)"
        done
        if ((ALL || j == 1)); then
            run -0 agrep-gpu -j$j --dna -v ACG "$D/e.fq"
            assert_output "$(printf '@r2\n\n+\n\n@r4\n\n+\n')"
        fi
        if ((ALL || j == 2)); then
            run -0 agrep-gpu -j$j --dna -v ACG "$D/e.fa"
            assert_output "$(printf '>a\n>c\n\n>e')"
        fi
        if ((ALL || j == 1)); then
            run -0 agrep-gpu -j$j --dna --hits=tsv -k0 TACG "$D/e.fa"
            assert_line "$(printf 'TACG\td\t0\t+\t1\t5\tTACG\t4=')"
        fi
        if ((ALL || j == 2)); then
            AGREP_GPU_REC_SPAN=5 run -0 agrep-gpu -j$j --dna -c ACG "$D/e.fa"
            assert_output 2
        fi
    done
    if command -v seqkit >/dev/null; then
        run -0 seqkit locate -i -p ACG "$D/e.fq"
        assert_equal "$(echo "$output" | tail -n +2 | cut -f1 | sort -u | wc -l)" 2
    fi
}

@test "a file without its last newline: its last record printed ends in one (the next file's ran on after it); a last header without one is an empty record" {
    printf '>a\nACGTAC\n>b\nTTT\nACG' > "$D/n.fa"
    printf '@r1\nACGTAC\n+\nIIIIII\n@r2\nACG\n+\nIII' > "$D/n.fq"
    printf '>a\nACGTAC\n>b x' > "$D/h.fa"
    # (make check: each check at one -j, in turn)
    for j in 1 2; do
        if ((ALL || j == 1)); then
            run -0 agrep-gpu -j$j --dna -h -k0 ACG "$D/n.fa" "$D/n.fa"
            assert_output "$(printf '>a\nACGTAC\n>b\nTTT\nACG\n>a\nACGTAC\n>b\nTTT\nACG')"
        fi
        if ((ALL || j == 2)); then
            assert_equal "$(agrep-gpu -j$j --dna -h -k0 ACG "$D/n.fa" "$D/n.fa" | tail -c 4 | od -An -c | tr -d ' ')" 'ACG\n'
        fi
        if ((ALL || j == 1)); then
            run -0 agrep-gpu -j$j --dna -h -k0 ACG "$D/n.fq" "$D/n.fq"
            assert_line --index 7 'III'
            assert_line --index 8 '@r1'
        fi
        if ((ALL || j == 2)); then
            run -0 agrep-gpu -j$j --dna -v -k0 ACG "$D/h.fa" "$D/h.fa"
            assert_output "$(printf '>b x\n>b x')"
        fi
        if ((ALL || j == 1)); then
            run -0 agrep-gpu -j$j --dna -c -v ACG "$D/h.fa"
            assert_output 1
        fi
    done
}

@test "malformed records: file and record named, exit 2, the records before searched, the other files too" {
    printf '@r1\nACGT\n+\nIIII\n@r2\nACGT\n+\nIII\n' > "$D/b1.fq"
    printf '@r1\nACGT\nIIII\n' > "$D/b2.fq"
    printf '@r1\nACGT\n+\nIIII\n@r2\nAC' > "$D/b4.fq"
    printf 'ACGT\n>x\nACGT\n' > "$D/b5.fa"
    run -2 agrep-gpu --dna -c ACG "$D/b1.fq" "$D/g.fa"
    assert_line "$D/b1.fq:1"
    assert_line "$D/g.fa:1"
    assert_line --partial "b1.fq: record 2: quality and sequence differ in length"
    run -2 agrep-gpu --dna -c ACG "$D/b2.fq"
    assert_line --partial "b2.fq: record 1: no '+' line"
    run -2 agrep-gpu --dna ACG "$D/b4.fq"
    assert_line --partial "b4.fq: record 2: truncated record"
    assert_line --index 0 '@r1'
    run -2 agrep-gpu --dna --records=fasta ACG "$D/b5.fa"
    assert_line --partial "b5.fa: record 1: sequence before the first '>' header"
    # -l and -m stop before the malformed record, as grep stops reading:
    # no message, whatever the batches (the reader may have got there)
    for b in 1 1000000; do
        AGREP_GPU_REC_BATCH=$b run -0 agrep-gpu --dna -l ACG "$D/b1.fq"
        assert_output "$D/b1.fq"
        AGREP_GPU_REC_BATCH=$b run -0 agrep-gpu --dna -m1 ACG < "$D/b1.fq"
        assert_output "$(head -4 "$D/b1.fq")"
    done
}

@test "compressed records (--decompress): the same records and rows" {
    gzip -c "$D/r.fq" > "$D/r.fq.gz"
    xz -c "$D/g.fa" > "$D/g.fa.xz"
    run agrep-gpu --dna --decompress "$P515" "$D/r.fq.gz"
    assert_output "$(sed -n '1,4p;9,12p' "$D/r.fq")"
    run agrep-gpu --dna --decompress --hits "$P515" "$D/g.fa.xz"
    assert_output "$(agrep-gpu --dna --hits "$P515" "$D/g.fa")"
    run agrep-gpu --dna --decompress --records=fastq -c "$P515" < "$D/r.fq.gz"
    assert_output 2
}

@test "real genomes (kleborate-examples): every site of 515F at k=0 as seqkit locate finds it" {
    local dir=/usr/share/doc/kleborate/examples/data f n=0 i=0 ng=0
    command -v seqkit >/dev/null && [ -d "$dir" ] ||
        skip "seqkit or kleborate-examples missing: 'make deps' installs them"
    # (make check: the first genome of the four; seven sites or more a
    # genome searched, 28 over the four)
    for f in "$dir"/*.fna.xz; do
        ((ALL || i++ == 0)) || continue
        ng=$((ng + 1))
        xz -dc "$f" > "$D/k.fna"
        seqkit locate -d -p "$P515" "$D/k.fna" | tail -n +2 |
            awk -F'\t' '{print $1"\t"$4"\t"$5-1"\t"$6}' | sort > "$D/sk"
        agrep-gpu --dna --decompress --hits "$P515" "$f" | tail -n +2 |
            awk -F'\t' '{print $2"\t"$4"\t"$5"\t"$6}' | sort > "$D/ag"
        diff "$D/sk" "$D/ag"
        n=$((n + $(wc -l < "$D/ag")))
    done
    [ "$n" -ge $((7 * ng)) ]
}

@test "real reads (artfastqgenerator-examples): the records seqkit grep selects, byte for byte" {
    local q=/usr/share/doc/artfastqgenerator/examples/test1.fastq.gz p
    command -v seqkit >/dev/null && [ -f "$q" ] ||
        skip "seqkit or artfastqgenerator-examples missing: 'make deps' installs them"
    # (make check: two of the four, a short one and the degenerate one)
    for p in $(depth "GGAACCAGG ACGRYCAN" "AATCAAGGTACATTCA GGAACCAGG TTTTTTTTTTTT ACGRYCAN"); do
        diff <(seqkit grep -s -d -p "$p" "$q") \
            <(agrep-gpu --dna --decompress "$p" "$q")
    done
}

@test "many patterns over one long record: every engine, piece size and -j gives the same sites" {
    # 400 kbp of random bases in one record (make check: 60 kbp, still
    # 6 batches of 10 KB below; the scalar engine's runs are most of the
    # test's time), 120 guides of 23 bases taken from it:
    # the shared filter and the pattern-parallel engine mark one end a
    # record for -c, and every site for --hits.
    python3 - "$D/long.fa" "$D/guides.fa" "$(depth 60000 400000)" <<'PY'
import random, sys
random.seed(5)
s = bytes(random.choices(b'ACGT', k=int(sys.argv[3])))
with open(sys.argv[1], 'wb') as f:
    f.write(b'>long\n')
    for i in range(0, len(s), 60):
        f.write(s[i:i + 60] + b'\n')
with open(sys.argv[2], 'wb') as f:
    for i in range(120):
        a = random.randrange(len(s) - 23)
        f.write(b'>g%d\n%s\n' % (i, s[a:a + 23]))
PY
    agrep-gpu --dna --hits -k2 -f "$D/guides.fa" "$D/long.fa" > "$D/ref"
    [ "$(tail -n +2 "$D/ref" | awk '$3 == 0' | wc -l)" -ge 120 ]
    # (slow builds: three of the engines; make check: -c on all but the
    # scalar one, whose run was a sixth of the test)
    for e in $(depth "scalar pp multi nofilter seed" "scalar pp multi nofilter seed" "pp multi seed"); do
        AGREP_GPU_HOST_ENGINE=$e agrep-gpu --dna --hits -k2 -f "$D/guides.fa" "$D/long.fa" | diff "$D/ref" -
        ((ALL)) || [ "$e" != scalar ] || continue
        AGREP_GPU_HOST_ENGINE=$e agrep-gpu --dna -c -k2 -f "$D/guides.fa" "$D/long.fa" | grep -qx 1
    done
    # with N runs and soft-masked stretches: the seed filter's windows
    # around the runs (seed.c)
    awk 'NR > 1 && NR % 97 == 0 { $0 = "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN" }
        NR > 1 && NR % 89 == 0 { $0 = tolower($0) } { print }' "$D/long.fa" > "$D/longn.fa"
    AGREP_GPU_HOST_ENGINE=scalar agrep-gpu --dna --hits -k3 -f "$D/guides.fa" "$D/longn.fa" > "$D/refn"
    AGREP_GPU_HOST_ENGINE=seed agrep-gpu --dna --hits -k3 -f "$D/guides.fa" "$D/longn.fa" | diff "$D/refn" -
    AGREP_GPU_REC_PIECE=3000 AGREP_GPU_REC_BATCH=10000 agrep-gpu -j3 --dna --hits -k2 -f "$D/guides.fa" "$D/long.fa" | diff "$D/ref" -
    agrep-gpu -j1 --dna --hits -k2 -f "$D/guides.fa" "$D/long.fa" | diff "$D/ref" -
    # the batches on POCL (the OpenCL device path)
    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu --dna --hits -k2 -f "$D/guides.fa" "$D/long.fa" | diff "$D/ref" -
    agrep-gpu --dna -k2 -f "$D/guides.fa" "$D/long.fa" > "$D/recs"
    AGREP_GPU_HOST_MAX=0 agrep-gpu --device=cpu --dna -k2 -f "$D/guides.fa" "$D/long.fa" | diff "$D/recs" -
}

@test "the planners probe a FASTQ file's sequence lines, not its names and qualities" {
    python3 - "$D/probe.fq" <<'PY'
import random, sys
r = random.Random(5)
with open(sys.argv[1], 'w') as f:
    for i in range(100):
        s = ''.join(r.choice('ACGT') for _ in range(150))
        f.write('@r%d\n%s\n+\n%s\n' % (i, s, 'I' * 150))
PY
    # (the planner probes in automatic mode: --device=auto whatever the
    # environment names)
    run env AGREP_GPU_STATS=1 agrep-gpu --device=auto --dna -c -k1 ACGTACGTACGTAAAC "$D/probe.fq"
    [[ "$output" == *"host probe: 15100 bytes"* ]]
}

@test "--delimiter: text records (paragraphs, mail), newlines inside them ordinary, printed whole" {
    printf 'In the beginning\nGod created\n\nAnd the evening and the\nmorning were the first day\n\n\nother\n' > "$D/para"
    run agrep-gpu --delimiter='$$' -k1 'evening and the morning' "$D/para"
    assert_output "$(printf 'And the evening and the\nmorning were the first day\n\n')"
    run agrep-gpu --delimiter= -c -k1 'evening and the morning' "$D/para"
    assert_output 1
    run agrep-gpu --delimiter='$$' -v -c 'evening' "$D/para"
    assert_output 2
    printf 'From a\nhello world\nFrom b\nhello\nworld\nFrom c\nnothing\n' > "$D/mbox"
    run agrep-gpu --delimiter='^From ' -E 'hello\sworld' "$D/mbox"
    assert_output "$(head -5 "$D/mbox")"
    # a site across a line: o, newline, w
    run agrep-gpu --delimiter='^From ' --hits=bed 'o.w' "$D/mbox"
    assert_output "$(printf '1\t11\t14\to.w\t0\t+\n2\t11\t14\to.w\t0\t+')"
    # from a pipe, -m, -l
    run agrep-gpu --delimiter='^From ' -m1 hello < "$D/mbox"
    assert_output "$(head -2 "$D/mbox")"
    run -2 agrep-gpu --delimiter='^From ' -n hello "$D/mbox"
}

@test "mangled FASTA and FASTQ: exit 0, 1 or 2, never a crash or a hang" {
    # Valid files cut, spliced and sprinkled with NULs, CRs, '>', '@' and
    # '+' at random places, searched as records of every kind.
    # (full: 600 files, each as records of every kind; quick: 8, each
    # as one kind in turn, every kind on two or three files)
    python3 - "$D/mangled" "$(depth 8 600)" <<'PY'
import os, random, sys
random.seed(13)
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
base = [b'>a x\nACGTNNacgtGTGCCAGC\nAGCCGCGGTAA\n>b\nTTACCGCGGCTGCTGGCAC\n',
        b'@r1\nACGTGTGCCAGCAGCC\n+\nIIIIIIIIIIIIIIII\n@r2\nTTTT\n+r2\n@@@@\n']
for i in range(n):
    t = bytearray(random.choice(base) * random.randint(1, 4))
    for _ in range(random.randint(1, 6)):
        op = random.randrange(4)
        at = random.randrange(len(t) + 1)
        if op == 0:
            t = t[:at]
        elif op == 1:
            t[at:at] = bytes([random.choice(b'\0\r\n>@+ACGTI')]) * random.randint(1, 3)
        elif op == 2 and len(t) > 0:
            del t[at:at + random.randint(1, 5)]
        else:
            t[at:at] = t[:random.randrange(len(t) + 1)]
    open('%s/%d' % (d, i), 'wb').write(t)
PY
    local f rc nf=0 nk
    for f in "$D"/mangled/*; do
        nf=$((nf + 1)) nk=0
        for kind in auto fasta fastq; do
            ((ALL || nk++ == nf % 3)) || continue
            rc=0
            timeout 20 agrep-gpu --dna --records=$kind -k1 --hits GTGCCAGCAGCCGCGGTAA "$f" > /dev/null 2>&1 || rc=$?
            [ "$rc" -le 2 ] || { echo "$f --records=$kind: exit $rc"; return 1; }
            rc=0
            timeout 20 agrep-gpu --dna --records=$kind -c ACGT "$f" > /dev/null 2>&1 || rc=$?
            [ "$rc" -le 2 ] || { echo "$f --records=$kind -c: exit $rc"; return 1; }
        done
    done
}

@test "random records against the oracle (tests/records_oracle.sh)" {
    [ -x "$TOP/tests/bin/recoracle" ] || skip "tests/bin/recoracle missing: make test-progs"
    cd "$TOP"
    # (full: 400 seeds; quick: 6)
    run tests/records_oracle.sh "$(depth 6 400)"
    assert_success
}

@test "a FASTA file read in spans side by side: the output of the line-by-line parse, faults included" {
    # records.c's spans (AGREP_GPU_REC_SPAN: a few bytes to a few KB here;
    # -j1 parses line by line): wrapped records, CRLF, blank lines, '>'
    # inside a line, one-base lines, a line longer than a span, and the
    # faults (an empty sequence in the middle and at the end, sequence
    # before the first header, a last header without its newline); -m
    # stops the search, and the spans after it are not read (span_skip).
    # (make check: the first 30 of the 60 records, 35 of the 85 KB: a
    # record of 2,500 bases on one line still among them; a span of a
    # few bytes costs by the byte)
    python3 - "$D/sp" "$(depth 30 60)" <<'PY'
import os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
os.makedirs(d, exist_ok=True)
random.seed(38)
def rec(name, n, w):
    s = ''.join(random.choice('acgtACGTN') for _ in range(n))
    return '>' + name + ' x\n' + ''.join(s[i:i + w] + '\n' for i in range(0, n, w))
recs = [rec('r%d' % i, random.choice([1, 20, 300, 2500]), random.choice([1, 7, 60, 61, 5000])) for i in range(n)]
body = ''.join(recs)
cases = {
    'plain': body,
    'crlf': body.replace('\n', '\r\n'),
    'odd': '\n\r\n' + body.replace('\n>r5', '\n\n>r5').replace('acg', 'a>cg', 3),
    'empty_mid': ''.join(recs[:n // 2]) + '>empty\n' + ''.join(recs[n // 2:]),
    'empty_end': body + '>emptyend\n',
    'seq_first': 'acgt\n' + body,
    'hdr_eof': body + '>nonl',
}
for k, v in cases.items():
    open(os.path.join(d, k + '.fa'), 'w').write(v)
open(os.path.join(d, 'pats'), 'w').write('acgtacgtac\nttgcaNNa\ngattacagattaca\n')
PY
    # (make check: each file two of the six options, those where the
    # file's place plus the option's is a multiple of 3, at one span
    # each, in turn: every file at both spans, every option at both spans
    # on two or three files; below, each file one of the four options of
    # the batches, the place plus the option's a multiple of 4, with one
    # pattern in turn: every option and both patterns met)
    local f sp o sps="5 997" nf=0 no j
    ! slow_build || sps=61	# (CI's time)
    local -a spa
    read -ra spa <<< "$sps"
    for f in "$D"/sp/*.fa; do
        nf=$((nf + 1)) no=0
        for o in -c --hits "-c -m3" -l -L -q; do
            no=$((no + 1))
            ((ALL || (nf + no) % 3 == 0)) || continue
            run agrep-gpu -j1 --dna $o -k2 -f "$D/sp/pats" "$f"
            local want="$output" wrc=$status
            for sp in $(depth "${spa[(nf + no) / 3 % ${#spa[@]}]}" "$sps"); do
                AGREP_GPU_REC_SPAN=$sp run agrep-gpu -j3 --dna $o -k2 -f "$D/sp/pats" "$f"
                [ "$status" = "$wrc" ] && [ "$output" = "$want" ] ||
                    { echo "$f span $sp $o: exit $status (want $wrc)"; diff <(echo "$want") <(echo "$output") | head; return 1; }
            done
        done
        # records in pieces of 60 bytes across batches of 50: -q, -l and
        # -L select a record by its first hit (records.c), the others at
        # its end; a rare pattern (a record without a hit) and a common one
        local os="-l -L -q -c"
        ! slow_build || os="-l -q"	# (CI's time)
        no=0
        for o in $os; do
            no=$((no + 1))
            ((ALL || (nf + no) % 4 == 0)) || continue
            j=0
            for p in "-k2 -f $D/sp/pats" "-k0 -e acgtacgtac"; do
                ((ALL || (nf + no) / 4 % 2 == j++)) || continue
                # shellcheck disable=SC2086
                run agrep-gpu -j1 --dna $o $p "$f"
                local want="$output" wrc=$status
                # shellcheck disable=SC2086
                AGREP_GPU_REC_BATCH=50 AGREP_GPU_REC_PIECE=60 run agrep-gpu -j3 --dna $o $p "$f"
                [ "$status" = "$wrc" ] && [ "$output" = "$want" ] ||
                    { echo "$f batches of 50 bytes $o $p: exit $status (want $wrc)"; diff <(echo "$want") <(echo "$output") | head; return 1; }
            done
        done
    done
}

@test "a record of 200 Mbp printed whole, in bounded memory: from a file and from a pipe" {
    # One record of 200,000,000 bases in lines of 60, then a short one.
    # The long one is printed byte for byte, its text spooled out of
    # memory past 4 MB (records.c: read again from the file; from a pipe,
    # a temporary file): before, it was held whole, twice (668 MB).
    # (make check: 120,000,000 bases, two fifths of the time less, still
    # past the bound below if the record were held whole once)
    local w="$BATS_TEST_TMPDIR" rss n san=
    n=$(depth 120000000 200000000)
    # (a sanitizer build: 6 MB, past the 4 MiB kept in memory, spooled the
    # same way, in CI's time; its shadow memory is not the tool's, no bound)
    case $AGREP_GPU in */san/*|*/tsan/*) san=1 n=6000000 ;; esac
    # (--device=host: the planner may open POCL for a file this large,
    # 70-90 MB of its own, whatever the records hold)
    { printf '>chr1 long\n'
      yes ACGTTGCATGCCATGGATCCAGTCAGTTGACCATGGTACGTAGCTAGCTTAGCAGTCGAT |
          head -c $n
      printf '\n>chr2\nTTTTTTTTTTTT\n'; } > "$w/long.fa"
    /usr/bin/time -o "$w/rss1" -f %M agrep-gpu --device=host -j2 --dna -k1 GGATCCAGTCAGTTGACC "$w/long.fa" > "$w/out"
    cmp "$w/out" <(head -c $((n + 12)) "$w/long.fa")
    rm "$w/out"
    cat "$w/long.fa" | /usr/bin/time -o "$w/rss2" -f %M agrep-gpu --device=host -j2 --dna -k1 GGATCCAGTCAGTTGACC |
        cmp - <(head -c $((n + 12)) "$w/long.fa")
    # -v: the short record, after the long one (a pipe: its spool dropped)
    run agrep-gpu --dna -v -k1 GGATCCAGTCAGTTGACC < <(cat "$w/long.fa")
    assert_output "$(printf '>chr2\nTTTTTTTTTTTT')"
    echo "max RSS: file $(cat "$w/rss1") KB, pipe $(cat "$w/rss2") KB"
    [ -z "$san" ] || return 0
    [ "$(cat "$w/rss1")" -lt 100000 ]
    [ "$(cat "$w/rss2")" -lt 100000 ]
}

@test "records spooled out of memory (AGREP_GPU_REC_SPILL): the same output from files, pipes, --decompress, at any -j" {
    # Records of up to 3,000 bases (CRLF, unwrapped, wrapped), spooled
    # past a few bytes: every way of reading them prints what the records
    # kept in memory print, -v and -m too.
    python3 - "$D/sp.fa" "$D/sp.fq" <<'PY'
import random, sys
random.seed(7)
with open(sys.argv[1], 'w', newline='') as f:
    for i in range(60):
        s = ''.join(random.choice('ACGT') for _ in range(random.randint(1, 3000)))
        f.write('>r%d desc\n' % i)
        w = random.choice([60, 70, 100000])
        for j in range(0, len(s), w):
            f.write(s[j:j + w] + ('\r\n' if i % 7 == 0 else '\n'))
with open(sys.argv[2], 'w') as f:
    for i in range(60):
        s = ''.join(random.choice('ACGT') for _ in range(random.randint(1, 3000)))
        f.write('@q%d\n%s\n+\n%s\n' % (i, s, 'I' * len(s)))
PY
    local f v c sp j ref cs="1:-j3 100:-j1 5000:-j3" n=0
    # (a sanitizer build: one of the three, CI's time; make check: one
    # of the three a file and option, in turn, each on both files with
    # two of the options, and two of the four ways of reading, the file
    # and the batches from a pipe or the pipe and the compressed file, in
    # turn, each way on both files and with every option)
    ! slow_build || cs="100:-j3"
    local -a csa
    read -ra csa <<< "$cs"
    ag() { AGREP_GPU_REC_SPILL=$sp agrep-gpu $j "$@"; }
    for f in "$D/sp.fa" "$D/sp.fq"; do
        gzip -c "$f" > "$f.gz"
        for v in -k1 "-v -k1" "-m3 -k1"; do
            ref=$(agrep-gpu --dna $v ACGTACGT "$f")
            [ -n "$ref" ]
            c=${csa[(n + n / 3) % ${#csa[@]}]} n=$((n + 1))
            for c in $(depth "$c" "$cs"); do
                sp=${c%:*} j=${c#*:}
                if ((ALL || n % 2)); then
                    [ "$(ag --dna $v ACGTACGT "$f")" = "$ref" ]
                    [ "$(AGREP_GPU_REC_BATCH=1000 AGREP_GPU_REC_PIECE=50 ag --dna $v ACGTACGT < <(cat "$f"))" = "$ref" ]
                fi
                if ((ALL || n % 2 == 0)); then
                    [ "$(cat "$f" | ag --dna $v ACGTACGT)" = "$ref" ]
                    [ "$(ag --dna --decompress $v ACGTACGT "$f.gz")" = "$ref" ]
                fi
            done
        done
    done
    # text records too
    printf 'From a\nhello world\nFrom b\nhello\nworld\nFrom c\nnothing\n' > "$D/mb"
    [ "$(AGREP_GPU_REC_SPILL=3 agrep-gpu --delimiter='^From ' hello < <(cat "$D/mb"))" = "$(head -5 "$D/mb")" ]
    # No temporary file to be had: the records are kept in memory instead.
    [ "$(TMPDIR=/nonexistent AGREP_GPU_REC_SPILL=1 agrep-gpu --dna -k1 ACGTACGT < <(cat "$D/sp.fa"))" = "$(agrep-gpu --dna -k1 ACGTACGT "$D/sp.fa")" ]
    # A temporary file that cannot grow (ulimit -f): a message, exit 2.
    run bash -c "ulimit -f 1; trap '' XFSZ; cat '$D/sp.fa' | AGREP_GPU_REC_SPILL=1 agrep-gpu --dna -k1 ACGTACGT > /dev/null"
    assert_failure 2
    assert_line --partial "cannot keep its text in a temporary file"
}

@test "--hits: a record's rows go out when it is complete (a malformed one spanning batches prints none), held in a temporary file past 256 KiB" {
    # r2's quality is short: it is left out however many batches its
    # sequence took (tiny batches: its rows were printed before).
    printf '@r1\nGATTACAGATTACA\n+\nIIIIIIIIIIIIII\n@r2\nACGTGATTACAACGTGATTACA\n+\nIII\n' > "$D/bq.fq"
    run -2 agrep-gpu --dna --hits=bed -k0 GATTACA "$D/bq.fq"
    assert_line --index 0 "$(printf 'r1\t0\t7\tGATTACA\t0\t+')"
    assert_line --partial 'record 2: quality and sequence differ in length'
    [ "$(grep -c '^r2' <<< "$output")" = 0 ]
    AGREP_GPU_REC_BATCH=4 AGREP_GPU_REC_PIECE=1 run -2 agrep-gpu --dna --hits=bed -k0 GATTACA "$D/bq.fq"
    [ "$(grep -c '^r1' <<< "$output")" = 2 ]
    [ "$(grep -c '^r2' <<< "$output")" = 0 ]
    # 700 kbp with a site every 61 bytes, over 7 batches: 11,000 rows
    # (850 KB) of one record held, most of them in a temporary file, or in
    # memory where none can be made; the same rows as one batch gives.
    { printf '>chr1\n'
      yes ACGTTGCATGCCATGGATCCAGTCAGTTGACCATGGTACGTAGCTAGCTTAGCAGTCGAT |
          head -c 700000
      printf '\n>chr2\nGGATCCAGTCAGTTGACC\n'; } > "$D/rows.fa"
    agrep-gpu --dna --hits -k0 GGATCCAGTCAGTTGACC "$D/rows.fa" > "$D/rows.ref"
    [ "$(wc -l < "$D/rows.ref")" -gt 10000 ]
    AGREP_GPU_REC_PIECE=50000 AGREP_GPU_REC_BATCH=100000 agrep-gpu --dna --hits -k0 GGATCCAGTCAGTTGACC "$D/rows.fa" | cmp - "$D/rows.ref"
    AGREP_GPU_REC_PIECE=50000 AGREP_GPU_REC_BATCH=100000 agrep-gpu -j1 --dna --hits=json -k0 GGATCCAGTCAGTTGACC < <(cat "$D/rows.fa") |
        cmp - <(agrep-gpu --dna --hits=json -k0 GGATCCAGTCAGTTGACC "$D/rows.fa")
    TMPDIR=/nonexistent AGREP_GPU_REC_PIECE=50000 AGREP_GPU_REC_BATCH=100000 agrep-gpu --dna --hits -k0 GGATCCAGTCAGTTGACC "$D/rows.fa" | cmp - "$D/rows.ref"
    # (the temporary file is used: one that cannot grow is a message)
    run bash -c "ulimit -f 100; trap '' XFSZ; AGREP_GPU_REC_PIECE=50000 AGREP_GPU_REC_BATCH=100000 agrep-gpu --dna --hits -k0 GGATCCAGTCAGTTGACC '$D/rows.fa' > /dev/null"
    assert_failure 2
    assert_output --partial "record 1: cannot keep its rows in a temporary file"
}

@test "--dna: U (RNA's T) is T on both strands, as its reverse complement (A) is" {
    # AAGU on the forward text, ACTT (its reverse complement) on the
    # reverse complement of that text: the same site, on both strands
    printf '>f\nTTTAAGTTT\n' > "$D/u.fa"
    printf '>r\nAAACTTAAA\n' > "$D/urc.fa"
    run agrep-gpu --dna --hits=bed -k0 AAGU "$D/u.fa"
    assert_output "$(printf 'f\t3\t7\tAAGU\t0\t+')"
    run agrep-gpu --dna --hits=bed -k0 AAGU "$D/urc.fa"
    assert_output "$(printf 'r\t2\t6\tAAGU\t0\t-')"
    run agrep-gpu --dna --hits=bed -k0 aagu "$D/u.fa"
    assert_output "$(printf 'f\t3\t7\taagu\t0\t+')"
    # a text U is no base, as a text N
    run -1 agrep-gpu --dna -c -k0 --strand=+ ACGU <(printf '>x\nACGU\n')
    assert_output 0
}

@test "--hits (TSV): one header line for the whole table, whatever the files, -h/-H and -j" {
    printf '>a1\nACGTTGCAAGTCC\n' > "$D/h1.fa"
    printf '>b1\nTTTTTTTT\n' > "$D/h2.fa"
    printf '@c1\nGGACTTGCAACGT\n+\nIIIIIIIIIIIII\n' > "$D/h3.fq"
    for j in 1 2; do
        run agrep-gpu -j$j --dna --hits -k0 ACGTTGCAAGT "$D/h2.fa" "$D/h1.fa" "$D/h3.fq" "$D/h1.fa"
        assert_output "$(printf 'file\tpat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar
%s\tACGTTGCAAGT\ta1\t0\t+\t0\t11\tACGTTGCAAGT\t11=
%s\tACGTTGCAAGT\tc1\t0\t-\t2\t13\tACTTGCAACGT\t11=
%s\tACGTTGCAAGT\ta1\t0\t+\t0\t11\tACGTTGCAAGT\t11=' "$D/h1.fa" "$D/h3.fq" "$D/h1.fa")"
        run agrep-gpu -j$j --dna --hits -h -k0 ACGTTGCAAGT "$D/h1.fa" "$D/h1.fa"
        assert_output "$(printf 'pat_id\ttext_id\tcost\tstrand\tstart\tend\tmatch_region\tcigar
ACGTTGCAAGT\ta1\t0\t+\t0\t11\tACGTTGCAAGT\t11=
ACGTTGCAAGT\ta1\t0\t+\t0\t11\tACGTTGCAAGT\t11=')"
    done
    run -1 agrep-gpu --dna --hits -k0 ACGTTGCAAGT "$D/h2.fa" "$D/h2.fa"
    assert_output ''
}

@test "--hits=json: a header, file name or site that is not UTF-8 is {\"bytes\":base64}, the line valid JSON" {
    printf '>r\xff1 x\nTTTACGTACGTT\n' > "$D/nu.fa"
    run agrep-gpu --dna --hits=json --strand=+ -k0 ACGTACG "$D/nu.fa"
    assert_success
    assert_output '{"type":"hit","pat_id":"ACGTACG","text_id":{"bytes":"cv8x"},"cost":0,"strand":"+","start":3,"end":10,"match_region":"ACGTACG","cigar":"7="}'
    local first="$output"
    # lines of text: the site's bytes
    run agrep-gpu --hits=json --records=lines -k1 cafe < <(printf 'xx ca\xe9e x\n')
    assert_success
    assert_output '{"type":"hit","pat_id":"cafe","text_id":"1","cost":1,"strand":"+","start":3,"end":7,"match_region":{"bytes":"Y2HpZQ=="},"cigar":"2=1X1="}'
    # each line valid JSON (one python for both)
    printf '%s\n' "$first" "$output" | python3 -c 'import json, sys; [json.loads(l) for l in sys.stdin]'
}

#!/usr/bin/env bats
# --decompress (issue 37): every input whose first bytes name gzip, BGZF,
# zstd, xz, bzip2 or lz4 is searched decoded.  The reference is never
# agrep-gpu's own decoding: each file is made by the system's compressor
# (gzip, pigz, bgzip, zstd, pzstd, xz, bzip2, lz4), and its search must be
# byte-identical, output and exit status, to the search of the plain text
# it was made from, over grep's option matrix, from a file operand and from
# standard input, at -j1 and -j2, tiny chunks (ranges and the stream's
# long-record tail), and on POCL.  Members and frames are concatenated with
# their boundaries inside a line and inside a UTF-8 character.  Then the
# faults: truncated and corrupt inputs (a message naming the file and a
# byte offset, exit status 2, the other files still searched, the decoded
# part searched as zcat gives it), the note on compressed files searched
# without the option, and a decompression bomb in bounded memory.
load test_helper

D="$BATS_FILE_TMPDIR"

# The formats: NAME and the command that compresses standard input.
FORMATS=(
    "gz:gzip -6"
    "pigz:pigz -p 2"
    "bgzf:bgzip -c"
    "zst:zstd -q -c"
    "xz:xz -c"
    "bz2:bzip2 -c"
    "lz4:lz4 -q -c"
)

setup_file() {
    local t f name cmd
    for t in bible gzip pigz bgzip zstd pzstd xz bzip2 lz4; do
        command -v "$t" >/dev/null ||
            { echo "$t missing: 'make deps' installs it" >&2; return 1; }
    done
    mkdir -p "$D/plain"
    # 300 KB of Bible, lines in UTF-8 (two- and three-byte characters),
    # CRLF lines, a line with no terminator at the end
    {
        bible "Gen1:1-Exo40:38" | head -c 300000
        printf 'caf\xc3\xa9 mercy na\xc3\xafve \xe2\x82\xac10 merci\n'
        printf 'mercy with a CR\r\n'
        printf 'the last line, no newline, mercy'
    } > "$D/plain/t"
    : > "$D/plain/empty"
    printf 'm' > "$D/plain/one"
    for f in "${FORMATS[@]}"; do
        name=${f%%:*} cmd=${f#*:}
        mkdir -p "$D/$name"
        for t in t empty one; do
            $cmd < "$D/plain/$t" > "$D/$name/$t"
        done
    done
    # several members / frames / streams, cut inside a line and inside the
    # UTF-8 character é (its offset found in the text)
    local u8 cut1 cut2
    u8=$(grep -abo $'caf\xc3' "$D/plain/t" | head -1 | cut -d: -f1)
    cut1=123457 cut2=$((u8 + 4))
    head -c "$cut1" "$D/plain/t" > "$D/p1"
    tail -c +"$((cut1 + 1))" "$D/plain/t" | head -c "$((cut2 - cut1))" > "$D/p2"
    tail -c +"$((cut2 + 1))" "$D/plain/t" > "$D/p3"
    for f in "gzm:gzip -1" "zstm:zstd -q -c" "xzm:xz -c" "bz2m:bzip2 -c" "lz4m:lz4 -q -c"; do
        name=${f%%:*} cmd=${f#*:}
        mkdir -p "$D/$name"
        cat <($cmd < "$D/p1") <($cmd < "$D/p2") <($cmd < "$D/p3") > "$D/$name/t"
    done
    mkdir -p "$D/pzstd"
    pzstd -q -p 2 -c < "$D/plain/t" > "$D/pzstd/t"
    # BGZF with blocks cut by bgzip, several blocks (64 KB each)
    echo "gzm zstm xzm bz2m lz4m pzstd" > "$D/multi"
}

# --json's timings left out
untimed() {
    sed -E 's/"elapsed(_total)?":\{[^}]*\}//g'
}

# same DIR ARGS...: agrep-gpu --decompress ARGS over DIR/t against
# agrep-gpu ARGS over plain/t, run in each directory (same names).  With
# KEEP_PLAIN set and PLAIN an associative array (a test whose calls with
# the same ARGS have the same environment), the plain search of each ARGS
# runs once, its output and status kept for the other formats.
same() {
    local dir=$1 rc=0 prc=0 exp="$BATS_TEST_TMPDIR/exp"
    shift
    if [ -n "${KEEP_PLAIN:-}" ] && [ -n "${PLAIN[$*]:-}" ]; then
        exp=${PLAIN[$*]%:*} prc=${PLAIN[$*]##*:}
    else
        [ -z "${KEEP_PLAIN:-}" ] || exp="$BATS_TEST_TMPDIR/exp.${#PLAIN[@]}"
        (cd "$D/plain" && agrep-gpu "$@" 2>&1 | untimed > "$exp";
            exit "${PIPESTATUS[0]}") || prc=$?
        [ -z "${KEEP_PLAIN:-}" ] || PLAIN[$*]="$exp:$prc"
    fi
    (cd "$D/$dir" && agrep-gpu --decompress "$@" 2>&1 | untimed > "$BATS_TEST_TMPDIR/out";
        exit "${PIPESTATUS[0]}") || rc=$?
    if [ "$rc" != "$prc" ] || ! cmp -s "$exp" "$BATS_TEST_TMPDIR/out"; then
        echo "MISMATCH: (cd $dir && agrep-gpu --decompress $*): rc $rc, plain $prc"
        diff "$exp" "$BATS_TEST_TMPDIR/out" | head -5
        FAILED=1
    fi
}

# The option matrix of the issue, each with one pattern.
MATRIX=(
    "-c -k1 mercy t"
    "-n -k2 -i mercie t"
    "-b -o -k1 mercy t"
    "-v -c -k1 the t"
    "-l -k1 mercy t empty one"
    "-L -k1 mercy t empty one"
    "-m 3 -n -k1 mercy t"
    "-C 2 -n -k1 mercie t"
    "-A 1 -B 3 -k1 merci t"
    "-w -c -k1 merci t"
    "-x -k3 mercy t"
    "--json -k1 mercy one t"
    "--show-cost -n -k2 caf t"
    "-c -k1 m one empty"
)

@test "--decompress: every format, single member, identical to the plain text over the option matrix" {
    FAILED=0
    local f name args fi=0 ai
    # (the plain search of each line of the matrix run once: same's
    # KEEP_PLAIN)
    local KEEP_PLAIN=1
    local -A PLAIN=()
    # quick and slow builds: each format a third of the matrix, the thirds
    # in turn, so that every option meets every third format (two to five
    # of the thirteen: the files of several members have no empty or
    # one-byte companions) (full: all of it)
    local every
    every=$(depth 3 1 3)
    for f in "${FORMATS[@]}" "gzm:" "zstm:" "xzm:" "bz2m:" "lz4m:" "pzstd:"; do
        name=${f%%:*}
        fi=$((fi + 1)) ai=0
        for args in "${MATRIX[@]}"; do
            ai=$((ai + 1))
            [ $(((ai + fi) % every)) = 0 ] || continue
            case $name:$args in
            gzm:*empty*|zstm:*empty*|xzm:*empty*|bz2m:*empty*|lz4m:*empty*|pzstd:*empty*) continue ;;
            gzm:*one*|zstm:*one*|xzm:*one*|bz2m:*one*|lz4m:*one*|pzstd:*one*) continue ;;
            esac
            # shellcheck disable=SC2086
            same "$name" $args
        done
    done
    [ "$FAILED" = 0 ]
}

@test "--decompress: standard input, -j1 and -j2, tiny chunks, POCL: the same lines" {
    FAILED=0
    local name exp n=0 e all=0
    [ "$(depth quick full)" = quick ] || all=1
    # (the plain search of each set of arguments run once, POCL's too:
    # same's KEEP_PLAIN)
    local KEEP_PLAIN=1
    local -A PLAIN=()
    exp=$(agrep-gpu -n -k1 mercy < "$D/plain/t")
    # (quick: one chunk size at -j1 or -j2, and one of the two file runs,
    # in turn a format: each chunk size on three or four formats, at both
    # -j; full: all)
    for name in gz bgzf zst xz bz2 lz4 gzm zstm lz4m pzstd; do
        n=$((n + 1)) e=0
        for envs in "" "AGREP_GPU_CHUNK=4096" "AGREP_GPU_CHUNK=300"; do
            ((all || n % 3 == e++)) || continue
            for j in 1 2; do
                ((all || (n / 3 + j) % 2)) || continue
                out=$(env $envs agrep-gpu --decompress -j$j -n -k1 mercy < "$D/$name/t")
                [ "$out" = "$exp" ] || { echo "MISMATCH stdin $name $envs -j$j"; FAILED=1; }
            done
        done
        if ((all || n % 2)); then
            same "$name" -j1 -c -k1 mercy t
        fi
        if ((all || n % 2 == 0)); then
            AGREP_GPU_CHUNK=4096 same "$name" -j2 -n -k1 mercy t
        fi
    done
    # standard input that is not compressed, with --decompress
    out=$(agrep-gpu --decompress -n -k1 mercy < "$D/plain/t")
    [ "$out" = "$exp" ] || { echo "MISMATCH plain stdin"; FAILED=1; }
    out=$(cat "$D/plain/t" | agrep-gpu --decompress -n -k1 mercy)
    [ "$out" = "$exp" ] || { echo "MISMATCH plain pipe"; FAILED=1; }
    # on POCL (the devices scanning the decoded ranges)
    for name in gz bgzf zstm; do
        AGREP_GPU_HOST_MAX=0 same "$name" --device=cpu -n -k1 mercy t
    done
    [ "$FAILED" = 0 ]
}

@test "--decompress: -r over a tree of compressed and plain files, names kept" {
    mkdir -p "$BATS_TEST_TMPDIR/tree/a"
    cp "$D/gz/t" "$BATS_TEST_TMPDIR/tree/a/t.gz"
    cp "$D/xz/t" "$BATS_TEST_TMPDIR/tree/t.xz"
    cp "$D/plain/t" "$BATS_TEST_TMPDIR/tree/a/plain"
    cd "$BATS_TEST_TMPDIR/tree"
    run agrep-gpu --decompress -r -c -k1 mercy .
    assert_success
    n=$(agrep-gpu -c -k1 mercy "$D/plain/t")
    assert_output "$(printf './a/plain:%s\n./a/t.gz:%s\n./t.xz:%s' "$n" "$n" "$n" | sort)"
}

@test "--decompress: a record longer than a range, across members (the stream's tail)" {
    local long="$BATS_TEST_TMPDIR/long"
    { head -c 200000 "$D/plain/t"; head -c 3000000 /dev/zero | tr '\0' 'a'; echo mercy; head -c 100000 "$D/plain/t"; } > "$long"
    cat <(head -c 1000000 "$long" | gzip -1) <(tail -c +1000001 "$long" | gzip -1) > "$long.gz"
    exp=$(agrep-gpu -c -b -k1 mercy < "$long")
    for c in "" 65536; do
        out=$(AGREP_GPU_CHUNK=$c agrep-gpu --decompress -c -b -k1 mercy "$long.gz")
        [ "$out" = "$exp" ]
    done
    exp=$(agrep-gpu -b -o -k1 mercy < "$long")
    out=$(AGREP_GPU_CHUNK=65536 agrep-gpu --decompress -b -o -k1 mercy < "$long.gz")
    [ "$out" = "$exp" ]
}

@test "--decompress: BGZF and zstd frames as spans the workers decode: carries, a long record, a bad block mid-file, a cut one" {
    # ranges of 64 and 128 KB: a BGZF block (64 KB) or 40 KB zstd frame
    # (sized and not) a span or two, records carried from span to span; a
    # record of 200 KB (the stream decoder takes the rest); then a block
    # made corrupt (the rest from it: its byte, status 2, -j1 as -j3)
    # (make check: the ranges at -j1 or -j3, in turn, each format and size
    # at both)
    local w="$BATS_TEST_TMPDIR" c j f fo=0 co
    { cat "$D/plain/t"; head -c 150000 /dev/zero | tr '\0' 'y'; echo mercy
      cat "$D/plain/t"; } > "$w/sp"
    bgzip -c < "$w/sp" > "$w/sp.bgz"
    split -b 40000 "$w/sp" "$w/piece."
    for f in "$w"/piece.a[a-m]; do zstd -q -c "$f"; done > "$w/sp.zst"
    for f in "$w"/piece.*[n-z]; do zstd -q -c --no-content-size "$f"; done >> "$w/sp.zst"
    for f in bgz zst; do
        fo=$((fo + 1)) co=0
        for c in 131072 262144; do
            co=$((co + 1))
            for j in $(depth $(((fo + co) % 2 ? 3 : 1)) "1 3"); do
                exp=$(AGREP_GPU_CHUNK=$c agrep-gpu -j$j -n -b -k1 mercy < "$w/sp")
                # a regular file: the reader reads the units' headers,
                # the workers their bytes; a pipe: the reader reads all
                out=$(AGREP_GPU_CHUNK=$c agrep-gpu --decompress -j$j -n -b -k1 mercy < "$w/sp.$f")
                [ "$out" = "$exp" ] || { echo "MISMATCH $f $c -j$j"; return 1; }
                out=$(cat "$w/sp.$f" | AGREP_GPU_CHUNK=$c agrep-gpu --decompress -j$j -n -b -k1 mercy)
                [ "$out" = "$exp" ] || { echo "MISMATCH $f $c -j$j, a pipe"; return 1; }
            done
        done
    done
    cp "$w/sp.bgz" "$w/bad.bgz"
    printf '\x55\x55' | dd of="$w/bad.bgz" bs=1 seek=70000 conv=notrunc 2>/dev/null
    run env AGREP_GPU_CHUNK=131072 agrep-gpu --decompress -j1 -c -k1 mercy "$w/bad.bgz"
    assert_failure 2
    assert_output --regexp "bad.bgz: .*byte [0-9]+"
    one=$output
    run env AGREP_GPU_CHUNK=131072 agrep-gpu --decompress -j3 -c -k1 mercy "$w/bad.bgz"
    [ "$output" = "$one" ]
    run env AGREP_GPU_CHUNK=131072 AGREP_GPU_DZ_SPARSE=0 agrep-gpu --decompress -j3 -c -k1 mercy "$w/bad.bgz"
    [ "$output" = "$one" ]
    # the same, cut short in a block, as a zstd frame
    head -c 90000 "$w/sp.bgz" > "$w/cut.bgz"
    head -c 90000 "$w/sp.zst" > "$w/cut.zst"
    for f in bgz zst; do
        run env AGREP_GPU_CHUNK=131072 agrep-gpu --decompress -j3 -n -k1 mercy "$w/cut.$f"
        assert_failure 2
        assert_output --regexp "cut.$f: .*byte 90000"
        one=$output
        run env AGREP_GPU_CHUNK=131072 AGREP_GPU_DZ_SPARSE=0 agrep-gpu --decompress -j3 -n -k1 mercy "$w/cut.$f"
        [ "$output" = "$one" ]
    done
}

@test "--decompress: truncated and corrupt inputs: the byte, status 2, the decoded part searched, the other files too" {
    local w="$BATS_TEST_TMPDIR" name
    for name in gz bgzf zst xz bz2 lz4; do
        head -c 40000 "$D/$name/t" > "$w/trunc.$name"
        run agrep-gpu --decompress -c -k1 mercy "$w/trunc.$name" "$D/plain/t"
        assert_failure 2
        assert_line --partial "trunc.$name: "
        assert_line --regexp "trunc\.$name: .*byte [0-9]+"
        assert_line "$D/plain/t:$(agrep-gpu -c -k1 mercy "$D/plain/t")"
    done
    # the decoded part: as zcat gives it
    zcat "$w/trunc.gz" 2>/dev/null | agrep-gpu -n -k1 mercy > "$w/exp" || true
    agrep-gpu --decompress -n -k1 mercy "$w/trunc.gz" > "$w/out" 2>/dev/null || true
    # (zcat may give a few more bytes of the last, cut, block)
    [ -s "$w/out" ]
    cmp -s "$w/out" <(head -n "$(wc -l < "$w/out")" "$w/exp")
    # a wrong CRC in the gzip trailer, a flipped byte in the middle
    cp "$D/gz/t" "$w/crc.gz"
    size=$(stat -c %s "$w/crc.gz")
    printf '\x00\x00\x00\x00' | dd of="$w/crc.gz" bs=1 seek=$((size - 8)) conv=notrunc 2>/dev/null
    run agrep-gpu --decompress -c -k1 mercy "$w/crc.gz"
    assert_failure 2
    assert_output --regexp "crc.gz: .*byte [0-9]+"
    cp "$D/xz/t" "$w/flip.xz"
    printf '\x55' | dd of="$w/flip.xz" bs=1 seek=5000 conv=notrunc 2>/dev/null
    run agrep-gpu --decompress -q mercy "$w/flip.xz"
    # -q: a match may end the search before the fault is reached
    [ "$status" = 0 ] || [ "$status" = 2 ]
    run agrep-gpu --decompress -c -k1 zzzzzzzz "$w/flip.xz"
    assert_failure 2
    # -s: no message, still status 2
    run agrep-gpu --decompress -s -c mercy "$w/trunc.gz"
    assert_failure 2
    refute_output --partial "byte"
}

@test "--decompress: a decompression library that cannot be loaded: its name, status 2, the other files searched" {
    local name
    for name in gz bgzf zst xz bz2 lz4; do
        AGREP_GPU_DZ_NOLIB=1 run agrep-gpu --decompress -c -k1 mercy "$D/$name/t" "$D/plain/t"
        assert_failure 2
        assert_line --regexp "^agrep-gpu: $D/$name/t: [A-Za-z0-9]+: AGREP_GPU_DZ_NOLIB is set\$"
        assert_line "$D/plain/t:$(agrep-gpu -c -k1 mercy "$D/plain/t")"
        AGREP_GPU_DZ_NOLIB=1 run agrep-gpu --decompress -c -k1 mercy < "$D/$name/t"
        assert_failure 2
        assert_line --partial "(standard input): "
    done
    # plain files do not load any
    AGREP_GPU_DZ_NOLIB=1 run agrep-gpu --decompress -c -k1 mercy "$D/plain/t"
    assert_success
    # sequence records (their first bytes decoded to tell FASTQ): one message
    printf '@r1\nACGTACGTAAACCCGGGTTT\n+\nIIIIIIIIIIIIIIIIIIII\n' | gzip > "$BATS_TEST_TMPDIR/r.fq.gz"
    AGREP_GPU_DZ_NOLIB=1 run agrep-gpu --dna --decompress -c -k1 AAACCCGGG "$BATS_TEST_TMPDIR/r.fq.gz"
    assert_failure 2
    assert_output "agrep-gpu: $BATS_TEST_TMPDIR/r.fq.gz: gzip: AGREP_GPU_DZ_NOLIB is set"
    run agrep-gpu --dna --decompress -c -k1 AAACCCGGG "$BATS_TEST_TMPDIR/r.fq.gz"
    assert_output "1"
}

@test "without --decompress: one note on a compressed file, none with -s or -q" {
    run agrep-gpu -c -k1 mercy "$D/gz/t" "$D/xz/t"
    assert_failure 1
    assert_line "agrep-gpu: $D/gz/t: gzip-compressed; --decompress searches its contents"
    [ "$(grep -c 'decompress searches' <<< "$output")" = 1 ]
    run agrep-gpu -c mercy < "$D/zst/t"
    assert_line --partial "(standard input): zstd-compressed; --decompress"
    run agrep-gpu -s -c mercy "$D/gz/t"
    refute_output --partial "decompress"
    run agrep-gpu -q mercy "$D/gz/t"
    assert_output ""
    run agrep-gpu -c mercy "$D/plain/t"
    refute_output --partial "decompress"
}

@test "--decompress: a decompression bomb (200 MB of zeros in 200 KB) in bounded memory" {
    local w="$BATS_TEST_TMPDIR"
    head -c 200000000 /dev/zero | gzip -1 > "$w/bomb.gz"
    run /usr/bin/time -f "rss %M" agrep-gpu --decompress -c -a x "$w/bomb.gz"
    assert_failure 1
    rss=$(sed -n 's/^rss //p' <<< "$output")
    echo "max RSS $rss KB"
    # (a sanitizer build's shadow memory is not the tool's: ThreadSanitizer
    # made 34 MB 237; there the bomb only has to end)
    case $AGREP_GPU in */san/*|*/tsan/*) return 0 ;; esac
    [ "$rss" -lt 200000 ]
}

@test "--decompress --dna: a bzip2 or lz4 FASTA through a pipe is read as records, as the file is (a site across a line break)" {
    # a bzip2 block (and lz4's) decodes to nothing until it is whole: the
    # pipe's first 64 KB decoded to nothing and the pipe was read as lines
    local w="$BATS_TEST_TMPDIR" c acgt
    acgt=$(printf 'ACGT%.0s' $(seq 64))
    # 200 records of 6000 random bases (bzip2 keeps them to 2 bits a base:
    # its first block is some 240 KB), the site at 2990, across the line
    # break at 3000 (the bases drawn at once and cut by awk: two processes
    # a record had been most of the test's time)
    head -c $((200 * 5981)) /dev/urandom | tr '\000-\377' "$acgt" | fold -w 5981 |
        awk '{ printf ">r%d\n%sGTGCCAGCAGCCGCGGTAA%s\n", NR, substr($0, 1, 2990), substr($0, 2991) }' |
        fold -w 60 > "$w/s.fa"
    exp=$(agrep-gpu --dna -c -k0 GTGCCAGCAGCCGCGGTAA "$w/s.fa")
    [ "$exp" = 200 ]
    for c in "bzip2 -c" "lz4 -q -c" "gzip -c"; do
        $c < "$w/s.fa" > "$w/s.z"
        out=$(agrep-gpu --dna --decompress -c -k0 GTGCCAGCAGCCGCGGTAA "$w/s.z")
        [ "$out" = "$exp" ] || { echo "$c, the file: $out"; return 1; }
        out=$(cat "$w/s.z" | agrep-gpu --dna --decompress -c -k0 GTGCCAGCAGCCGCGGTAA)
        [ "$out" = "$exp" ] || { echo "$c, a pipe: $out"; return 1; }
    done
}

@test "--decompress from a pipe whose writer pauses after a match: -q, -l and -m1 end at once, every format" {
    # the decoder waited for a whole range (or a whole zstd frame, a BGZF
    # span) before anything was searched, so -q ended only with the writer
    # (quick: one of -q, -l and -m1 a format, in turn, each on two or
    # three formats; full: all three on each)
    local w="$BATS_TEST_TMPDIR" f name cmd opt n=0 opts
    bible "Gen1:1-Deu34:12" > "$w/big"
    mkfifo "$w/fifo"
    opts=(-q -l -m1)
    for f in "${FORMATS[@]}" "pzst:pzstd -q -p 2 -c"; do
        name=${f%%:*} cmd=${f#*:}
        n=$((n + 1))
        # (a block decodes only whole: bzip2's of 100 KB, lz4's of 64 KB,
        # within the 200 KB written)
        case $name in
        bz2) cmd="bzip2 -1 -c" ;;
        lz4) cmd="lz4 -q -B4 -c" ;;
        esac
        $cmd < "$w/big" > "$w/big.z"
        for opt in $(depth "${opts[n % 3]}" "${opts[*]}"); do
            # the first 200 KB, then a writer that waits (exec: kill
            # ends it, not a child that would hold the pipe)
            { head -c 200000 "$w/big.z"; exec sleep 60; } > "$w/fifo" 2>/dev/null &
            local wp=$!
            run timeout 30 agrep-gpu --decompress $opt -c mercy < "$w/fifo"
            kill "$wp" 2>/dev/null || true
            wait "$wp" 2>/dev/null || true
            [ "$status" = 0 ] || { echo "$name $opt: status $status: $output"; return 1; }
        done
    done
}

#!/usr/bin/env bash
# bench/bench.sh: agrep-gpu benchmark driver (`make bench`).
#
# Makes its corpora in bench/data/ (git-ignored, cached), times agrep-gpu on
# every OpenCL device it lists (and --device=host) against a plain one-thread
# C Myers reference (bench/myers_ref.c) and the peers tre-agrep, ugrep -Z,
# agrep 3.0 (Debian glimpse) and GNU grep -F (k=0), and writes:
#   $OUT  (default bench/results/2core.md)   Markdown report
#   $CSV  (default bench/results/2core.csv)  raw numbers, a row per measurement
#   $SVG  (default bench/results/2core-throughput.svg) MB/s vs text size, one
#         panel per case
#   $SCALING_SVG (default bench/results/2core-scaling.svg) time vs k
# OUT=bench/results/h100.md gives h100.csv, h100-throughput.svg, ...
# (bench/results/ holds a file per machine kind; 2core is the 2-core machine)
#
# Environment (all optional):
#   BENCH_QUICK=1          sizes 4.3M 34M, DNA 34M, 3 repetitions (script test)
#   BENCH_SIZES            KJV sizes (default "4.3M 34M 256M 1G"; K/M/G = 2^10/2^20/2^30;
#                          4.3M = the Bible itself, others = whole copies of it)
#   BENCH_DNA_SIZE         random DNA corpus size (default 256M, quick 34M, 0 = none)
#   BENCH_REPS             repetitions per measurement (default 5, quick 3)
#   BENCH_CELL_BUDGET      stop repeating once a measurement has used this many
#                          seconds (default 30; at least one run is always made)
#   BENCH_TIMEOUT          seconds before one run of agrep-gpu or the C Myers
#                          reference is killed (default 600)
#   BENCH_PEER_TIMEOUT     the same for the peers (default 60); a peer whose speed on
#                          a smaller corpus predicts a longer run is not started
#   BENCH_SLOW_MAX         largest corpus for tre-agrep (default 4.3M)
#   BENCH_PEER_MAX         largest corpus for ugrep -Z and agrep 3.0 (default 256M)
#   BENCH_TOOLS            tools to run (default all: "agrep-gpu myers_ref tre-agrep
#                          ugrep-Z agrep-3.0 grep-F")
#   BENCH_SECTIONS         default "throughput startup rss scaling"
#   BENCH_SCALING_SIZE     corpus of the time-vs-k section (default 34M)
#   BENCH_KS               k values of that section (default "0 1 2 3 4 6 8")
#   BENCH_STARTUP_RUNS     hyperfine runs for the start-up section (default 30)
#   BENCH_PNG=1            also write the charts as PNG
#   BENCH_NO_INSTALL=1     never apt-get install missing tools
#   BENCH_APPEND=1         keep the rows already in $CSV (run sections separately)
#   BENCH_KJV              a copy of the Bible text to use when bench/data/kjv.txt is
#                          missing (also tried: .devdata/kjv.txt); else `bible` makes it
#   AGREP_GPU              the binary (default ./agrep-gpu)
#   AGREP_GPU_DEVICES      devices to run instead of those --list-devices shows
#                          plus host, e.g. "0 host" or "gpu"
#   BENCH_DEVICE_HOST_MAX  AGREP_GPU_HOST_MAX for numbered/cpu/gpu devices
#                          (default 0: the device is used whatever the input size;
#                          empty: leave agrep-gpu's default)
#   OUT, CSV, SVG, SCALING_SVG   output paths
#
# A full run takes about 20 minutes on an idle 2-core machine (estimate from
# quick mode), mostly the 1 GiB corpus; BENCH_QUICK=1 about 3 minutes.
# On the GPU machine (no network, 10 minutes a command): carry bench/data/kjv.txt
# (or .devdata/kjv.txt) and bench/bin, set up OpenCL first, and run the
# sections one command at a time into one CSV kept in the ignored bench/data/:
#   BENCH_NO_INSTALL=1 BENCH_APPEND=1 CSV=bench/data/results-h100.csv \
#   OUT=bench/results/h100.md BENCH_SECTIONS=throughput BENCH_SIZES="4.3M 256M" bash bench/bench.sh
set -uo pipefail
export LC_ALL=C

BENCH=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$BENCH")
cd "$ROOT" || exit 2

QUICK=${BENCH_QUICK:-0}
if [[ $QUICK == 1 ]]; then
    SIZES=${BENCH_SIZES:-"4.3M 34M"}
    DNA_SIZE=${BENCH_DNA_SIZE:-34M}
    REPS=${BENCH_REPS:-3}
else
    SIZES=${BENCH_SIZES:-"4.3M 34M 256M 1G"}
    DNA_SIZE=${BENCH_DNA_SIZE:-256M}
    REPS=${BENCH_REPS:-5}
fi
CELL_BUDGET=${BENCH_CELL_BUDGET:-30}
TIMEOUT=${BENCH_TIMEOUT:-600}
PEER_TIMEOUT=${BENCH_PEER_TIMEOUT:-60}
SLOW_MAX=${BENCH_SLOW_MAX:-4.3M}
PEER_MAX=${BENCH_PEER_MAX:-256M}
TOOLS_WANTED=${BENCH_TOOLS:-"agrep-gpu myers_ref tre-agrep ugrep-Z agrep-3.0 grep-F"}
SECTIONS=${BENCH_SECTIONS:-"throughput startup rss scaling"}
SCALING_SIZE=${BENCH_SCALING_SIZE:-34M}
KS=${BENCH_KS:-"0 1 2 3 4 6 8"}
STARTUP_RUNS=${BENCH_STARTUP_RUNS:-30}
AGREP_GPU=${AGREP_GPU:-$ROOT/agrep-gpu}
DEVICE_HOST_MAX=${BENCH_DEVICE_HOST_MAX-0}

OUT=${OUT:-$BENCH/results/2core.md}
outbase=$(basename "$OUT" .md)                  # "2core" or "h100"
outdir=$(dirname "$OUT")
CSV=${CSV:-$outdir/$outbase.csv}
SVG=${SVG:-$outdir/$outbase-throughput.svg}
SCALING_SVG=${SCALING_SVG:-$outdir/$outbase-scaling.svg}

DATA=$BENCH/data
BIN=$BENCH/bin
mkdir -p "$DATA" "$BIN" "$outdir" || exit 2
TMP=$(mktemp -d "${TMPDIR:-/tmp}/agrep-bench.XXXXXX") || exit 2
trap 'rm -rf "$TMP"' EXIT
unset AGREP_GPU_DEVICE AGREP_GPU_HOST_MAX   # chosen per run (--device, BENCH_DEVICE_HOST_MAX)

NOTES=()                        # lines for the report's notes section
note() { NOTES+=("$*"); echo "bench: $*" >&2; }
log() { echo "bench: $*" >&2; }
want() { [[ " $TOOLS_WANTED " == *" $1 "* ]]; }
has_section() { [[ " $SECTIONS " == *" $1 "* ]]; }
START_TS=$(date +%s)
LOAD_AT_START=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)

# ---------------------------------------------------------------- sizes
# size_bytes LABEL: 4.3M -> 4508876 (K/M/G binary)
size_bytes() {
    awk -v s="$1" 'BEGIN { n = s + 0; u = substr(s, length(s));
        m = (u == "K") ? 1024 : (u == "M") ? 1048576 : (u == "G") ? 1073741824 : 1;
        printf "%d\n", n * m }'
}
SLOW_MAX_B=$(( $(size_bytes "$SLOW_MAX") * 12 / 10 ))   # 20% slack: 4.3M matches 4.3 MB
PEER_MAX_B=$(( $(size_bytes "$PEER_MAX") * 12 / 10 ))
fmt_mb() { awk -v b="$1" 'BEGIN { printf (b >= 1e8 ? "%.0f MB" : b >= 1e4 ? "%.1f MB" : "%.1f KB"), (b >= 1e4 ? b / 1e6 : b / 1e3) }'; }

# ---------------------------------------------------------------- tools
install_missing() {
    local pkgs=() t
    declare -A pkg_of=([tre-agrep]=tre-agrep [ugrep]=ugrep [agrep]=glimpse [hyperfine]=hyperfine
                       [bible]=bible-kjv [gnuplot]=gnuplot-nox)
    for t in tre-agrep ugrep agrep hyperfine bible gnuplot; do
        command -v "$t" >/dev/null 2>&1 && continue
        [[ $t == bible && -s $DATA/kjv.txt ]] && continue
        pkgs+=("${pkg_of[$t]}")
    done
    ((${#pkgs[@]})) || return 0
    if [[ ${BENCH_NO_INSTALL:-0} == 1 || $(id -u) != 0 ]] || ! command -v apt-get >/dev/null; then
        note "missing packages not installed (not root, no apt-get or BENCH_NO_INSTALL=1): ${pkgs[*]}"
        return 0
    fi
    log "installing ${pkgs[*]}"
    if ! { timeout 300 apt-get update -qq >"$TMP/apt.log" 2>&1 &&
           DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq "${pkgs[@]}" >>"$TMP/apt.log" 2>&1; }; then
        note "apt-get install ${pkgs[*]} failed (offline?); missing tools are skipped"
    fi
}
install_missing

build_bin() {  # build_bin NAME: bench/bin/NAME from bench/NAME.c when missing or stale
    local src=$BENCH/$1.c exe=$BIN/$1
    if [[ -x $exe && ( ! -f $src || $exe -nt $src ) ]]; then return 0; fi
    if ! command -v "${CC:-cc}" >/dev/null; then return 1; fi
    "${CC:-cc}" -O2 -o "$exe" "$src"
}
build_bin myers_ref || note "bench/bin/myers_ref could not be built: C Myers reference skipped"
build_bin gen_dna || note "bench/bin/gen_dna could not be built: DNA corpus skipped"
MYERS=$BIN/myers_ref

TOOLS=()                        # tool ids, in run order (agrep-gpu first: its count is the reference)
declare -A DEVDESC=()           # agrep-gpu/<dev> -> description
if want agrep-gpu; then
    if [[ -x $AGREP_GPU ]]; then
        if [[ -n ${AGREP_GPU_DEVICES:-} ]]; then
            for d in ${AGREP_GPU_DEVICES//,/ }; do TOOLS+=("agrep-gpu/$d"); DEVDESC[agrep-gpu/$d]="--device=$d (AGREP_GPU_DEVICES)"; done
        else
            if timeout 120 "$AGREP_GPU" --list-devices >"$TMP/devs" 2>"$TMP/devs.err"; then
                while IFS= read -r line; do
                    if [[ $line =~ ^[[:space:]]*([0-9]+):[[:space:]]*(.*)$ ]]; then
                        TOOLS+=("agrep-gpu/${BASH_REMATCH[1]}")
                        DEVDESC[agrep-gpu/${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
                    fi
                done <"$TMP/devs"
            else
                note "agrep-gpu --list-devices failed ($(head -c 200 "$TMP/devs.err")): measuring its default device only"
            fi
            if ! ((${#TOOLS[@]})); then TOOLS+=("agrep-gpu/default"); DEVDESC[agrep-gpu/default]="default device"; fi
            TOOLS+=("agrep-gpu/host"); DEVDESC[agrep-gpu/host]="host matcher on every core, SIMD lanes and filters (--device=host)"
        fi
    else
        note "agrep-gpu not found at $AGREP_GPU (not built yet?): skipped"
    fi
fi
if want myers_ref && [[ -x $MYERS ]]; then TOOLS+=(myers_ref); fi
for t in tre-agrep ugrep-Z agrep-3.0 grep-F; do
    want "$t" || continue
    exe=${t%%-Z}; exe=${exe%%-3.0}; exe=${exe%%-F}
    if command -v "$exe" >/dev/null; then TOOLS+=("$t"); else note "$exe not installed: $t skipped"; fi
done
log "tools: ${TOOLS[*]}"

# tool_cmd TOOL PATTERN K FILE  -> CMD array, and HOSTMAX: the AGREP_GPU_HOST_MAX
# value to export for it ("" = unset); FILE "-" = standard input.
# Returns 1 when the tool does not take this case.
tool_cmd() {
    local t=$1 p=$2 k=$3 f=$4 d
    CMD=(); HOSTMAX=""
    case $t in
    agrep-gpu/*)
        d=${t#agrep-gpu/}
        [[ $d != host ]] && HOSTMAX=$DEVICE_HOST_MAX
        CMD=("$AGREP_GPU")
        [[ $d != default ]] && CMD+=("--device=$d")
        CMD+=(-c -k "$k" -e "$p" "$f") ;;
    myers_ref)
        (( ${#p} <= 64 )) || return 1
        CMD=("$MYERS" -k "$k" -- "$p" "$f") ;;
    tre-agrep)
        CMD=(tre-agrep -c -k -E "$k" -- "$p")
        [[ $f != - ]] && CMD+=("$f") ;;
    ugrep-Z)   # -U: bytes, not Unicode characters; ugrep refuses -Z0
        CMD=(ugrep -U -F -c)
        (( k > 0 )) && CMD+=("-Z$k")
        CMD+=(-- "$p" "$f") ;;
    agrep-3.0) # its -c overcounts: count the printed lines; it refuses k >= m
        (( k < ${#p} )) || return 1
        CMD=(sh -c 'agrep "$@" | wc -l' sh "-$k" "$p")
        [[ $f != - ]] && CMD+=("$f") ;;
    grep-F)
        (( k == 0 )) || return 1
        CMD=(grep -c -F -- "$p" "$f") ;;
    *) return 1 ;;
    esac
    return 0
}

# may_run TOOL BYTES: the size caps for slow tools
may_run() {
    case $1 in
    tre-agrep) (( $2 <= SLOW_MAX_B )) ;;
    ugrep-Z|agrep-3.0) (( $2 <= PEER_MAX_B )) ;;
    *) return 0 ;;
    esac
}

# ---------------------------------------------------------------- corpora
KJV=$DATA/kjv.txt
if [[ ! -s $KJV ]]; then
    for f in ${BENCH_KJV:-} "$ROOT/.devdata/kjv.txt"; do   # a carried copy (no network on the GPU machine)
        [[ -s $f ]] && { cp "$f" "$KJV"; break; }
    done
fi
if [[ ! -s $KJV ]]; then
    if command -v bible >/dev/null; then
        log "making $KJV"
        bible "Gen1:1-Rev22:21" >"$KJV.tmp" && mv "$KJV.tmp" "$KJV"
    fi
    if [[ ! -s $KJV ]]; then echo "bench: no $KJV and no 'bible' (apt-get install bible-kjv)" >&2; exit 2; fi
fi
KJV_B=$(stat -c %s "$KJV")

CORPORA=()                      # names, in order
declare -A CFILE=() CBYTES=() CLINES=()
add_corpus() { CORPORA+=("$1"); CFILE[$1]=$2; CBYTES[$1]=$(stat -c %s "$2"); CLINES[$1]=$(wc -l <"$2"); }

# kjv_corpus LABEL: path of the KJV replicated to about LABEL bytes (cached)
kjv_corpus() {
    local target copies f
    target=$(size_bytes "$1")
    copies=$(( (target + KJV_B / 2) / KJV_B )); (( copies < 1 )) && copies=1
    if (( copies == 1 )); then echo "$KJV"; return; fi
    f=$DATA/kjv-x$copies.txt
    if [[ ! -f $f || $(stat -c %s "$f") != $(( copies * KJV_B )) ]]; then
        log "making $f ($copies copies)"
        for ((i = 0; i < copies; i++)); do cat "$KJV"; done >"$f.tmp" && mv "$f.tmp" "$f"
    fi
    echo "$f"
}
for s in $SIZES; do add_corpus "kjv-$s" "$(kjv_corpus "$s")"; done

DNA_PAT=""
if [[ $DNA_SIZE != 0 && -x $BIN/gen_dna ]]; then
    db=$(size_bytes "$DNA_SIZE")
    f=$DATA/dna-$db.txt
    if [[ ! -s $f || ! -s $f.pat || $BIN/gen_dna -nt $f ]]; then
        log "making $f"
        "$BIN/gen_dna" "$db" "$f.pat" >"$f.tmp" 2>"$f.info" && mv "$f.tmp" "$f"
    fi
    if [[ -s $f ]]; then add_corpus "dna-$DNA_SIZE" "$f"; DNA_PAT=$(cat "$f.pat"); DNA_INFO=$(cat "$f.info"); DNA_INFO=${DNA_INFO%%, pattern*}; fi
fi

SMALL=$DATA/small-1K.txt
if [[ ! -s $SMALL ]]; then
    head -c 1024 "$KJV" >"$TMP/s" && sed '$d' "$TMP/s" >"$SMALL"   # whole lines only
fi

# ---------------------------------------------------------------- cases
PHRASE="for his mercy endureth for ever"
P60="written in the book of the chronicles of the kings of Israel"   # 60 bytes
KJV_CASES=("LORD|1" "mercy|2" "endureth|2" "righteousness|3" "$PHRASE|2" "$PHRASE|4" "$P60|5" "mercy|0")
DNA_CASES=()
[[ -n $DNA_PAT ]] && DNA_CASES=("$DNA_PAT|5" "$DNA_PAT|0")

# ---------------------------------------------------------------- measuring

# run_once [--stdin FILE] CMD...: one timed run; sets R_US R_RSS R_OUT R_RC
run_once() {
    local in=/dev/null t0 t1
    if [[ $1 == --stdin ]]; then in=$2; shift 2; fi
    if [[ $in == /dev/null ]]; then
        t0=$EPOCHREALTIME
        /usr/bin/time -f '%M' -o "$TMP/rss" timeout "$RUN_TIMEOUT" "$@" </dev/null >"$TMP/out" 2>"$TMP/err"
        R_RC=$?
        t1=$EPOCHREALTIME
    else
        t0=$EPOCHREALTIME
        cat "$in" | /usr/bin/time -f '%M' -o "$TMP/rss" timeout "$RUN_TIMEOUT" "$@" >"$TMP/out" 2>"$TMP/err"
        R_RC=$?
        t1=$EPOCHREALTIME
    fi
    t0=${t0/./}; t1=${t1/./}          # microseconds (EPOCHREALTIME has 6 decimals)
    R_US=$(( 10#$t1 - 10#$t0 - OVERHEAD_US )); (( R_US < 1 )) && R_US=1
    R_RSS=$(tail -n 1 "$TMP/rss" 2>/dev/null); [[ $R_RSS =~ ^[0-9]+$ ]] || R_RSS=0
    R_OUT=$(tail -n 1 "$TMP/out" | tr -d ' \t')
}

# calibrate: the cost of the /usr/bin/time and timeout wrappers, subtracted from every
# run, so that a time is that of starting the tool alone (as hyperfine -N measures it)
OVERHEAD_US=0
RUN_TIMEOUT=$TIMEOUT
cal=(); bare=()
TRUE=$(command -v true); [[ $TRUE == /* ]] || TRUE=/bin/true
for _ in $(seq 21); do
    run_once "$TRUE"; cal+=("$R_US")
    t0=$EPOCHREALTIME; "$TRUE"; t1=$EPOCHREALTIME; t0=${t0/./}; t1=${t1/./}; bare+=($(( 10#$t1 - 10#$t0 )))
done
# minima: the least disturbed runs (other work on the machine only adds time)
OVERHEAD_US=$(( $(printf '%s\n' "${cal[@]}" | sort -n | head -n 1) - $(printf '%s\n' "${bare[@]}" | sort -n | head -n 1) ))
(( OVERHEAD_US < 0 )) && OVERHEAD_US=0
log "wrapper overhead ${OVERHEAD_US} us (subtracted)"

median() { sort -g | awk '{ a[NR] = $1 } END { if (!NR) print ""; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

if [[ ${BENCH_APPEND:-0} != 1 || ! -s $CSV ]]; then
    echo "section,corpus,bytes,pattern,k,tool,runs,median_s,mb_s,rss_kib,lines,status" >"$CSV"
fi
csv_row() { # section corpus bytes pattern k tool runs median_s mb_s rss lines status
    local p=${4//,/;}
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n' "$1" "$2" "$3" "$p" "$5" "$6" "$7" "$8" "$9" "${10}" "${11}" "${12}" >>"$CSV"
}

# measure SECTION CORPUS TOOL PATTERN K [--stdin]: repeated runs -> one CSV row
measure() {
    local sec=$1 c=$2 t=$3 p=$4 k=$5 mode=${6:-file}
    local f=${CFILE[$c]} bytes=${CBYTES[$c]} n=0 total=0 status=ok lines="" rss=0 times=()
    local src=$f; [[ $mode == --stdin ]] && src=-
    tool_cmd "$t" "$p" "$k" "$src" || return 0
    if [[ -n $HOSTMAX ]]; then export AGREP_GPU_HOST_MAX=$HOSTMAX; else unset AGREP_GPU_HOST_MAX; fi
    RUN_TIMEOUT=$TIMEOUT
    if [[ $t != agrep-gpu/* && $t != myers_ref ]]; then
        RUN_TIMEOUT=$PEER_TIMEOUT
        # the same tool and case on a smaller corpus of the same kind predicts this run
        local key="$t|$p|$k|${c%%-*}" pred
        if [[ -n ${LAST_MBS[$key]:-} ]]; then
            pred=$(awk -v b="$bytes" -v m="${LAST_MBS[$key]}" 'BEGIN { printf "%d", (m > 0 ? b / 1e6 / m : 1e9) }')
            if (( pred > PEER_TIMEOUT )); then
                csv_row "$sec" "$c" "$bytes" "$p" "$k" "$t" 0 "" "" "" "" "skipped(predicted ${pred}s > ${PEER_TIMEOUT}s)"
                log "$sec $c $t k=$k $p: skipped, predicted ${pred} s"
                return 0
            fi
        fi
    fi
    while (( n < REPS )); do
        if [[ $mode == --stdin ]]; then run_once --stdin "$f" "${CMD[@]}"; else run_once "${CMD[@]}"; fi
        n=$((n + 1)); total=$((total + R_US))
        if (( R_RC == 124 || R_RC == 137 )); then status="timeout(${RUN_TIMEOUT}s)"; break; fi
        if (( R_RC > 1 )) || ! [[ $R_OUT =~ ^[0-9]+$ ]]; then
            status="error(rc=$R_RC: $(head -c 80 "$TMP/err" | tr ',\n' '; '))"; break
        fi
        if [[ -n $lines && $lines != "$R_OUT" ]]; then status=unstable-count; fi
        lines=$R_OUT
        (( R_RSS > rss )) && rss=$R_RSS
        times+=("$R_US")
        (( total >= CELL_BUDGET * 1000000 )) && break
        [[ $mode == --stdin ]] && break      # one run is enough for the pipe RSS
    done
    local med_s="" mbs=""
    if ((${#times[@]})); then
        med_s=$(printf '%s\n' "${times[@]}" | median | awk '{ printf "%.6f", $1 / 1e6 }')
        mbs=$(awk -v b="$bytes" -v s="$med_s" 'BEGIN { printf "%.1f", b / 1e6 / s }')
    fi
    csv_row "$sec" "$c" "$bytes" "$p" "$k" "$t" "${#times[@]}" "$med_s" "$mbs" "$rss" "$lines" "$status"
    if [[ -n $mbs ]]; then LAST_MBS["$t|$p|$k|${c%%-*}"]=$mbs
    elif [[ $status == timeout* ]]; then LAST_MBS["$t|$p|$k|${c%%-*}"]=$(awk -v b="$bytes" -v s="$RUN_TIMEOUT" 'BEGIN { printf "%.3f", b / 1e6 / s }'); fi
    log "$(printf '%-10s %-9s %-16s k=%s %-22.22s %8s s %9s MB/s %7s KiB lines=%s %s' \
        "$sec" "$c" "$t" "$k" "$p" "$med_s" "$mbs" "$rss" "$lines" "$status")"
}

declare -A LAST_MBS=()
warm_cache() { cat "$1" >/dev/null; }

# ---------------------------------------------------------------- sections
if has_section throughput; then
    for c in "${CORPORA[@]}"; do
        warm_cache "${CFILE[$c]}"
        if [[ $c == dna-* ]]; then cases=("${DNA_CASES[@]}"); else cases=("${KJV_CASES[@]}"); fi
        for pk in "${cases[@]}"; do
            p=${pk%|*}; k=${pk##*|}
            for t in "${TOOLS[@]}"; do
                may_run "$t" "${CBYTES[$c]}" || continue
                measure throughput "$c" "$t" "$p" "$k"
            done
        done
    done
fi

if has_section rss; then
    # largest KJV corpus; the 1 GiB one in a full run
    big=""; for c in "${CORPORA[@]}"; do [[ $c == kjv-* ]] && { [[ -z $big ]] || (( CBYTES[$c] > CBYTES[$big] )); } && big=$c; done
    if [[ -n $big ]]; then
        RSS_CORPUS=$big
        warm_cache "${CFILE[$big]}"
        for t in "${TOOLS[@]}"; do
            [[ $t == tre-agrep ]] && continue          # ~5 MB/s: minutes per GiB
            k=1; [[ $t == grep-F ]] && k=0
            saved=$REPS; REPS=1
            measure rss-file "$big" "$t" LORD "$k"
            measure rss-pipe "$big" "$t" LORD "$k" --stdin
            REPS=$saved
        done
    fi
fi

if has_section scaling; then
    sc=""
    for c in "${CORPORA[@]}"; do [[ $c == "kjv-$SCALING_SIZE" ]] && sc=$c; done
    if [[ -z $sc ]]; then add_corpus "kjv-$SCALING_SIZE" "$(kjv_corpus "$SCALING_SIZE")"; sc="kjv-$SCALING_SIZE"; fi
    SCALING_CORPUS=$sc
    warm_cache "${CFILE[$sc]}"
    for k in $KS; do
        for t in "${TOOLS[@]}"; do
            may_run "$t" "${CBYTES[$sc]}" || continue
            measure scaling "$sc" "$t" "$PHRASE" "$k"
        done
    done
fi

if has_section startup; then
    if command -v hyperfine >/dev/null; then
        unset AGREP_GPU_HOST_MAX
        hf=(hyperfine -N -i --style none --output=pipe --warmup 3 --runs "$STARTUP_RUNS" --export-csv "$TMP/hf.csv")
        for t in "${TOOLS[@]}"; do
            k=1; [[ $t == grep-F ]] && k=0
            tool_cmd "$t" LORD "$k" "$SMALL" || continue
            [[ $t == agrep-3.0 ]] && CMD=(agrep -1 LORD "$SMALL")   # no pipe under -N
            [[ -n $HOSTMAX ]] && CMD=(env "AGREP_GPU_HOST_MAX=$HOSTMAX" "${CMD[@]}")
            hf+=(-n "$t" "$(printf '%q ' "${CMD[@]}")")
        done
        if [[ " ${TOOLS[*]}" == *" agrep-gpu/"* ]]; then
            # as a user runs it: no --device, no AGREP_GPU_HOST_MAX (a small input may go to the host matcher)
            hf+=(-n "agrep-gpu(plain)" "$(printf '%q ' "$AGREP_GPU" -c -k 1 -e LORD "$SMALL")")
        fi
        if "${hf[@]}" >"$TMP/hf.log" 2>&1; then
            # command,mean,stddev,median,user,system,min,max
            while IFS=, read -r name mean sd med _ _ mn mx; do
                [[ $name == command ]] && continue
                csv_row startup small-1K "$(stat -c %s "$SMALL")" LORD "" "$name" "$STARTUP_RUNS" "$med" "" "" "" \
                    "ok mean=$mean sd=$sd min=$mn max=$mx"
            done <"$TMP/hf.csv"
        else
            note "hyperfine failed: $(tail -n 3 "$TMP/hf.log" | tr '\n' ' ')"
        fi
    else
        note "hyperfine not installed: start-up section skipped"
    fi
fi

# ---------------------------------------------------------------- charts
# (from the CSV: with BENCH_APPEND=1 the sections may come from several runs)
csv_bytes() { awk -F, -v c="$1" 'NR > 1 && $2 == c { b = $3 } END { print b + 0 }' "$CSV"; }
csv_last_corpus() { awk -F, -v s="$1" 'NR > 1 && $1 == s { c = $2 } END { print c }' "$CSV"; }
RSS_CORPUS=$(csv_last_corpus rss-file)
SCALING_CORPUS=$(csv_last_corpus scaling)
# png_copy GPSCRIPT SVGPATH: the same chart as PNG beside the SVG (BENCH_PNG=1)
png_copy() {
    sed -e "s|^set terminal svg size \([0-9]*\),\([0-9]*\).*|set terminal pngcairo size \1,\2 font 'sans,10' background '#ffffff'|" \
        -e "s|^set output '.*'|set output '${2%.svg}.png'|" "$1" | gnuplot 2>/dev/null && log "wrote ${2%.svg}.png"
}
if command -v gnuplot >/dev/null; then
    PD=$TMP/plot; mkdir -p "$PD"
    # throughput: one data file per (KJV case, tool): MB  MB/s
    awk -F, -v d="$PD" 'NR > 1 && $1 == "throughput" && $2 ~ /^kjv-/ && $9 != "" {
        if (!(($4 SUBSEP $5) in cs)) { cs[$4 SUBSEP $5] = ++nc; print nc "\t" $4 " k=" $5 > (d "/cases") }
        if (!($6 in ts)) { ts[$6] = ++nt; print nt "\t" $6 > (d "/tools") }
        print $3 / 1e6, $9 > (d "/c" cs[$4 SUBSEP $5] "_t" ts[$6] ".dat") }' "$CSV"
    if [[ -s $PD/cases ]]; then
        nc=$(wc -l <"$PD/cases"); cols=2; rows=$(( (nc + 1) / 2 ))
        {
            echo "set terminal svg size 1200,$((rows * 380 + 60)) dynamic enhanced font 'sans,11' background '#ffffff'"
            echo "set output '$SVG'"
            echo "set multiplot layout $rows,$cols title 'agrep-gpu benchmark: throughput vs text size (KJV Bible replicated; $(uname -m), $(nproc) CPUs)' noenhanced"
            echo "set logscale xy; set grid; set xlabel 'text size (MB)'; set ylabel 'MB/s'; set key outside right top font ',9'"
            echo "set style data linespoints"
            while IFS=$'\t' read -r ci cname; do
                echo "set title \"${cname//\"/}\" noenhanced"
                plots=()
                while IFS=$'\t' read -r ti tname; do
                    lw=1; [[ $tname == agrep-gpu* ]] && lw=2.5
                    [[ -s $PD/c${ci}_t${ti}.dat ]] && plots+=("'$PD/c${ci}_t${ti}.dat' using 1:2 lt $ti pt $ti lw $lw title '$tname' noenhanced")
                done <"$PD/tools"
                ( IFS=,; echo "plot ${plots[*]}" )
            done <"$PD/cases"
            echo "unset multiplot"
        } >"$PD/tp.gp"
        gnuplot "$PD/tp.gp" 2>"$PD/tp.err" && log "wrote $SVG" || note "gnuplot failed: $(head -c 300 "$PD/tp.err")"
        [[ ${BENCH_PNG:-0} == 1 ]] && png_copy "$PD/tp.gp" "$SVG"
    fi
    if [[ -n $SCALING_CORPUS ]]; then
        awk -F, -v d="$PD" -v c="$SCALING_CORPUS" 'NR > 1 && $1 == "scaling" && $2 == c && $8 != "" {
            if (!($6 in ts)) { ts[$6] = ++nt; print nt "\t" $6 > (d "/stools") }
            print $5, $8 > (d "/s_t" ts[$6] ".dat") }' "$CSV"
        if [[ -s $PD/stools ]]; then
            {
                echo "set terminal svg size 900,560 dynamic enhanced font 'sans,11' background '#ffffff'"
                echo "set output '$SCALING_SVG'"
                echo "set title \"time vs k: '$PHRASE' on $SCALING_CORPUS\" noenhanced"
                echo "set logscale y; set grid; set xlabel 'k (errors allowed)'; set ylabel 'seconds (median)'; set key outside right top"
                echo "set style data linespoints"
                plots=()
                while IFS=$'\t' read -r ti tname; do
                    lw=1; [[ $tname == agrep-gpu* ]] && lw=2.5
                    plots+=("'$PD/s_t${ti}.dat' using 1:2 lt $ti pt $ti lw $lw title '$tname' noenhanced")
                done <"$PD/stools"
                ( IFS=,; echo "plot ${plots[*]}" )
            } >"$PD/sc.gp"
            gnuplot "$PD/sc.gp" 2>"$PD/sc.err" && log "wrote $SCALING_SVG" || note "gnuplot failed: $(head -c 300 "$PD/sc.err")"
            [[ ${BENCH_PNG:-0} == 1 ]] && png_copy "$PD/sc.gp" "$SCALING_SVG"
        fi
    fi
else
    note "gnuplot not installed: no charts"
fi
# ---------------------------------------------------------------- report
ELAPSED=$(( $(date +%s) - START_TS ))
commit=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo "none (no commit yet)")
if [[ -n $(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null) ]]; then commit+=" (+ uncommitted changes)"; fi
cpu_model=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
mem=$(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)
gpu=""; command -v nvidia-smi >/dev/null && gpu=$(nvidia-smi -L 2>/dev/null | head -n 8 | tr '\n' ';')
ver() { "$@" 2>&1 | head -n 1 | tr -d '\r'; }

{
echo "# agrep-gpu benchmark results"
echo
echo "Generated by \`bench/bench.sh\` (\`make bench\`)$([[ $QUICK == 1 ]] && echo ", quick mode (BENCH_QUICK=1)") in ${ELAPSED} s$([[ ${BENCH_APPEND:-0} == 1 ]] && echo " (BENCH_APPEND=1: this run did the sections \"$SECTIONS\"; the report covers every row of \`$(basename "$CSV")\`)")."
echo
echo "- Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "- Commit: \`$commit\`"
echo "- Machine: $(uname -m), $(nproc) CPUs, ${cpu_model:-unknown CPU}, $mem RAM$([[ -n $gpu ]] && echo ", GPUs: $gpu")"
echo "- lscpu: $(lscpu 2>/dev/null | awk -F': +' '/^(Model name|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|L2 cache|L3 cache|Flags)/ { if ($1 == "Flags") { f = ""; n = split($2, a, " "); for (i = 1; i <= n; i++) if (a[i] ~ /^(avx2|avx512f|avx512bw|sse4_2)$/) f = f " " a[i]; printf "%s:%s; ", "SIMD", f } else printf "%s: %s; ", $1, $2 }' | sed 's/; $//')"
echo "- Kernel: $(uname -sr); load average at start: ${LOAD_AT_START:-?}, at end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null) (other work on the machine makes the numbers noisy)"
echo "- agrep-gpu: $( [[ -x $AGREP_GPU ]] && ver "$AGREP_GPU" --version || echo "not built" )"
for t in "${TOOLS[@]}"; do [[ $t == agrep-gpu/* ]] && echo "  - \`$t\`: ${DEVDESC[$t]}"; done
echo "- Peers: tre-agrep: $(command -v tre-agrep >/dev/null && ver tre-agrep --version || echo missing);" \
     "ugrep: $(command -v ugrep >/dev/null && ver ugrep --version || echo missing);" \
     "agrep: $(command -v agrep >/dev/null && { agrep -V 2>&1 || true; } | grep -m1 -o 'agrep version [0-9.]*' || echo missing);" \
     "grep: $(ver grep --version)"
echo "- Method: wall time is the median of up to $REPS runs (fewer when a measurement passed ${CELL_BUDGET} s), measured around" \
     "\`/usr/bin/time -f %M\` (peak RSS) with the wrapper's own cost (${OVERHEAD_US} µs) subtracted; files in the page cache;" \
     "\`LC_ALL=C\`; output is a line count (\`-c\`), except agrep 3.0 whose \`-c\` overcounts: \`agrep -K P F | wc -l\`, timed as a pipeline." \
     "MB = 10^6 bytes. agrep-gpu runs use \`AGREP_GPU_HOST_MAX=${DEVICE_HOST_MAX:-unset}\` on numbered devices, so the OpenCL device does the work even on small inputs."
echo "- Commands: \`agrep-gpu --device=D -c -k K -e P F\`, \`bench/bin/myers_ref -k K P F\`, \`tre-agrep -c -k -E K P F\`," \
     "\`ugrep -U -F -c -ZK P F\` (no -Z for k=0: ugrep refuses -Z0), \`agrep -K P F | wc -l\`, \`grep -c -F P F\` (k=0 only)."
echo "- Sizes per tool: agrep-gpu, C Myers ref and grep -F on every corpus; ugrep -Z and agrep 3.0 on corpora up to $PEER_MAX;" \
     "tre-agrep (a few MB/s) only up to $SLOW_MAX (the same caps on the DNA corpus);" \
     "a peer run is killed after ${PEER_TIMEOUT} s, and not started when its speed on a smaller corpus predicts more."
echo "- Corpora (bench/data/):"
for c in "${CORPORA[@]}"; do
    echo "  - \`$c\`: $(fmt_mb "${CBYTES[$c]}"), ${CLINES[$c]} lines ($(basename "${CFILE[$c]}"))"
done
[[ -n $DNA_PAT ]] && echo "  - DNA: random acgt, 250-byte lines; one line in 1000 holds a copy of the 60-byte pattern \`$DNA_PAT\` with 0-5 random edits (${DNA_INFO#gen_dna: })"
echo "- Raw numbers: \`$(basename "$CSV")\`; chart: \`$(basename "$SVG")\`; time vs k: \`$(basename "$SCALING_SVG")\`."
echo
} >"$TMP/head.md"

# summary + details from the CSV (throughput section)
awk -F, -v sec=throughput '
function short(p) { return length(p) > 24 ? "`" substr(p, 1, 20) "…` (" length(p) " B)" : "`" p "`" }
function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "–" : sprintf("%.1f×", a / b) }
NR == 1 { next }
$1 == sec {
    g = $2 SUBSEP $4 SUBSEP $5
    if (!(g in seen)) { seen[g] = 1; order[++ng] = g; gc[ng] = $2; gp[ng] = $4; gk[ng] = $5
                        if (!($2 in cseen)) { cseen[$2] = 1; corder[++nc] = $2; cbytes[$2] = $3 } }
    n = ++cnt[g]; tool[g, n] = $6; runs[g, n] = $7; med[g, n] = $8; mbs[g, n] = $9; rss[g, n] = $10; lines[g, n] = $11; st[g, n] = $12
    ok = ($12 == "ok" || $12 == "unstable-count")
    if ($6 ~ /^agrep-gpu/ && ok && !((g) in ref)) ref[g] = $11
    if ($6 == "myers_ref" && ok) mref[g] = $11
    if ($6 ~ /^agrep-gpu/ && ok && $9 != "" && (!(g in best) || $9 + 0 > best[g] + 0)) { best[g] = $9; bestt[g] = $6 }
    if ($6 !~ /^agrep-gpu/ && ok) { pm[g, $6] = $9; pl[g, $6] = $11; has[g, $6] = 1 }
    if ($6 !~ /^agrep-gpu/ && $12 ~ /^timeout/) { t = $12; gsub(/[^0-9]/, "", t); lb[g, $6] = $3 / 1e6 / t }
    if ($6 !~ /^agrep-gpu/ && $12 ~ /^skipped/) sk[g, $6] = 1
}
END {
    for (i = 1; i <= ng; i++) { g = order[i]; if (!(g in ref) && (g in mref)) { ref[g] = mref[g]; refby[g] = "C Myers ref" } }
    print "## Summary: agrep-gpu against the others"
    print ""
    print "agrep-gpu MB/s is its best device for the case; × = agrep-gpu speed / that tool'"'"'s speed (> 1: agrep-gpu faster);" \
          " `*` = that tool selected a different number of lines (see the tables below); – = not measured;" \
          " >N× = the tool was killed at its time limit; skipped = its speed on a smaller corpus predicted a run over the limit."
    print ""
    for (i = 1; i <= ng; i++) if (order[i] in best) anygpu = 1
    if (!anygpu) { print "**agrep-gpu was not measured in this run: no ratios.**"; print "" }
    print "| corpus | pattern | k | agrep-gpu MB/s | best device | × C Myers ref | × tre-agrep | × ugrep -Z | × agrep 3.0 | × grep -F |"
    print "|---|---|--:|--:|---|--:|--:|--:|--:|--:|"
    split("myers_ref tre-agrep ugrep-Z agrep-3.0 grep-F", peers, " ")
    for (i = 1; i <= ng; i++) {
        g = order[i]
        line = "| " gc[i] " | " short(gp[i]) " | " gk[i] " | " (g in best ? best[g] : "–") " | " (g in bestt ? "`" bestt[g] "`" : "–")
        for (j = 1; j <= 5; j++) {
            r = ((g in best) && ((g, peers[j]) in has)) ? ratio(best[g], pm[g, peers[j]]) : "–"
            if (r != "–" && (g in ref) && pl[g, peers[j]] != ref[g]) r = r "*"
            if ((g in best) && ((g, peers[j]) in lb)) r = sprintf(">%.1f×", best[g] / lb[g, peers[j]])
            if ((g, peers[j]) in sk) r = "skipped"
            line = line " | " r
        }
        print line " |"
    }
    print ""
    print "## Throughput, per corpus"
    print ""
    print "Median wall time of the runs, MB/s = size / median, peak RSS over the runs, lines = selected lines." \
          " ⚠ marks a count that differs from agrep-gpu'"'"'s (from the C Myers reference'"'"'s when agrep-gpu was not measured)."
    for (ci = 1; ci <= nc; ci++) {
        c = corder[ci]
        print ""
        printf "### %s (%.1f MB)\n\n", c, cbytes[c] / 1e6
        print "| pattern | k | tool | runs | median s | MB/s | peak RSS MiB | lines | note |"
        print "|---|--:|---|--:|--:|--:|--:|--:|---|"
        for (i = 1; i <= ng; i++) {
            if (gc[i] != c) continue
            g = order[i]
            for (n = 1; n <= cnt[g]; n++) {
                nt = (st[g, n] == "ok") ? "" : st[g, n]
                if ((g in ref) && lines[g, n] != "" && lines[g, n] != ref[g]) {
                    nt = nt (nt == "" ? "" : "; ") "⚠ differs from " (g in refby ? refby[g] : "agrep-gpu") " (" ref[g] ")"
                    diffs[++nd] = sprintf("- %s, %s k=%s: `%s` selected %s lines, %s %s", c, short(gp[i]), gk[i], tool[g, n], lines[g, n], (g in refby ? refby[g] : "agrep-gpu"), ref[g])
                }
                if (tool[g, n] ~ /^agrep-gpu/ && (g in mref) && lines[g, n] != "" && lines[g, n] != mref[g])
                    nt = nt (nt == "" ? "" : "; ") "⚠ differs from C Myers ref (" mref[g] ")"
                printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s |\n", short(gp[i]), gk[i], tool[g, n], runs[g, n], (med[g, n] == "" ? "–" : med[g, n]), (mbs[g, n] == "" ? "–" : mbs[g, n]), (rss[g, n] == "" || rss[g, n] == 0 ? "–" : sprintf("%.1f", rss[g, n] / 1024)), (lines[g, n] == "" ? "–" : lines[g, n]), nt
            }
        }
    }
    print ""
    print "### Counts that differ from agrep-gpu"
    print ""
    if (!nd) print "None."
    for (i = 1; i <= nd; i++) print diffs[i]
    print ""
    print "Known peer behaviour (shared/DESIGN.md): ugrep -Z never edits the pattern'"'"'s first character;" \
          " agrep 3.0 misses matches of literal patterns of 24+ bytes, overcounts with -c (hence `| wc -l`) and refuses k >= pattern length;" \
          " tre-agrep drops the newline of an unterminated last line and reads `-10` as `-1 -0` (hence `-E K`)."
}' "$CSV" >"$TMP/body.md"

# start-up, RSS, scaling
{
if grep -q '^startup,' "$CSV"; then
    echo
    echo "## Start-up (1 KB file)"
    echo
    echo "\`$(basename "$SMALL")\` ($(csv_bytes small-1K) bytes), pattern \`LORD\` k=1 (grep -F: k=0); hyperfine -N, 3 warm-up runs + $STARTUP_RUNS runs, milliseconds." \
         "\`agrep-gpu(plain)\`: as a user runs it (no --device, no AGREP_GPU_HOST_MAX: a small input may go to the host matcher);" \
         "the numbered devices run with \`AGREP_GPU_HOST_MAX=${DEVICE_HOST_MAX:-unset}\` (OpenCL start-up included)."
    echo
    echo "| tool | median ms | mean ± σ ms | min ms | max ms |"
    echo "|---|--:|--:|--:|--:|"
    awk -F, 'NR > 1 && $1 == "startup" { split($12, a, " "); delete v
        for (i = 2; i in a; i++) { split(a[i], kv, "="); v[kv[1]] = kv[2] }
        printf "| `%s` | %.2f | %.2f ± %.2f | %.2f | %.2f |\n", $6, $8 * 1e3, v["mean"] * 1e3, v["sd"] * 1e3, v["min"] * 1e3, v["max"] * 1e3 }' "$CSV"
fi
if [[ -n $RSS_CORPUS ]]; then
    echo
    echo "## Peak RSS: ${RSS_CORPUS} ($(fmt_mb "$(csv_bytes "$RSS_CORPUS")")) from a file and from a pipe"
    echo
    echo "Pattern \`LORD\` k=1 (grep -F: k=0), one run each. Pipe: \`cat FILE | tool ... -\` (the tool reads standard input). tre-agrep left out (minutes per GiB)."
    echo
    echo "| tool | file: s | file: MB/s | file: peak RSS MiB | pipe: s | pipe: MB/s | pipe: peak RSS MiB | lines (file / pipe) | note |"
    echo "|---|--:|--:|--:|--:|--:|--:|--:|---|"
    awk -F, -v c="$RSS_CORPUS" '
    NR > 1 && $2 == c && ($1 == "rss-file" || $1 == "rss-pipe") {
        if (!($6 in seen)) { seen[$6] = 1; order[++n] = $6 }
        s[$6, $1] = $8; m[$6, $1] = $9; r[$6, $1] = $10; l[$6, $1] = $11; st[$6, $1] = $12 }
    END { for (i = 1; i <= n; i++) { t = order[i]
        nt = ""; if (st[t, "rss-file"] != "ok") nt = "file: " st[t, "rss-file"]
        if (st[t, "rss-pipe"] != "ok") nt = nt " pipe: " st[t, "rss-pipe"]
        if (l[t, "rss-file"] != l[t, "rss-pipe"]) nt = nt " ⚠ file and pipe counts differ"
        printf "| `%s` | %s | %s | %.1f | %s | %s | %.1f | %s / %s | %s |\n", t, s[t, "rss-file"], m[t, "rss-file"], r[t, "rss-file"] / 1024,
               s[t, "rss-pipe"], m[t, "rss-pipe"], r[t, "rss-pipe"] / 1024, l[t, "rss-file"], l[t, "rss-pipe"], nt } }' "$CSV"
fi
if [[ -n $SCALING_CORPUS ]]; then
    echo
    echo "## Time vs k: \`$PHRASE\` on ${SCALING_CORPUS} ($(fmt_mb "$(csv_bytes "$SCALING_CORPUS")"))"
    echo
    echo "Median seconds (MB/s). Myers' algorithm costs the same for every k; the peers slow down as k grows. Chart: \`$(basename "$SCALING_SVG")\`."
    echo
    awk -F, -v c="$SCALING_CORPUS" -v ks="$KS" '
    NR > 1 && $1 == "scaling" && $2 == c {
        if (!($6 in seen)) { seen[$6] = 1; order[++n] = $6 }
        v[$6, $5] = ($8 == "" ? $12 : sprintf("%.3f (%.0f)", $8, $9)); l[$6, $5] = $11; if ($6 ~ /^agrep-gpu/ && !(($5) in ref)) ref[$5] = $11 }
    END { nk = split(ks, K, " "); h = "| tool |"; sep = "|---|"
        for (j = 1; j <= nk; j++) { h = h " k=" K[j] " |"; sep = sep "--:|" }
        print h; print sep
        for (i = 1; i <= n; i++) { t = order[i]; row = "| `" t "` |"
            for (j = 1; j <= nk; j++) { x = ((t, K[j]) in v) ? v[t, K[j]] : "–"
                if (((t, K[j]) in v) && (K[j] in ref) && l[t, K[j]] != ref[K[j]]) x = x " ⚠" l[t, K[j]] "≠" ref[K[j]]
                row = row " " x " |" }
            print row } }' "$CSV"
fi
if ((${#NOTES[@]})); then
    echo
    echo "## Notes from this run"
    echo
    for n in "${NOTES[@]}"; do echo "- $n"; done
fi
} >"$TMP/tail.md"

cat "$TMP/head.md" "$TMP/body.md" "$TMP/tail.md" >"$OUT"
log "wrote $OUT and $CSV"

log "done in $(( $(date +%s) - START_TS )) s"

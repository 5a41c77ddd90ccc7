#!/bin/sh
# run.sh: builds and runs the libFuzzer harnesses of tests/fuzz/.
#
# Usage: tests/fuzz/run.sh [COMMAND] [HARNESS...]
#
#   build     compile each harness with clang -fsanitize=fuzzer,address,undefined
#   seed      collect the seed corpora from tests/ and data/ (PGN games, FENs,
#             SAN move lists); nothing is copied into the source tree
#   run       (default) build, seed, then fuzz each harness for its share of
#             FUZZ_TIME seconds; fails on any crash, leak, timeout or
#             sanitizer report, and replays the regressions first
#   regress   build, then replay tests/fuzz/regressions/HARNESS/* once
#
# Harnesses: lex reader split fen san json fix (default: all).
#
# Environment:
#   FUZZ_TIME   total seconds of fuzzing for `run` (default 100, spread evenly)
#   FUZZ_DIR    work directory: binaries, seeds, growing corpora, crashes
#               (default ./fuzz-work, under the current directory)
#   FUZZ_JOBS   libFuzzer -jobs per harness (default 1)
#   CLANG       the compiler (default clang)
#   FUZZ_FLAGS  extra libFuzzer flags (e.g. -rss_limit_mb=512)
#   FUZZ_SEED   libFuzzer's -seed: the same seed, binary and seeds give the
#               same inputs in the same order, so a shorter run on a slower
#               machine tries a prefix of a longer one (default: random)
#
# A crash is saved as FUZZ_DIR/crashes/HARNESS-crash-SHA1 (or leak-, timeout-,
# oom-); reproduce it with FUZZ_DIR/bin/fuzz_HARNESS FILE, then copy it to
# tests/fuzz/regressions/HARNESS/ with a name that says what it found.
# Exit status: 0 clean, 1 a harness failed, 77 clang cannot build libFuzzer
# targets (automake's "skipped"), 99 a setup error.

set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cmd=${1:-run}
case $cmd in
build | seed | run | regress) shift ;;
-h | --help)
    sed -n '2,/^$/s/^# \{0,1\}//p' "$0"
    exit 0
    ;;
*) cmd=run ;;
esac
all="lex reader split fen san json fix reason"
harnesses=${*:-$all}
for h in $harnesses; do
    case " $all " in
    *" $h "*) ;;
    *)
        echo "run.sh: no harness '$h' (one of: $all)" >&2
        exit 99
        ;;
    esac
done

work=${FUZZ_DIR:-$(pwd)/fuzz-work}
mkdir -p "$work/bin" "$work/obj" "$work/seeds" "$work/corpus" "$work/crashes" "$work/logs" || exit 99
work=$(cd "$work" && pwd)
CLANG=${CLANG:-clang}
jobs=${FUZZ_JOBS:-1}

# ---- build -----------------------------------------------------------------

san_flags="-fsanitize=address,undefined -fno-sanitize-recover=all"
# Any sanitizer report stops the harness, and libFuzzer counts it a crash;
# ours come last, so they win over the caller's.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}halt_on_error=1"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1"
export ASAN_OPTIONS UBSAN_OPTIONS
cflags="-std=c11 -D_POSIX_C_SOURCE=200809L -DARB_HAVE_NOINLINE=1 -DARB_HAVE_CTZLL=1 -DPACKAGE_VERSION=\"fuzz\" -I$top/include -I$top/src/lib -I$here -g -O1 -fno-omit-frame-pointer"

build() {
    if ! command -v "$CLANG" >/dev/null 2>&1; then
        echo "run.sh: no $CLANG: install clang (Debian: apt-get install clang) to fuzz" >&2
        exit 77
    fi
    printf 'int LLVMFuzzerTestOneInput(const char *d, long n) { return d && n < 0; }\n' >"$work/probe.c"
    if ! "$CLANG" -fsanitize=fuzzer,address,undefined "$work/probe.c" -o "$work/probe" >"$work/probe.log" 2>&1; then
        echo "run.sh: $CLANG cannot link libFuzzer targets (Debian: apt-get install libclang-rt-dev):" >&2
        cat "$work/probe.log" >&2
        exit 77
    fi
    # The library: the sources of libarbcore.la, as Makefile.am lists them.
    lib_sources=$(sed -n '/^libarbcore_la_SOURCES *=/,/[^\\]$/p' "$top/Makefile.am" |
        tr ' \t\\' '\n\n\n' | grep '\.c$')
    [ -n "$lib_sources" ] || { echo "run.sh: no libarbcore_la_SOURCES in Makefile.am" >&2; exit 99; }
    objs=
    for rel in $lib_sources; do
        src=$top/$rel
        name=$(basename "$src" .c)
        obj=$work/obj/$name.o
        if [ ! -f "$obj" ] || [ "$src" -nt "$obj" ] || newer_header "$obj"; then
            # shellcheck disable=SC2086
            "$CLANG" $cflags $san_flags -fsanitize=fuzzer-no-link -c "$src" -o "$obj" || exit 1
        fi
        objs="$objs $obj"
    done
    for h in $harnesses; do
        # shellcheck disable=SC2086
        "$CLANG" $cflags $san_flags -fsanitize=fuzzer "$here/fuzz_$h.c" $objs -o "$work/bin/fuzz_$h" || exit 1
    done
}

# Whether any header is newer than $1.
newer_header() {
    for hdr in "$top"/include/*.h "$top"/src/lib/*.h "$top"/src/lib/dead/*.h "$here"/*.h; do
        [ "$hdr" -nt "$1" ] && return 0
    done
    return 1
}

# ---- seeds -----------------------------------------------------------------

seed() {
    command -v python3 >/dev/null 2>&1 || {
        echo "run.sh: python3 is needed to collect seeds; fuzzing from empty corpora" >&2
        # CI installs everything: a part left out there is a failure.
        [ "${CI:-}" = true ] && exit 1
        return 0
    }
    python3 - "$top" "$work/seeds" <<'EOF'
import gzip, hashlib, os, re, sys

top, out = sys.argv[1], sys.argv[2]
def put(harness, data):
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), 'wb') as f:
        f.write(data)

pgns, fens = [], []
for root in ('tests', 'data'):
    for dirpath, dirs, files in os.walk(os.path.join(top, root)):
        dirs[:] = [d for d in dirs if d not in ('fuzz',)]
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            raw = open(path, 'rb').read()
            if name.endswith('.gz'):
                put('reader', raw[:4096])
                try:
                    raw = gzip.decompress(raw)
                except Exception:
                    continue
                name = name[:-3]
            if name.endswith('.pgn'):
                pgns.append(raw)
            elif name.endswith(('.perft', '.txt', '.epd')):
                for line in raw.splitlines():
                    line = line.strip()
                    if line.startswith(b'epd '):
                        fens.append(line[4:])
                    elif line and not line.startswith(b'#') and b'/' in line.split(b';')[0]:
                        fens.append(line.split(b';')[0].strip())

# Games: a new game starts at a tag line after movetext.
games = []
for raw in pgns:
    cur, moves = [], False
    for line in raw.splitlines(keepends=True):
        if line.startswith(b'[') and moves:
            games.append(b''.join(cur))
            cur, moves = [], False
        if line.strip() and not line.startswith(b'['):
            moves = True
        cur.append(line)
    if cur:
        games.append(b''.join(cur))
    # Whole small files too: several games, odd line ends, what lies between.
    if len(raw) <= 16384:
        for h in ('lex', 'reader', 'split', 'json', 'fix'):
            put(h, raw)

# Split: cuts need games after games.
for i in range(0, len(games) - 2, 2):
    put('split', b''.join(games[i:i + 3])[:8192])

for g in games:
    g = g[:8192]
    for h in ('lex', 'reader', 'json', 'fix'):
        put(h, g)
    for m in re.finditer(rb'\[FEN\s+"([^"]*)"\]', g):
        fens.append(m.group(1))
    if b'[FEN ' in g or b'[SetUp "1"]' in g:
        continue
    # SAN: byte 0 = 0 (start position, no plies), then the movetext words.
    text = b'\n'.join(l for l in g.splitlines() if not l.startswith(b'['))
    text = re.sub(rb'\{[^}]*\}|;[^\n]*|\$\d+|\d+\.+', b' ', text)
    words = text.split()
    if words:
        put('san', b'\0' + b' '.join(words[:200]))
    # Also from a few random plies in, with the same text after.
    put('san', bytes([0x85, 7, 3, 11, 2, 9, 5]) + b' '.join(words[:40]))

for f in fens:
    put('fen', f)
put('fen', b'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1')
put('san', bytes([0x40 | 20, 1, 0x2c]) + b'O-O O-O-O Kg1 Rf1 Nc3 e4')
# reason: byte 0 picks the place (0 Termination, 1 TerminationDetails, 2
# comment, 3 all; 16 the game 1. e4 e5) and the result (bits 2-3).
for head, text in ((2 | 4, b'-8.11/24 5.0s, Black mates'), (0, b'Game drawn by repetition'),
                   (1 | 8, b'SyzygyTB'), (3, b'White loses on time (35ms overrun)'),
                   (0 | 16, b'ann won on time'), (2 | 8 | 16, b'x,\r\n Draw by 3-fold repetition '),
                   (0 | 8 | 16, b'Game drawn by timeout vs insufficient material'), (2, b'book'),
                   (1 | 16, b'Adjudication: TCEC draw rule'), (0, b'Time forfeit')):
    put('reason', bytes([head]) + text)
EOF
}

# ---- run -------------------------------------------------------------------

# fuzz_one HARNESS SECONDS: one libFuzzer run; returns its status.
fuzz_one() {
    h=$1
    secs=$2
    mkdir -p "$work/corpus/$h" "$work/seeds/$h"
    log=$work/logs/$h.log
    # -timeout: a linear-time input must not take seconds; -rss_limit_mb:
    # memory is bounded by design; -max_len: small inputs find bugs faster.
    par=
    [ "$jobs" -gt 1 ] && par="-jobs=$jobs -workers=$jobs"
    [ -n "${FUZZ_SEED:-}" ] && par="$par -seed=$FUZZ_SEED"
    # shellcheck disable=SC2086
    "$work/bin/fuzz_$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -max_len=8192 \
        -print_final_stats=1 $par \
        -artifact_prefix="$work/crashes/$h-" ${FUZZ_FLAGS:-} \
        "$work/corpus/$h" "$work/seeds/$h" >"$log" 2>&1
    rc=$?
    [ "$jobs" -gt 1 ] && cat fuzz-*.log >>"$log" 2>/dev/null && rm -f fuzz-*.log
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s += $1} END {print s + 0}')
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1)
    echo "fuzz_$h: ${secs}s, $execs executions, ${cov:-cov: ?}, corpus $(ls "$work/corpus/$h" | wc -l) inputs, status $rc"
    if [ "$rc" -ne 0 ]; then
        grep -E 'Seed:|ERROR|WARNING|invariant|SUMMARY|Test unit written' "$log" | head -20
        echo "    (full log: $log)"
        # The input itself, so that a failure far away (CI) can be replayed:
        # base64 -d > FILE, then fuzz_$h FILE.
        for f in "$work/crashes/$h-"*; do
            [ -f "$f" ] || continue
            echo "    input $f, base64:"
            base64 "$f" | sed 's/^/    /'
        done
    fi
    return "$rc"
}

regress() {
    failed=0
    for h in $harnesses; do
        dir=$here/regressions/$h
        [ -n "$(ls -A "$dir" 2>/dev/null)" ] || continue
        # Each file once, as libFuzzer replays files given on its command line.
        if ! "$work/bin/fuzz_$h" -runs=1 "$dir"/* >"$work/logs/$h-regress.log" 2>&1; then
            echo "FAIL: fuzz_$h on the regressions of $dir:"
            grep -E 'ERROR|invariant|SUMMARY|Running' "$work/logs/$h-regress.log" | tail -10
            failed=1
        else
            echo "ok: fuzz_$h: $(ls "$dir" | wc -l) regressions"
        fi
    done
    return $failed
}

case $cmd in
build) build ;;
seed) seed ;;
regress)
    build
    regress || exit 1
    ;;
run)
    build
    seed
    regress || exit 1
    n=$(echo $harnesses | wc -w)
    total=${FUZZ_TIME:-100}
    each=$((total / n))
    [ "$each" -ge 1 ] || each=1
    failed=0
    for h in $harnesses; do
        fuzz_one "$h" "$each" || failed=1
    done
    if [ "$failed" -ne 0 ]; then
        echo "run.sh: a harness failed; see $work/crashes/"
        exit 1
    fi
    ;;
esac
exit 0

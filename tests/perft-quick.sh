#!/bin/sh
# perft-quick.sh: the move generator's node counts on the bundled suites
# (tests/data, see SOURCES.md), cut to depths that take a few seconds in all
# with -O2, and the draw-perft file in full.  Prints one line per position
# and a last line "N passed, M failed".  `make check` runs it from the top
# build directory with PERFT and srcdir set; by hand:
#   PERFT=./tests/perft sh tests/perft-quick.sh
# The full suites: tests/perft [--depth-limit N] FILE...
here=$(dirname "$0")
data=${abs_top_srcdir:+$abs_top_srcdir/tests/data}
data=${data:-$here/data}
perft=${PERFT:-$here/perft}

if [ ! -x "$perft" ] && [ -z "${PERFT:-}" ]; then
    echo "perft-quick.sh: $perft not found (build it, or set PERFT)" >&2
    exit 2
fi

passed=0
failed=0
status=0

# run ARGS...: one perft run; adds its "N passed, M failed" to the totals.
run() {
    out=$($perft "$@")
    rc=$?
    printf '%s\n' "$out" | sed '$d'
    last=$(printf '%s\n' "$out" | tail -n 1)
    p=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\1/p')
    f=$(printf '%s\n' "$last" | sed -n 's/^\([0-9][0-9]*\) passed, \([0-9][0-9]*\) failed.*/\2/p')
    if [ -z "$p" ] || [ -z "$f" ]; then
        echo "perft-quick.sh: perft $* ended without a summary (exit $rc)" >&2
        failed=$((failed + 1))
        status=1
        return
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$rc" -ne 0 ]; then
        status=1
    fi
}

run --depth-limit 5 "$data/perft-tricky.perft"
run --chess960 --depth-limit 3 "$data/perft-chess960.perft"
run --depth-limit 3 "$data/perft-random.perft"
run --draws "$data/draw-perft.txt"

echo "$passed passed, $failed failed"
if [ "$failed" -ne 0 ]; then
    status=1
fi
exit $status

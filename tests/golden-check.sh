#!/bin/sh
# golden-check.sh: pgn-arbiter against python-chess's answers.
#
# Usage: tests/golden-check.sh [SAMPLE...]    `make check` runs every sample.
#
# A sample is a PGN file under tests/data/golden/ with its reference report
# beside it: NAME.pgn and NAME.pgn.jsonl (where they come from, and their
# licences: tests/data/golden/SOURCES.md).  Each sample is run through
# `pgn-arbiter --json` and compared game by game with its reference by
# tests/golden_compare.py (which fields, and the one tolerated difference,
# are written at its top).  A SAMPLE argument is a path below
# tests/data/golden, e.g. rules/kbkb.pgn.
#
# Environment: PGN_ARBITER, the program (default src/pgn-arbiter below the
# current directory); FEN_AT, tests/fen-at, with which golden_compare.py
# checks an early dead position (default tests/fen-at below the current
# directory); abs_top_srcdir or top_srcdir, to find tests/ (default:
# the directory above this script's); PYTHON (default python3).
#
# Prints each differing game, then `N passed, M failed` (samples).  Exit
# status 1 if any sample failed, 77 (automake's "skipped") without python3
# or without samples, 99 if the program is missing.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
golden=$top/tests/data/golden
compare=$top/tests/golden_compare.py
if [ ! -d "$golden" ] || [ ! -f "$compare" ]; then
    echo "golden-check.sh: no $golden or no $compare" >&2
    exit 99
fi

PGN_ARBITER=${PGN_ARBITER:-src/pgn-arbiter}
if [ ! -x "$PGN_ARBITER" ]; then
    echo "golden-check.sh: $PGN_ARBITER is not an executable program" >&2
    exit 99
fi
FEN_AT=${FEN_AT:-tests/fen-at}
if [ ! -x "$FEN_AT" ]; then
    echo "golden-check.sh: $FEN_AT is not an executable program" >&2
    exit 99
fi
PYTHON=${PYTHON:-python3}
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "golden-check.sh: $PYTHON not found: skipped" >&2
    exit 77
fi

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/golden-check.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

passed=0
failed=0

# check_sample REL: one sample, REL relative to tests/data/golden.
check_sample() {
    rel=$1
    pgn=$golden/$rel
    ref=$pgn.jsonl
    if [ ! -f "$pgn" ] || [ ! -f "$ref" ]; then
        echo "FAIL: $rel: no such sample (needs $rel and $rel.jsonl)"
        failed=$((failed + 1))
        return
    fi
    "$PGN_ARBITER" --json "$pgn" >"$tmp/report" 2>"$tmp/stderr"
    status=$?
    if [ "$status" -ne 0 ]; then
        echo "FAIL: $rel: pgn-arbiter exited with status $status:"
        sed 's/^/    /' "$tmp/stderr"
        failed=$((failed + 1))
        return
    fi
    if "$PYTHON" "$compare" --name "$rel" --pgn "$pgn" --arbiter "$PGN_ARBITER" \
        --fen-at "$FEN_AT" "$ref" "$tmp/report" >"$tmp/diff" 2>&1; then
        echo "ok: $rel ($(tail -n 1 "$tmp/diff"))"
        passed=$((passed + 1))
    else
        echo "FAIL: $rel:"
        sed 's/^/    /' "$tmp/diff"
        failed=$((failed + 1))
    fi
}

if [ $# -gt 0 ]; then
    for rel in "$@"; do
        check_sample "$rel"
    done
else
    # Every file with a reference beside it, in a stable order.
    for ref in $(cd "$golden" && find . -name '*.jsonl' -type f | LC_ALL=C sort); do
        rel=${ref#./}
        check_sample "${rel%.jsonl}"
    done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
exit 0

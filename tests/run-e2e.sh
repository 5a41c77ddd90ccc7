#!/bin/sh
# run-e2e.sh: end-to-end tests of the pgn-arbiter program (golden files).
#
# Usage: tests/run-e2e.sh [CASE...]    `make check` runs every case.
#
# A case is a directory tests/e2e/NAME/ holding:
#   cmd              one line of shell, run by sh from inside the case
#                    directory with $PGN_ARBITER set to the program, e.g.
#                        $PGN_ARBITER --json game.pgn
#   expected-stdout  the exact standard output
#   expected-status  optional: the exit status, an integer (default 0)
#   expected-stderr  optional: the exact standard error
#   anything else    the inputs cmd names (game.pgn, game.pgn.gz, ...)
# Standard input is /dev/null unless cmd redirects it.  A directory without
# cmd is not a case (inputs shared by several cases may live in one).
# Expected files are the program's real, reviewed output: never made up.
# If jq is installed, each stdout line of a case whose cmd contains --json
# must also be one valid JSON value (`jq -e .`); with CI=true, jq must be.
# A cmd must not pipe the program's output into another command (`$PGN_ARBITER
# ... | head`): a pipeline's status is its last command's, so the program's
# would be lost.  Keep it instead: out=$($PGN_ARBITER ...); s=$?; then print
# "status $s" and filter "$out".
#
# Environment: PGN_ARBITER, the program (default src/pgn-arbiter below the
# current directory); abs_top_srcdir or top_srcdir, to find tests/e2e
# (default: the directory above this script's).
#
# Prints each failure with what differed, then `N passed, M failed`.  Exit
# status 1 if any case failed, 77 (automake's "skipped") if there is no case.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
e2e=$(cd "$top/tests/e2e" 2>/dev/null && pwd) || {
    echo "run-e2e.sh: no directory $top/tests/e2e" >&2
    exit 99
}

PGN_ARBITER=${PGN_ARBITER:-src/pgn-arbiter}
case $PGN_ARBITER in
/*) ;;
*) PGN_ARBITER=$(pwd)/$PGN_ARBITER ;;
esac
export PGN_ARBITER
if [ ! -x "$PGN_ARBITER" ]; then
    echo "run-e2e.sh: $PGN_ARBITER is not an executable program" >&2
    exit 99
fi

have_jq=no
command -v jq >/dev/null 2>&1 && have_jq=yes
if [ "$have_jq" = no ] && [ "${CI:-}" = true ]; then
    echo "run-e2e.sh: no jq, and CI=true: the JSON of the cases would go unchecked" >&2
    exit 1
fi

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/run-e2e.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

passed=0
failed=0

# run_case NAME: runs one case, prints what differed, counts it.
run_case() {
    name=$1
    dir=$e2e/$name
    bad=0
    if [ ! -f "$dir/cmd" ]; then
        echo "FAIL: $name: no such case (no $dir/cmd)"
        failed=$((failed + 1))
        return
    fi
    if [ ! -f "$dir/expected-stdout" ]; then
        echo "FAIL: $name: no expected-stdout"
        failed=$((failed + 1))
        return
    fi

    if grep -qE '\$PGN_ARBITER[^;|]*\|([^|]|$)' "$dir/cmd"; then
        echo "FAIL: $name: cmd pipes the program's output, so its exit status is lost"
        bad=1
    fi
    (cd "$dir" && exec sh ./cmd) </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
    status=$?

    want=0
    if [ -f "$dir/expected-status" ]; then
        want=$(tr -d ' \t\r\n' <"$dir/expected-status")
        case $want in
        '' | *[!0-9]*)
            echo "FAIL: $name: expected-status is not an integer: '$want'"
            bad=1
            ;;
        esac
    fi
    if [ "$bad" = 0 ] && [ "$status" -ne "$want" ]; then
        echo "FAIL: $name: exit status $status, expected $want"
        bad=1
    fi

    if ! cmp -s "$dir/expected-stdout" "$tmp/stdout"; then
        echo "FAIL: $name: standard output differs:"
        diff -u "$dir/expected-stdout" "$tmp/stdout" | sed 's/^/    /'
        bad=1
    fi
    if [ -f "$dir/expected-stderr" ] && ! cmp -s "$dir/expected-stderr" "$tmp/stderr"; then
        echo "FAIL: $name: standard error differs:"
        diff -u "$dir/expected-stderr" "$tmp/stderr" | sed 's/^/    /'
        bad=1
    fi

    if [ "$have_jq" = yes ] && grep -q -e '--json' "$dir/cmd"; then
        n=0
        while IFS= read -r line || [ -n "$line" ]; do
            n=$((n + 1))
            if ! printf '%s\n' "$line" | jq -e . >/dev/null 2>&1; then
                echo "FAIL: $name: stdout line $n is not valid JSON: $line"
                bad=1
            fi
        done <"$tmp/stdout"
    fi

    if [ "$bad" = 0 ]; then
        echo "ok: $name"
        passed=$((passed + 1))
    else
        echo "    (cmd: $(cat "$dir/cmd"))"
        failed=$((failed + 1))
    fi
}

if [ $# -gt 0 ]; then
    for name in "$@"; do
        run_case "${name%/}"
    done
else
    for d in "$e2e"/*/; do
        [ -f "$d/cmd" ] || continue
        d=${d%/}
        run_case "${d##*/}"
    done
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
exit 0

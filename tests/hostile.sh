#!/bin/sh
# hostile.sh: hostile input at bounded cost.
#
# Usage: tests/hostile.sh [CASE...]     `make check` runs every case.
#
# Each case is made on the fly by tests/hostile-gen (nothing big is stored)
# and piped into `pgn-arbiter -jJ --json -` for J in HOSTILE_JOBS; the
# input ends with one well-formed game (Event "after").  A case passes when
#   - pgn-arbiter exits 0 (per-game errors are not I/O errors),
#   - it reports the hostile game as the case expects (a clear per-game
#     error where the text is not PGN, the right facts where it is),
#   - it carries on: the last record is the "after" game, read correctly,
#   - its peak RSS stays under HOSTILE_RSS_KB and its wall time under the
#     case's bound times HOSTILE_TIME_SCALE.  The bounds are far below what
#     quadratic work on these sizes would take, so they check linearity.
#
# Cases: longline nested tags comment tagvalue plies pawnplies wander empty
# nul random.
#
# Environment:
#   PGN_ARBITER        the program (default src/pgn-arbiter)
#   HOSTILE_GEN        the generator (default tests/hostile-gen beside it,
#                      under abs_top_builddir if set)
#   HOSTILE_FULL=1     the full sizes: a 1 GiB line (default 64 MiB)
#   HOSTILE_JOBS       thread counts to try (default "1 2")
#   HOSTILE_RSS_KB     memory bound in kB (default 65536); not checked under
#                      AddressSanitizer or ThreadSanitizer, whose shadow
#                      memory dominates the figure
#   HOSTILE_TIME_SCALE multiplies the time bounds (default 1, 10 under
#                      either sanitizer)
#
# Under valgrind (VALGRIND set by ./configure --enable-valgrind) the cases
# are skipped: they measure the program, not the checker.
# Prints each result, then `N passed, M failed`; exit 1 if any failed, 77
# if skipped.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
build=${abs_top_builddir:-.}
PGN_ARBITER=${PGN_ARBITER:-$build/src/pgn-arbiter}
HOSTILE_GEN=${HOSTILE_GEN:-$build/tests/hostile-gen}
jobs=${HOSTILE_JOBS:-1 2}
rss_max=${HOSTILE_RSS_KB:-65536}

if [ -n "${VALGRIND:-}" ] && [ "${HOSTILE_VALGRIND:-0}" != 1 ]; then
    echo "hostile.sh: skipped under valgrind"
    exit 77
fi
for prog in "$PGN_ARBITER" "$HOSTILE_GEN"; do
    if [ ! -x "$prog" ]; then
        echo "hostile.sh: $prog is not an executable program" >&2
        exit 99
    fi
done

# A sanitizer with shadow memory: each prints its flags with help=1.
shadow=no
if ASAN_OPTIONS=help=1 TSAN_OPTIONS=help=1 "$PGN_ARBITER" --version 2>&1 |
    grep -q -e AddressSanitizer -e ThreadSanitizer; then
    shadow=yes
fi
scale=${HOSTILE_TIME_SCALE:-1}
[ "$shadow" = yes ] && [ -z "${HOSTILE_TIME_SCALE:-}" ] && scale=10

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/hostile.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

passed=0
failed=0
why=

# field NAME LINE: the value of a top-level string or number field of a JSON record.
field() {
    printf '%s\n' "$2" | sed -n "s/.*\"$1\":\"\{0,1\}\([^\",}]*\).*/\1/p" | head -1
}

# The first and last records, and their count.
records() {
    n=$(wc -l <"$tmp/out" | tr -d ' ')
    first=$(head -n 1 "$tmp/out")
    last=$(tail -n 1 "$tmp/out")
}

expect() { # expect WHAT GOT WANT
    if [ "$2" != "$3" ]; then
        why="${why}${why:+; }$1 is '$2', expected '$3'"
    fi
}

# check_CASE: what the output of each case must say (after records).
check_longline() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" syntax
    grep -q 'error: game 1: cannot read "eeee*" as a move' "$tmp/err" || why="${why}${why:+; }no per-game error on stderr"
}
check_nested() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" ok
    expect "game 1 plies" "$(field plies "$first")" 2
}
check_tags() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" ok
    # MAX_TAGS (src/lib/reader.c): the first 4096 tags are kept, the rest dropped.
    expect "game 1 tags kept" "$(printf '%s\n' "$first" | grep -o '"T[0-9]*":' | wc -l | tr -d ' ')" 4095
}
check_comment() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" ok
    expect "game 1 plies" "$(field plies "$first")" 2
}
check_tagvalue() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" ok
    # LEX_MAX_VALUE (src/lib/lex.h): a tag value is kept up to 65535 bytes.
    expect "Annotator length" "$(printf '%s\n' "$first" | sed -n 's/.*"Annotator":"\(v*\)".*/\1/p' | awk '{ print length($0) }')" 65535
}
check_plies() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" ok
    expect "game 1 plies" "$(field plies "$first")" "$size"
    expect "game 1 verdict" "$(field verdict "$first")" wrong-result
}
check_pawnplies() {
    check_plies
}
check_wander() {
    check_plies
    expect "game 1 seventy-five-move ply" "$(printf '%s\n' "$first" | sed -n 's/.*"seventyfive":\([0-9a-z]*\).*/\1/p')" 150
    expect "game 1 threefold" "$(printf '%s\n' "$first" | sed -n 's/.*"threefold":\([0-9a-z]*\).*/\1/p')" null
}
check_empty() {
    expect "records" "$n" $((size + 1))
    expect "game 1 status" "$(field status "$first")" ok
    expect "game 1 verdict" "$(field verdict "$first")" unfinished
}
check_nul() {
    expect "records" "$n" 2
    expect "game 1 status" "$(field status "$first")" syntax
    grep -q 'error: game 1: binary data' "$tmp/err" || why="${why}${why:+; }no per-game error on stderr"
}
check_random() {
    [ "$n" -ge 2 ] || why="${why}${why:+; }only $n records"
    grep -q 'error: game 1: ' "$tmp/err" || why="${why}${why:+; }no per-game error on stderr"
}

# run_case NAME SIZE SECONDS: one case on each thread count.
run_case() {
    name=$1
    size=$2
    limit=$(($3 * scale))
    for j in $jobs; do
        why=
        "$HOSTILE_GEN" "$name" "$size" | "$HOSTILE_GEN" measure "$tmp/m" "$PGN_ARBITER" -j"$j" --json - \
            >"$tmp/out" 2>"$tmp/err"
        status=$?
        rss=$(cut -d' ' -f1 "$tmp/m" 2>/dev/null)
        secs=$(cut -d' ' -f2 "$tmp/m" 2>/dev/null)
        [ -n "$rss" ] || { rss=0; secs=0; why="no measurement"; }
        expect "exit status" "$status" 0
        records
        "check_$name"
        expect "last record's Event" "$(printf '%s\n' "$last" | sed -n 's/.*"tags":{"Event":"\([^"]*\)".*/\1/p')" after
        expect "last record's verdict" "$(field verdict "$last")" consistent
        expect "last record's checkmate ply" "$(printf '%s\n' "$last" | sed -n 's/.*"checkmate":\([0-9a-z]*\).*/\1/p')" 7
        if [ "$shadow" = no ] && [ "$rss" -gt "$rss_max" ]; then
            why="${why}${why:+; }peak RSS $rss kB over $rss_max kB"
        fi
        if awk "BEGIN { exit !($secs > $limit) }"; then
            why="${why}${why:+; }$secs s over $limit s"
        fi
        if [ -z "$why" ]; then
            echo "ok: $name $size -j$j: peak RSS $rss kB, $secs s"
            passed=$((passed + 1))
        else
            echo "FAIL: $name $size -j$j: peak RSS $rss kB, $secs s: $why"
            head -c 600 "$tmp/err" | sed 's/^/    stderr: /'
            failed=$((failed + 1))
        fi
    done
}

line=67108864
[ "${HOSTILE_FULL:-0}" = 1 ] && line=1073741824

# NAME SIZE SECONDS (a release build needs a tenth of each bound or less)
cases="longline:$line:60 nested:100000:10 tags:100000:20 comment:10485760:20 tagvalue:10485760:20
plies:100000:20 pawnplies:100000:20 wander:93310:1 empty:1000000:60 nul:10485760:20 random:10485760:20"
want=${*:-}
for c in $cases; do
    IFS=: read -r name size secs <<EOF
$c
EOF
    if [ -n "$want" ]; then
        case " $want " in *" $name "*) ;; *) continue ;; esac
    fi
    run_case "$name" "$size" "$secs"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
exit 0

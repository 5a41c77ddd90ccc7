#!/bin/sh
# follow.sh: --follow, the live arbiter, against a simulated broadcast.
#
# tests/follow-sim.py plays the real games of tests/data/follow/ into a
# round's file the way broadcast software does (whole-file rewrites in
# place and by rename, writes cut in the middle of a move or a tag, a game
# joining late, two moves taken back) while `pgn-arbiter --follow --json`
# follows it, and checks the events against the batch report of each
# complete file, with a handshake instead of sleeps (see the script).  It
# runs twice: with inotify, stopped by SIGTERM; and with --poll (stat()
# every 20 ms), with an illegal move recorded then corrected, stopped by
# SIGINT.  Both must exit 0 with every event written.  tests/follow-stream.py
# replays a recorded lichess broadcast stream (and the same games sent move
# by move) through a pipe into --follow - and checks its events against
# those of --follow on a file.  tests/follow-swap.py changes what a
# followed path is while it is followed: a FIFO or a device renamed over
# it, symbolic links, its directory removed or moved, its mode made
# unreadable (see the script).  Then the usage errors: a stream among
# other FILEs and no FILE are refused with exit status 2.
#
# Skipped (77) without python3.  Environment: PGN_ARBITER (default
# src/pgn-arbiter), abs_top_srcdir or top_srcdir.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
prog=${PGN_ARBITER:-src/pgn-arbiter}
case $prog in /*) ;; *) prog=$(pwd)/$prog ;; esac

if ! command -v python3 >/dev/null 2>&1; then
    echo "SKIP: python3 is not installed"
    exit 77
fi

. "$top/tests/testlib.sh"
test_tmp follow


# The stream: --follow - against a recorded broadcast and the same games in a file.
mkdir "$tmp/stream" || exit 99
if python3 "$top/tests/follow-stream.py" --arbiter "$prog" --data "$top/tests/data/follow" \
    --work "$tmp/stream" --memory; then
    pass "a stream of games sent again as they grow"
else
    fail "a stream of games sent again as they grow"
fi

# A FIFO given as FILE is a stream too: its writer's games, then its end.
if command -v mkfifo >/dev/null 2>&1 && command -v gzip >/dev/null 2>&1 && mkfifo "$tmp/fifo"; then
    gzip -dc "$top/tests/data/follow/broadcast-stream.pgn.gz" >"$tmp/fifo" &
    "$prog" --follow "$tmp/fifo" >"$tmp/fifo.out" 2>"$tmp/fifo.err"
    rc=$?
    wait
    if [ "$rc" -eq 0 ] && [ ! -s "$tmp/fifo.err" ] && [ "$(grep -c '): checkmate at 17...Qd1#' "$tmp/fifo.out")" -eq 2 ] &&
        [ "$(wc -l <"$tmp/fifo.out")" -eq 3 ]; then
        pass "--follow FIFO: the recorded round's three events, exit 0"
    else
        fail "--follow FIFO: exit $rc, $(cat "$tmp/fifo.out" "$tmp/fifo.err")"
    fi
else
    echo "note: no mkfifo: the FIFO case is not run"
fi

for scenario in round poll; do
    mkdir "$tmp/$scenario" || exit 99
    if python3 "$top/tests/follow-sim.py" --arbiter "$prog" --data "$top/tests/data/follow" \
        --work "$tmp/$scenario" --scenario "$scenario"; then
        pass "simulated broadcast: $scenario"
    else
        fail "simulated broadcast: $scenario"
    fi
done

for scenario in special symlink directory unreadable; do
    mkdir "$tmp/$scenario" || exit 99
    python3 "$top/tests/follow-swap.py" --arbiter "$prog" --work "$tmp/$scenario" --scenario "$scenario"
    case $? in
    0) pass "followed path changed: $scenario" ;;
    77) if [ "${CI:-}" = true ]; then
            fail "followed path changed: $scenario: skipped, and CI=true"
        else
            echo "skip: followed path changed: $scenario"
        fi ;;
    *) fail "followed path changed: $scenario" ;;
    esac
done

# usage ERROR-TEXT ARG...: exit status 2, the text on stderr, nothing on stdout.
# (Bounded by timeout(1), if there is one: a refusal that failed would follow
# forever.)
bound=
command -v timeout >/dev/null 2>&1 && bound="timeout 120"
usage() {
    want=$1
    shift
    $bound "$prog" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
        pass "pgn-arbiter $*: exit 2, '$want'"
    else
        fail "pgn-arbiter $*: exit $rc, stderr: $(head -2 "$tmp/err")"
    fi
}
: >"$tmp/a.pgn"
usage "reads a stream (standard input, a FIFO) alone" --follow "$tmp/a.pgn" -
usage "needs at least one FILE" --follow
usage "needs plain files" --follow "$tmp"
usage "go with --follow" --settle 1 "$tmp/a.pgn"
usage "go with --follow" --poll "$tmp/a.pgn"
usage "from 0.001 to 86400" --follow --interval 0 "$tmp/a.pgn"
usage "cannot be combined" --follow --fix "$tmp/a.pgn"

tally

#!/bin/sh
# golden-compare.sh: tests/golden_compare.py tolerates a dead position
# earlier than the reference's insufficient material only when it is proven:
# a report doctored to find dead positions where there are none must fail,
# and a true one, which python-chess cannot see, must pass.
#
# Environment: PGN_ARBITER, FEN_AT (defaults below the current directory),
# abs_top_srcdir or top_srcdir, PYTHON (default python3).  Exit status 77
# (skipped) without python3, 99 if a program is missing.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
compare=$top/tests/golden_compare.py
sample=$top/tests/data/golden/online/lichess-db-2013-01-first100.pgn
PGN_ARBITER=${PGN_ARBITER:-src/pgn-arbiter}
FEN_AT=${FEN_AT:-tests/fen-at}
PYTHON=${PYTHON:-python3}
for prog in "$PGN_ARBITER" "$FEN_AT"; do
    if [ ! -x "$prog" ]; then
        echo "golden-compare.sh: $prog is not an executable program" >&2
        exit 99
    fi
done
if ! command -v "$PYTHON" >/dev/null 2>&1; then
    echo "golden-compare.sh: $PYTHON not found: skipped" >&2
    exit 77
fi

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/golden-compare.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

failed=0
# expect STATUS WHY WHAT PGN REFERENCE REPORT [OPTION...]: golden_compare.py,
# with the proof's programs unless an option is given, must exit with STATUS
# and print WHY (a fixed string, or nothing).
expect() {
    want=$1 why=$2 what=$3 pgn=$4 ref=$5 report=$6
    shift 6
    [ $# -gt 0 ] || set -- --pgn "$pgn" --arbiter "$PGN_ARBITER" --fen-at "$FEN_AT"
    "$PYTHON" "$compare" --name "$what" "$@" "$ref" "$report" >"$tmp/out" 2>&1
    status=$?
    if [ "$status" -eq "$want" ] && { [ -z "$why" ] || grep -qF "$why" "$tmp/out"; }; then
        echo "ok: $what (exit $status: $(tail -n 1 "$tmp/out"))"
    else
        echo "FAIL: $what: exit $status, expected $want${why:+ and \"$why\"}:"
        sed 's/^/    /' "$tmp/out" | head -n 20
        failed=$((failed + 1))
    fi
}

# The real report passes.
"$PGN_ARBITER" --json "$sample" >"$tmp/report" || exit 99
expect 0 "" "lichess sample as replayed" "$sample" "$sample.jsonl" "$tmp/report"

# Every other game dead at ply 2, its end and adjudicated result made to
# agree, which is all that the tolerance once asked for.
"$PYTHON" - "$sample.jsonl" "$tmp/report" >"$tmp/doctored" <<'EOF' || exit 99
import json, sys
refs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
for i, line in enumerate(open(sys.argv[2])):
    got = json.loads(line)
    ref = refs[i]
    first = ref["first"]
    if i % 2 == 0 and ref["status"] == "ok" and ref["plies"] >= 2 and \
            all(v is None or v > 2 for v in first.values()):
        got["first"]["dead"] = 2
        got["end"] = {"reason": "dead", "ply": 2, "move": "1...e5"}
        got["adjudicated"] = "1/2-1/2"
    print(json.dumps(got))
EOF
n=$(grep -c '"dead": 2' "$tmp/doctored")
[ "$n" -ge 40 ] || { echo "FAIL: only $n games doctored"; exit 1; }
expect 1 "does not find it dead" "lichess sample, $n games dead at ply 2" "$sample" "$sample.jsonl" "$tmp/doctored"

# A true dead position that insufficient material misses: pawns locked
# across the board, no other men.  The reference, python-chess's, sees none.
cat >"$tmp/blocked.pgn" <<'EOF'
[Event "locked pawns"]
[FEN "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1"]
[Result "*"]

1. Kd2 Kd7 2. Kc3 Kc6 *
EOF
first='"checkmate": null, "stalemate": null, "insufficient": null, "dead": null, "fivefold": null, "seventyfive": null, "threefold": null, "fifty": null'
echo "{\"game\": 1, \"status\": \"ok\", \"plies\": 4, \"result\": \"*\", \"first\": {$first}, \"end\": null, \"adjudicated\": \"*\"}" >"$tmp/blocked.jsonl"
"$PGN_ARBITER" --json "$tmp/blocked.pgn" >"$tmp/blocked.report"
grep -q '"dead":0' "$tmp/blocked.report" || { echo "FAIL: the locked pawns are not found dead"; exit 1; }
expect 0 "" "locked pawns, dead at ply 0" "$tmp/blocked.pgn" "$tmp/blocked.jsonl" "$tmp/blocked.report"
# Not without the proof's programs,
expect 1 "not proven" "locked pawns, nothing to prove it with" "$tmp/blocked.pgn" "$tmp/blocked.jsonl" \
    "$tmp/blocked.report" --name unproven
# nor when the reference has a checkmate later in the game.
sed 's/"checkmate": null/"checkmate": 3/' "$tmp/blocked.jsonl" >"$tmp/mated.jsonl"
expect 1 "checkmate after it" "locked pawns, a checkmate follows" "$tmp/blocked.pgn" "$tmp/mated.jsonl" "$tmp/blocked.report"

[ "$failed" -eq 0 ] || exit 1
exit 0

#!/bin/sh
# parallel.sh: scale-out with GNU parallel gives the same records as one run.
#
# A corpus of about 2 MB (PGN files of data/ and tests/data/, repeated) is
# read once by `pgn-arbiter --json` and once split into 200 kB blocks at
# "[Event " by
#     parallel --pipe --block 200k --recstart '[Event ' -k -j4 pgn-arbiter --json
# Records are compared, after `jq -c 'del(.file,.game,.line,.offset,
# .error.line, .reason.line, .reason.others[].line)'` (the fields that
# depend on where a chunk starts), sorted,
# as a whole and field by field.  Only files whose every game starts with an
# Event tag, and with no "[Event " anywhere else, can be split this way; the
# others are left out of the corpus.  Skipped (77) without parallel or jq.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
prog=${PGN_ARBITER:-src/pgn-arbiter}

for tool in parallel jq; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "SKIP: $tool is not installed"
        exit 77
    fi
done
if ! parallel --version 2>/dev/null | grep -q 'GNU parallel'; then
    echo "SKIP: 'parallel' is not GNU parallel (moreutils has one of that name)"
    exit 77
fi

. "$top/tests/testlib.sh"
test_tmp parallel

finish() {
    tally
    exit
}

# The corpus: files that split cleanly at "[Event ".
: >"$tmp/files"
(cd "$top" && find data tests/data -name '*.pgn' -type f 2>/dev/null) | LC_ALL=C sort |
while IFS= read -r f; do
    games=$("$prog" --json "$top/$f" 2>/dev/null | wc -l)
    at_start=$(grep -c '^\[Event ' "$top/$f")
    anywhere=$(grep -o '\[Event ' "$top/$f" | wc -l)
    if [ "$games" -gt 0 ] && [ "$games" -eq "$at_start" ] && [ "$at_start" -eq "$anywhere" ]; then
        echo "$top/$f" >>"$tmp/files"
    fi
done
nfiles=$(wc -l <"$tmp/files")
if [ "$nfiles" -eq 0 ]; then
    echo "parallel.sh: no PGN file under $top/data or $top/tests/data" >&2
    exit 99
fi
size=0
while [ "$size" -lt 2097152 ]; do
    while read -r f; do
        cat "$f"
        printf '\n\n'
    done <"$tmp/files" >>"$tmp/corpus.pgn"
    size=$(wc -c <"$tmp/corpus.pgn")
done
echo "corpus: $nfiles files repeated to $size bytes"

strip='del(.file, .game, .line, .offset, .error.line, .reason.line?, .reason.others[]?.line)'
"$prog" --json <"$tmp/corpus.pgn" >"$tmp/one.json" 2>"$tmp/one.err"
rc=$?
if [ "$rc" -eq 0 ]; then pass "one run exits 0"; else fail "one run exits $rc: $(head -3 "$tmp/one.err")"; fi
parallel --will-cite --pipe --block 200k --recstart '[Event ' -k -j4 "$prog" --json \
    <"$tmp/corpus.pgn" >"$tmp/par.json" 2>"$tmp/par.err"
rc=$?
if [ "$rc" -eq 0 ]; then pass "parallel exits 0"; else fail "parallel exits $rc: $(head -3 "$tmp/par.err")"; fi

n1=$(wc -l <"$tmp/one.json")
n2=$(wc -l <"$tmp/par.json")
if [ "$n1" -gt 0 ] && [ "$n1" -eq "$n2" ]; then
    pass "$n1 records both ways"
else
    fail "one run gives $n1 records, parallel $n2"
fi
# Each block numbers its games from 1: more than one block was run.
blocks=$(jq -c 'select(.game == 1)' "$tmp/par.json" | wc -l)
if [ "$blocks" -gt 1 ]; then
    pass "the input was split into $blocks blocks"
else
    fail "parallel ran $blocks block(s): the test proves nothing"
fi
[ "$n1" -gt 0 ] || finish

if ! jq -c "$strip" "$tmp/one.json" >"$tmp/one.rec" || ! jq -c "$strip" "$tmp/par.json" >"$tmp/par.rec"; then
    fail "jq cannot read the records"
    finish
fi
if cmp -s "$tmp/one.rec" "$tmp/par.rec"; then
    pass "records in the same order (-k)"
else
    fail "-k: the records do not come in the same order"
fi
LC_ALL=C sort "$tmp/one.rec" >"$tmp/one.sorted"
LC_ALL=C sort "$tmp/par.rec" >"$tmp/par.sorted"
if cmp -s "$tmp/one.sorted" "$tmp/par.sorted"; then
    pass "sorted records are the same"
else
    fail "sorted records differ (< one run, > parallel):"
    diff "$tmp/one.sorted" "$tmp/par.sorted" | head -10
fi

# Field by field: each field with the game's tags, which identify it.
for field in $(head -1 "$tmp/one.rec" | jq -r 'keys_unsorted[] | select(. != "tags")') tags; do
    if ! jq -c --arg f "$field" '{tags, ($f): .[$f]}' "$tmp/one.rec" >"$tmp/one.field" ||
        ! jq -c --arg f "$field" '{tags, ($f): .[$f]}' "$tmp/par.rec" >"$tmp/par.field"; then
        fail "jq cannot project field $field"
        continue
    fi
    LC_ALL=C sort -o "$tmp/one.field" "$tmp/one.field"
    LC_ALL=C sort -o "$tmp/par.field" "$tmp/par.field"
    if cmp -s "$tmp/one.field" "$tmp/par.field"; then
        pass "field $field"
    else
        fail "field $field differs, first differences (< one run, > parallel):"
        diff "$tmp/one.field" "$tmp/par.field" | head -4
    fi
done
# The chunk-dependent fields are there, and do depend on the chunk.
for field in file game line offset; do
    if jq -e "has(\"$field\")" "$tmp/par.json" >/dev/null; then
        pass "parallel records have $field"
    else
        fail "parallel records lack $field"
    fi
done
finish

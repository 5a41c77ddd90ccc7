#!/bin/sh
# jobs.sh: -j N writes, byte for byte, what -j 1 writes.
#
# Usage: tests/jobs.sh                  `make check` runs it.
#
# With -j N a plain file is mapped and cut into pieces in place, and other
# input (a pipe, a compressed file) is read into pieces; either way each
# piece is replayed on a thread of its own, and a cut that turns out not to
# lie between games is undone.  This test runs, on one thread and on two and
# three, for --json, the text report, --check, --fix, --summary and --check
# --summary (whose totals, white_cannot_win and black_cannot_win among them,
# are added up across the threads):
#   corpus   every PGN file of data/ and tests/data/ (line ends of every
#            kind, byte order marks, games without tags, variations)
#            repeated to about 3 MB, so that it makes many pieces, the
#            small last ones too
#   traps    games whose comments hold a result, a blank line and a tag
#            line: the cuts the main thread would choose fall inside them
#            and must be undone
# each read from the file (mapped), from a pipe and gzip-compressed (read),
# and from standard input redirected from the file at an offset (mapped
# from inside its first page); and
#   files    many inputs on one command line: every PGN file of data/ and
#            tests/data/ (small: shared out whole among the threads), with
#            the corpus (large: cut into pieces), a gzip file, standard
#            input, a missing file, a directory, and a small file of 40,000
#            empty games (its report outgrows what a worker may hold, so it
#            is read again in turn) among them
# Standard output, standard error and the exit status must be the
# one-thread ones.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
prog=${PGN_ARBITER:-src/pgn-arbiter}

. "$top/tests/testlib.sh"
test_tmp jobs
quiet_pass=1 # thousands of comparisons: only failures are told


# The corpus.
(cd "$top" && find data tests/data -name '*.pgn' -type f) | LC_ALL=C sort >"$tmp/files"
[ -s "$tmp/files" ] || { echo "jobs.sh: no PGN file under $top/data or $top/tests/data" >&2; exit 99; }
: >"$tmp/corpus.pgn"
while [ "$(wc -c <"$tmp/corpus.pgn")" -lt 3000000 ]; do
    while IFS= read -r f; do
        cat "$top/$f"
        printf '\n\n'
    done <"$tmp/files" >>"$tmp/corpus.pgn"
done

# The traps: after a first cut-looking line, each comment ends its own
# game's text as a cut would want it.
awk 'BEGIN {
    for (i = 1; i <= 12000; i++) {
        printf "[Event \"trap %d\"]\n[Result \"1-0\"]\n\n", i
        printf "1. e4 { 1-0\n\n[Event \"inside %d\"]\n} e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n", i
    }
}' >"$tmp/traps.pgn"

# run J HOW MODE: the program on $f, read as HOW says, into got.out/got.err.
run() {
    case $2 in
    file) "$prog" -j$1 $3 "$f" ;;
    pipe) cat "$f" | "$prog" -j$1 $3 - ;;
    gzip) "$prog" -j$1 $3 "$f.gz" ;;
    offset) { dd bs="$skip" count=1 of=/dev/null 2>/dev/null && "$prog" -j$1 $3 -; } <"$f" ;;
    esac >"$tmp/got.out" 2>"$tmp/got.err"
    echo $? >>"$tmp/got.err"
}

# same LABEL: got.out and got.err are want.out and want.err, or it fails.
same() {
    if cmp -s "$tmp/want.out" "$tmp/got.out" && cmp -s "$tmp/want.err" "$tmp/got.err"; then
        pass
    else
        fail "$1: not what -j1 writes"
        diff "$tmp/want.out" "$tmp/got.out" | head -4
        diff "$tmp/want.err" "$tmp/got.err" | head -4
    fi
}

# has_totals LABEL: want.err holds a summary with every total of facts.
has_totals() {
    for total in checkmate dead white_cannot_win black_cannot_win; do
        grep -q "^facts: .*$total [0-9]" "$tmp/want.err" || fail "$1: no $total in the summary"
    done
}

for input in corpus traps; do
    f=$tmp/$input.pgn
    gzip -c "$f" >"$f.gz" || exit 99
    # Standard input inside the file: from the first byte of its second line.
    skip=$(head -n 1 "$f" | wc -c)
    for mode in --json "" --check --fix --summary "--check --summary"; do
        for how in file pipe gzip offset; do
            run 1 $how "$mode"
            mv "$tmp/got.out" "$tmp/want.out"
            mv "$tmp/got.err" "$tmp/want.err"
            case $mode in
            --check*) ;;
            *) [ -s "$tmp/want.out" ] || fail "$input ${mode:-(text)} from $how: no output" ;;
            esac
            case $mode in
            *--summary) has_totals "$input $mode from $how" ;;
            esac
            for j in 2 3; do
                run $j $how "$mode"
                same "$input -j$j ${mode:-(text)} from $how"
            done
        done
    done
done
# Many inputs: their outputs and messages in command-line order.
gzip -c "$top/data/sample.pgn" >"$tmp/sample.pgn.gz" || exit 99
mkdir "$tmp/adir" || exit 99
awk 'BEGIN { for (i = 0; i < 40000; i++) print "*\n" }' >"$tmp/tiny.pgn" || exit 99
set --
n=0
while IFS= read -r f; do
    set -- "$@" "$top/$f"
    n=$((n + 1))
    case $n in
    3) set -- "$@" "$tmp/missing.pgn" ;;
    5) set -- "$@" "$tmp/corpus.pgn" ;;
    7) set -- "$@" "$tmp/sample.pgn.gz" - ;;
    9) set -- "$@" "$tmp/adir" "$tmp/tiny.pgn" ;;
    esac
done <"$tmp/files"
for mode in --json "" --check --fix --summary "--check --summary"; do
    for j in 1 2 3; do
        "$prog" -j$j $mode "$@" <"$tmp/traps.pgn" >"$tmp/got.out" 2>"$tmp/got.err"
        echo $? >>"$tmp/got.err"
        if [ $j = 1 ]; then
            mv "$tmp/got.out" "$tmp/want.out"
            mv "$tmp/got.err" "$tmp/want.err"
            grep -q 'missing.pgn' "$tmp/want.err" || fail "files ${mode:-(text)}: no message for the missing file"
            case $mode in
            *--summary) has_totals "files $mode" ;;
            esac
        else
            same "files -j$j ${mode:-(text)}"
        fi
    done
done
tally

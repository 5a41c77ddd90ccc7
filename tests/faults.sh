#!/bin/sh
# faults.sh: I/O faults and signals.
#
# Usage: tests/faults.sh [CASE...]      `make check` runs every case.
#
# Cases:
#   pipe         `pgn-arbiter big.pgn | head -1` ends promptly and quietly
#                (killed by SIGPIPE, nothing on stderr), on one thread and on
#                two, and also when the parent left SIGPIPE ignored
#   full         output to /dev/full is reported, exit 2 (text, --json,
#                --check, --fix), on one thread and on two
#   closed       standard output closed: reported, exit 2, on one thread
#                and on two
#   missing      a missing file is reported and the next file is read, exit 2
#   directory    a directory given as a file: the same
#   unreadable   a file without read permission: the same (as root, run as
#                user nobody, with setpriv, on copies it can reach)
#   gzip zstd    a truncated and a corrupt compressed stream, and one whose
#                check value is wrong: reported with the count of games
#                read before the damage, those games reported, exit 2
#   shrink       a file cut short while -j2 reads it in place (mapped): a
#                message that says so, exit 2, not a bare "Bus error"
#   kill         --in-place killed by SIGKILL at ten moments of a rewrite:
#                the file is the whole original or the whole new file, and
#                nothing is left beside it but hidden temporary files
#                (.NAME.pgn-arbiter-XXXXXX); at least one kill must land
#                mid-rewrite (killed, a temporary file begun, the original
#                in place), or the case proves nothing
#   fsize        --in-place with the file size limit (ulimit -f) below the
#                new file: with SIGXFSZ ignored, an error, exit 2, original
#                untouched, no temporary file left; with SIGXFSZ fatal, the
#                original untouched
#   tmpfs        --in-place on a full filesystem (a 64 kB tmpfs, mounted when
#                root may mount; skipped otherwise): error, exit 2, original
#                untouched, no temporary file left
#   replaced     --in-place on a file replaced (renamed over) or appended to
#                while it is rewritten (paused at that moment by the test
#                hook PGN_ARBITER_TEST_PAUSE, a FIFO): the changed file is
#                kept, no temporary file left, exit 2
#   bigfix       --fix on one game of 96 MiB (a comment) whose result needs a
#                change, under a 100 MB limit of address space (ulimit -v):
#                the game is copied as it is with a warning, exit 0; holding
#                the game whole, as before, runs out of memory (skipped under
#                AddressSanitizer and ThreadSanitizer, which reserve far more
#                address space, and under valgrind)
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), HOSTILE_GEN (default
# tests/hostile-gen: it makes the big input and times the kills), and
# abs_top_srcdir or top_srcdir to find data/sample.pgn.  Under valgrind
# (VALGRIND set by ./configure --enable-valgrind; PGN_ARBITER is then a
# shim that runs it under valgrind) the timing cases, pipe and kill, are
# skipped, and so is shrink, which ends the program at a signal.
# A case that lacks a tool (gzip, zstd, mkfifo, /dev/full, ulimit -f,
# setpriv) is skipped, and fails with CI=true, where nothing may be missing.
# Prints each result, then `N passed, M failed` (and how many were
# skipped); exit 1 if any failed, 77 if all were skipped.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
build=${abs_top_builddir:-.}
PGN_ARBITER=${PGN_ARBITER:-$build/src/pgn-arbiter}
HOSTILE_GEN=${HOSTILE_GEN:-$build/tests/hostile-gen}
case $PGN_ARBITER in /*) ;; *) PGN_ARBITER=$(pwd)/$PGN_ARBITER ;; esac
case $HOSTILE_GEN in /*) ;; *) HOSTILE_GEN=$(pwd)/$HOSTILE_GEN ;; esac
sample=$top/data/sample.pgn
for f in "$PGN_ARBITER" "$HOSTILE_GEN"; do
    [ -x "$f" ] || { echo "faults.sh: $f is not an executable program" >&2; exit 99; }
done
[ -f "$sample" ] || { echo "faults.sh: no $sample" >&2; exit 99; }

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/faults.$$
    mkdir "$tmp" || exit 99
}
mnt=
cleanup() {
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
    chmod -R u+rwx "$tmp" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' HUP INT TERM

passed=0
failed=0
skipped=0
why=

fail() { why="${why}${why:+; }$*"; }
# result NAME: counts the case from $why.
result() {
    if [ -z "$why" ]; then
        echo "ok: $1"
        passed=$((passed + 1))
    else
        echo "FAIL: $1: $why"
        [ -s "$tmp/err" ] && head -c 600 "$tmp/err" | sed 's/^/    stderr: /'
        failed=$((failed + 1))
    fi
    why=
}
skip() {
    echo "skip: $1"
    skipped=$((skipped + 1))
}
# lacking WHY: a case skipped for want of a tool; a failure with CI=true.
lacking() {
    if [ "${CI:-}" = true ]; then
        why="$1 (CI=true: nothing may be missing)"
        result "${1%%:*}"
    else
        skip "$1"
    fi
}

# Under AddressSanitizer everything is slower.
pipe_secs=10
if ASAN_OPTIONS=help=1 "$PGN_ARBITER" --version 2>&1 | grep -q AddressSanitizer; then
    pipe_secs=30
fi

games_in_sample=$("$PGN_ARBITER" -j1 "$sample" 2>/dev/null | wc -l | tr -d ' ')
[ "$games_in_sample" -gt 0 ] || { echo "faults.sh: no game read from $sample" >&2; exit 99; }

# ---- pipe ------------------------------------------------------------------

case_pipe() {
    # Two million empty games: seconds of work, a report line each.
    "$HOSTILE_GEN" empty 2000000 >"$tmp/big.pgn" || exit 99
    for j in 1 2; do
        for sigpipe in default ignored; do
            rm -f "$tmp/status"
            start=$(date +%s)
            if [ $sigpipe = default ]; then
                { "$PGN_ARBITER" -j$j "$tmp/big.pgn" 2>"$tmp/err"; echo $? >"$tmp/status"; } | head -n 1 >"$tmp/out"
            else
                (trap '' PIPE
                 { "$PGN_ARBITER" -j$j "$tmp/big.pgn" 2>"$tmp/err"; echo $? >"$tmp/status"; } | head -n 1 >"$tmp/out")
            fi
            secs=$(($(date +%s) - start))
            status=$(cat "$tmp/status" 2>/dev/null)
            [ "$status" = 141 ] || fail "exit status '$status', expected 141 (SIGPIPE)"
            [ -s "$tmp/err" ] && fail "it wrote to stderr"
            [ "$(wc -l <"$tmp/out" | tr -d ' ')" = 1 ] || fail "head saw no line"
            [ "$secs" -le "$pipe_secs" ] || fail "it took $secs s"
            result "pipe -j$j, SIGPIPE $sigpipe (${secs} s)"
        done
    done
}

# ---- a file that shrinks under -j ------------------------------------------

case_shrink() {
    # Twenty megabytes of the sample (2^11 copies), so that pieces are
    # still to be cut when the file is emptied.
    cp "$sample" "$tmp/shrink.pgn"
    for _ in 1 2 3 4 5 6 7 8 9 10 11; do
        cat "$tmp/shrink.pgn" "$tmp/shrink.pgn" >"$tmp/double.pgn" && mv "$tmp/double.pgn" "$tmp/shrink.pgn"
    done
    rm -f "$tmp/fifo" "$tmp/status"
    mkfifo "$tmp/fifo" || { lacking "shrink: no mkfifo"; return; }
    # Its output goes into a pipe that nobody reads yet: the program stops
    # at its first write, with the file mapped and most of it not yet cut.
    { "$PGN_ARBITER" -j2 --json "$tmp/shrink.pgn" >"$tmp/fifo" 2>"$tmp/err"; echo $? >"$tmp/status"; } &
    exec 3<"$tmp/fifo"
    dd bs=1 count=1 <&3 >/dev/null 2>&1
    : >"$tmp/shrink.pgn"
    cat <&3 >/dev/null
    exec 3<&-
    wait
    status=$(cat "$tmp/status" 2>/dev/null)
    [ "$status" = 2 ] || fail "exit status '$status', expected 2"
    grep -q 'error: an input file shrank' "$tmp/err" || fail "no 'an input file shrank' on stderr"
    result "shrink: a file emptied while -j2 reads it"
}

# ---- output errors -----------------------------------------------------------

# The sample, repeated beyond the size below which -j reads on one thread.
many_samples() {
    [ -s "$tmp/many.pgn" ] && return
    i=0
    while [ $i -lt 64 ]; do
        cat "$sample"
        i=$((i + 1))
    done >"$tmp/many.pgn"
}

case_full() {
    if [ ! -w /dev/full ]; then
        lacking "full: no /dev/full"
        return
    fi
    many_samples
    for j in 1 2; do
        for opts in "" --json --check --fix; do
            # shellcheck disable=SC2086
            "$PGN_ARBITER" -j$j $opts "$tmp/many.pgn" >/dev/full 2>"$tmp/err"
            status=$?
            [ "$status" = 2 ] || fail "exit status $status, expected 2"
            grep -q 'error writing output: No space left on device' "$tmp/err" || fail "no error message"
            result "full -j$j ${opts:-text}"
        done
    done
}

case_closed() {
    many_samples
    for j in 1 2; do
        "$PGN_ARBITER" -j$j "$tmp/many.pgn" >&- 2>"$tmp/err"
        status=$?
        [ "$status" = 2 ] || fail "exit status $status, expected 2"
        grep -q 'error' "$tmp/err" || fail "no error message"
        result "closed stdout -j$j"
    done
}

# ---- inputs that cannot be read ---------------------------------------------

# bad_input NAME PATH MESSAGE: PATH then the sample; PATH is reported with
# MESSAGE, the sample is read, exit 2.  $as_user, if set, runs the program.
as_user=
bad_input() {
    $as_user "$PGN_ARBITER" -j1 "$2" "$sample" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    grep -q "^pgn-arbiter: $2: error: .*$3" "$tmp/err" || fail "no 'pgn-arbiter: $2: error: ...$3' on stderr"
    n=$(wc -l <"$tmp/out" | tr -d ' ')
    [ "$n" = "$games_in_sample" ] || fail "$n records of the next file, expected $games_in_sample"
    result "$1"
}

case_missing() {
    bad_input missing "$tmp/no-such-file.pgn" "No such file or directory"
}

case_directory() {
    mkdir -p "$tmp/dir.pgn"
    bad_input directory "$tmp/dir.pgn" "Is a directory"
}

case_unreadable() {
    if [ "$(id -u)" != 0 ]; then
        cp "$sample" "$tmp/secret.pgn"
        chmod 000 "$tmp/secret.pgn"
        bad_input unreadable "$tmp/secret.pgn" "Permission denied"
        return
    fi
    # Permissions do not bind root: run as nobody, on copies in a directory
    # that user can reach (the build tree and $tmp may not be).
    if ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
        lacking "unreadable: root, and no setpriv or no user nobody to run as"
        return
    fi
    # Under valgrind PGN_ARBITER is a shim: copy the program and run the
    # copy under valgrind.
    real=$PGN_ARBITER vg=
    if [ -n "${VALGRIND:-}" ]; then
        real=$build/src/pgn-arbiter
        vg="$VALGRIND --error-exitcode=1 --leak-check=full --quiet"
        case $real in /*) ;; *) real=$(pwd)/$real ;; esac
    fi
    pub=$tmp/pub
    mkdir "$pub" && cp "$real" "$pub/pgn-arbiter" && cp "$sample" "$pub/sample.pgn" &&
        cp "$sample" "$pub/secret.pgn" || exit 99
    chmod 711 "$tmp" && chmod 755 "$pub" "$pub/pgn-arbiter" && chmod 644 "$pub/sample.pgn" &&
        chmod 000 "$pub/secret.pgn" || exit 99
    saved="$PGN_ARBITER|$sample"
    as_user="setpriv --reuid=$(id -u nobody) --regid=$(id -g nobody) --clear-groups $vg"
    PGN_ARBITER=$pub/pgn-arbiter sample=$pub/sample.pgn
    bad_input "unreadable (as nobody)" "$pub/secret.pgn" "Permission denied"
    as_user= PGN_ARBITER=${saved%|*} sample=${saved#*|}
    chmod 700 "$tmp"
}

# ---- damaged compressed streams ---------------------------------------------

# damaged CODEC FILE: FILE (compressed, of the big mixed input) truncated at
# about half and corrupted at three quarters.
damaged() {
    codec=$1
    whole=$2
    size=$(wc -c <"$whole" | tr -d ' ')
    for damage in truncated corrupt; do
        if [ $damage = truncated ]; then
            # Not at half exactly: ten equal parts, it could be a frame boundary.
            head -c $((size / 2 + 7)) "$whole" >"$tmp/damaged"
            want="the $codec stream is truncated"
        else
            at=$((size * 3 / 4))
            { head -c "$at" "$whole"; printf 'garbage\001\002\003garbage\377\376'; tail -c +$((at + 18)) "$whole"; } \
                >"$tmp/damaged"
            want="$codec data error"
        fi
        for j in 1 2; do
            "$PGN_ARBITER" -j$j "$tmp/damaged" >"$tmp/out" 2>"$tmp/err"
            status=$?
            [ "$status" = 2 ] || fail "exit status $status, expected 2"
            msg=$(grep "error: $want" "$tmp/err")
            [ -n "$msg" ] || fail "no '$want' on stderr"
            n=$(printf '%s\n' "$msg" | sed -n 's/.*(after \([0-9]*\) games)$/\1/p')
            got=$(wc -l <"$tmp/out" | tr -d ' ')
            [ -n "$n" ] && [ "$n" -gt 0 ] || fail "the message does not name the last good game: $msg"
            [ "$got" = "$n" ] || fail "$got records for the $n games named"
            result "$codec $damage -j$j ($n games before the damage)"
        done
    done
}

# trailer CODEC FILE: FILE (the compressed sample) with its check value
# (gzip: CRC-32 and size; zstd: XXH64) damaged: reported, exit 2.  With
# gzip every game comes out before the error, even from a stream read in
# one gulp; libzstd decodes a small frame in one call that returns only the
# error, so with zstd the games of that frame are lost (but counted right).
trailer() {
    size=$(wc -c <"$2" | tr -d ' ')
    n=4 # zstd: the low half of XXH64 ends the frame
    [ "$1" = gzip ] && n=8
    { head -c $((size - n)) "$2"; printf '\377\377\377\377\377\377\377\377' | head -c $n; } >"$tmp/damaged"
    "$PGN_ARBITER" -j1 "$tmp/damaged" >"$tmp/out" 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    want=$games_in_sample
    [ "$1" = zstd ] && want=0
    grep -q "error: .*(after $want games)" "$tmp/err" || fail "no error after $want games"
    got=$(wc -l <"$tmp/out" | tr -d ' ')
    [ "$got" = "$want" ] || fail "$got records, expected $want"
    result "$1 check value damaged ($got games before the damage)"
}

mixed() {
    [ -f "$tmp/mixed.pgn" ] && return
    # Varied games (so that they do not compress to nothing), 1.5 MB or so.
    for i in 1 2 3 4 5 6 7 8 9 10; do
        find "$top/tests/data" "$top/data" -name '*.pgn' | sort | while read -r f; do cat "$f"; echo; done
    done >"$tmp/mixed.pgn"
}

case_gzip() {
    if ! command -v gzip >/dev/null 2>&1; then
        lacking "gzip: no gzip program"
        return
    fi
    mixed
    gzip -c "$tmp/mixed.pgn" >"$tmp/mixed.pgn.gz" || exit 99
    damaged gzip "$tmp/mixed.pgn.gz"
    gzip -c "$sample" >"$tmp/sample.pgn.gz" || exit 99
    trailer gzip "$tmp/sample.pgn.gz"
}

case_zstd() {
    if ! command -v zstd >/dev/null 2>&1; then
        lacking "zstd: no zstd program"
        return
    fi
    # One frame per file: zstd blocks hold 128 kB, and a stream cut inside
    # its first block has no game to report.
    for i in 1 2 3 4 5 6 7 8 9 10; do
        find "$top/tests/data" "$top/data" -name '*.pgn' | sort | while read -r f; do
            { cat "$f"; echo; } | zstd -q -c || exit 99
        done
    done >"$tmp/mixed.pgn.zst"
    damaged zstd "$tmp/mixed.pgn.zst"
    zstd -q -c "$sample" >"$tmp/sample.pgn.zst" || exit 99
    trailer zstd "$tmp/sample.pgn.zst"
}

# ---- --in-place ------------------------------------------------------------

# leftovers DIR NAME: what is in DIR beside NAME and its hidden temporaries.
leftovers() {
    ls -A "$1" | grep -v -x -e "$2" -e "\.$2\.pgn-arbiter-......"
}

case_kill() {
    dir=$tmp/kill
    mkdir -p "$dir"
    # About 9 MB whose games partly need fixing.
    i=0
    while [ $i -lt 800 ]; do
        cat "$sample"
        i=$((i + 1))
    done >"$tmp/orig.pgn"
    "$PGN_ARBITER" --fix "$tmp/orig.pgn" >"$tmp/fixed.pgn" 2>/dev/null
    if cmp -s "$tmp/orig.pgn" "$tmp/fixed.pgn"; then
        echo "faults.sh: --fix changes nothing in the sample" >&2
        exit 99
    fi
    # How long a whole rewrite takes, in ms.
    cp "$tmp/orig.pgn" "$dir/games.pgn"
    "$HOSTILE_GEN" measure "$tmp/m" "$PGN_ARBITER" --in-place "$dir/games.pgn" 2>/dev/null
    total=$(awk '{ printf "%d", $2 * 1000 }' "$tmp/m")
    cmp -s "$dir/games.pgn" "$tmp/fixed.pgn" || fail "--in-place and --fix differ"
    olds=0
    news=0
    mids=0
    k=0
    while [ $k -le 10 ]; do
        rm -f "$dir"/.games.pgn.pgn-arbiter-*
        cp "$tmp/orig.pgn" "$dir/games.pgn"
        ms=$((total * k / 10 + 1))
        "$HOSTILE_GEN" killafter "$ms" "$PGN_ARBITER" --in-place "$dir/games.pgn" 2>/dev/null
        killed=$?
        if cmp -s "$dir/games.pgn" "$tmp/orig.pgn"; then
            olds=$((olds + 1))
            # Mid-rewrite: killed with a temporary file begun and left.
            for t in "$dir"/.games.pgn.pgn-arbiter-*; do
                if [ "$killed" = 137 ] && [ -s "$t" ]; then
                    mids=$((mids + 1))
                    break
                fi
            done
        elif cmp -s "$dir/games.pgn" "$tmp/fixed.pgn"; then
            news=$((news + 1))
        else
            fail "killed after $ms ms: the file is neither the original nor the new one"
        fi
        extra=$(leftovers "$dir" games.pgn)
        [ -z "$extra" ] || fail "killed after $ms ms: left $extra"
        k=$((k + 1))
    done
    # Else every kill came before the rewrite began or after it ended.
    [ "$mids" -gt 0 ] || fail "no kill landed mid-rewrite"
    result "kill -9 during --in-place (whole run $total ms; $olds times the original, $mids of them mid-rewrite, $news times the new file)"
}

# in_place_fails NAME DIR: --in-place on DIR/games.pgn (a copy of the
# sample) must fail with exit 2, leave it untouched and leave nothing else.
in_place_fails() {
    "$PGN_ARBITER" --in-place "$2/games.pgn" >/dev/null 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    cmp -s "$2/games.pgn" "$sample" || fail "the original changed"
    grep -q 'not rewritten' "$tmp/err" || fail "no 'not rewritten' on stderr"
    extra=$(ls -A "$2" | grep -v -x games.pgn)
    [ -z "$extra" ] || fail "left $extra"
    result "$1"
}

case_fsize() {
    dir=$tmp/fsize
    mkdir -p "$dir"
    cp "$sample" "$dir/games.pgn"
    # ulimit -f counts 512-byte blocks: half the sample fits, not the rewrite.
    blocks=$(($(wc -c <"$sample") / 1024))
    (trap '' XFSZ; ulimit -f "$blocks" && exec "$PGN_ARBITER" --in-place "$dir/games.pgn") >/dev/null 2>"$tmp/err"
    status=$?
    if [ "$status" = 0 ] && cmp -s "$dir/games.pgn" "$sample"; then
        lacking "fsize: ulimit -f not supported here"
        return
    fi
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    cmp -s "$dir/games.pgn" "$sample" || fail "the original changed"
    grep -q 'not rewritten' "$tmp/err" || fail "no 'not rewritten' on stderr"
    extra=$(ls -A "$dir" | grep -v -x games.pgn)
    [ -z "$extra" ] || fail "left $extra"
    result "fsize: file too large (EFBIG) during --in-place"

    # SIGXFSZ left fatal: killed mid-write, like kill -9.  (The middle
    # shell takes the death notice that a shell prints.)
    ( (ulimit -f "$blocks" && exec "$PGN_ARBITER" --in-place "$dir/games.pgn") >/dev/null 2>"$tmp/err"
      echo $? >"$tmp/status") 2>/dev/null
    status=$(cat "$tmp/status")
    [ "$status" -gt 128 ] || fail "exit status $status, expected death by SIGXFSZ"
    cmp -s "$dir/games.pgn" "$sample" || fail "the original changed"
    extra=$(leftovers "$dir" games.pgn)
    [ -z "$extra" ] || fail "left $extra"
    result "fsize: killed by SIGXFSZ during --in-place"
}

case_tmpfs() {
    mnt=$tmp/small
    mkdir -p "$mnt"
    if ! mount -t tmpfs -o size=64k tmpfs "$mnt" 2>/dev/null; then
        mnt=
        skip "tmpfs: cannot mount a small tmpfs here (needs root, outside a sandbox)"
        return
    fi
    # Fill it so that the sample fits, but not a second copy of it.
    cp "$sample" "$mnt/games.pgn" || { skip "tmpfs: the sample does not fit"; return; }
    avail=$(df -k "$mnt" | awk 'NR == 2 { print $4 }')
    fill=$((avail - $(wc -c <"$sample") / 1024 / 2))
    if [ "$fill" -gt 0 ]; then
        dd if=/dev/zero of="$mnt/.filler" bs=1024 count="$fill" 2>/dev/null
    fi
    "$PGN_ARBITER" --in-place "$mnt/games.pgn" >/dev/null 2>"$tmp/err"
    status=$?
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    cmp -s "$mnt/games.pgn" "$sample" || fail "the original changed"
    grep -q 'not rewritten' "$tmp/err" || fail "no 'not rewritten' on stderr"
    extra=$(ls -A "$mnt" | grep -v -x -e games.pgn -e .filler)
    [ -z "$extra" ] || fail "left $extra"
    result "tmpfs: full filesystem during --in-place"
    umount "$mnt" 2>/dev/null
    mnt=
}

# replaced_during HOW: --in-place on a copy of the sample, paused before its
# last check (PGN_ARBITER_TEST_PAUSE, a FIFO: the program waits at it until
# a writer has opened and closed it) while the file is changed HOW: the
# change is kept, the temporary file removed, exit 2.
replaced_during() {
    dir=$tmp/replaced-$1
    mkdir -p "$dir"
    cp "$sample" "$dir/games.pgn"
    rm -f "$tmp/pause"
    mkfifo "$tmp/pause" || { lacking "replaced: no mkfifo"; return 1; }
    PGN_ARBITER_TEST_PAUSE=$tmp/pause "$PGN_ARBITER" --in-place "$dir/games.pgn" >/dev/null 2>"$tmp/err" &
    pid=$!
    # The open returns once the program waits at the FIFO, after its rewrite.
    (exec 3>"$tmp/pause"
     case $1 in
     renamed) printf '[Event "new"]\n\n1. e4 *\n' >"$dir/new.pgn" && mv "$dir/new.pgn" "$dir/games.pgn" ;;
     appended) printf '\n[Event "new"]\n\n1. e4 *\n' >>"$dir/games.pgn" ;;
     esac
     cp "$dir/games.pgn" "$tmp/now.pgn") &
    writer=$!
    wait "$pid"
    status=$?
    # A program that never reached the pause leaves the writer waiting.
    kill "$writer" 2>/dev/null
    wait "$writer" 2>/dev/null
    [ "$status" = 2 ] || fail "exit status $status, expected 2"
    cmp -s "$dir/games.pgn" "$tmp/now.pgn" || fail "the file as it was changed is not kept"
    cmp -s "$dir/games.pgn" "$sample" && fail "the file was not changed: the test proves nothing"
    grep -q 'not rewritten: the file was replaced or changed while it was read' "$tmp/err" ||
        fail "no message that it changed"
    extra=$(ls -A "$dir" | grep -v -x games.pgn)
    [ -z "$extra" ] || fail "left $extra"
    result "replaced: --in-place on a file $1 while it was rewritten"
}

case_replaced() {
    replaced_during renamed && replaced_during appended
}

# ---- memory ----------------------------------------------------------------

case_bigfix() {
    # The sanitizers with shadow memory reserve terabytes of address space.
    if ASAN_OPTIONS=help=1 TSAN_OPTIONS=help=1 "$PGN_ARBITER" --version 2>&1 |
        grep -q -e AddressSanitizer -e ThreadSanitizer; then
        skip "bigfix: address space limits under AddressSanitizer or ThreadSanitizer"
        return
    fi
    { printf '[Event "big"]\n[Result "1-0"]\n\n1. e4 {'
      head -c 100663296 /dev/zero | tr '\0' c
      printf '} e5 0-1\n'; } >"$tmp/big.pgn"
    (ulimit -v 100000 && exec "$PGN_ARBITER" -j1 --fix "$tmp/big.pgn") >"$tmp/big-fixed.pgn" 2>"$tmp/err"
    status=$?
    [ "$status" = 0 ] || fail "exit status $status, expected 0"
    cmp -s "$tmp/big.pgn" "$tmp/big-fixed.pgn" || fail "the game was not copied as it is"
    grep -q 'warning: game 1: not rewritten: its text passes' "$tmp/err" || fail "no warning that it was not rewritten"
    rm -f "$tmp/big.pgn" "$tmp/big-fixed.pgn"
    result "bigfix: --fix on a 96 MiB game in 100 MB of address space"
}

all="pipe full closed missing directory unreadable gzip zstd shrink kill fsize tmpfs replaced bigfix"
for c in ${*:-$all}; do
    case " $all " in
    *" $c "*)
        # Timing cases measure the program, not valgrind (which runs it
        # here when ./configure --enable-valgrind set VALGRIND).
        if [ -n "${VALGRIND:-}" ] && { [ "$c" = pipe ] || [ "$c" = kill ] || [ "$c" = bigfix ]; }; then
            skip "$c: timing under valgrind"
        elif [ -n "${VALGRIND:-}" ] && [ "$c" = shrink ]; then
            # The program ends at the signal, by design, with its threads'
            # memory still held: valgrind would call that a leak.
            skip "$c: an end at a signal under valgrind"
        else
            "case_$c"
        fi
        ;;
    *) echo "faults.sh: no case '$c' (one of: $all)" >&2; exit 99 ;;
    esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] || exit 1
[ "$passed" -gt 0 ] || exit 77
exit 0

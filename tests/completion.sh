#!/bin/sh
# completion.sh: the bash completion (completion/pgn-arbiter) against the
# program it completes.  Runs _pgn_arbiter as bash would and checks that
#  - every long option of `pgn-arbiter --help` is offered after "-";
#  - every value offered for --rules, --only, --color and --format is accepted by
#    pgn-arbiter, and every word of the option's --help text that
#    pgn-arbiter accepts as a value is offered;
#  - --only completes the item after the last comma and skips facts named;
#  - "--opt=value" works whether or not '=' is in COMP_WORDBREAKS;
#  - files are completed to *.pgn, *.pgn.gz, *.pgn.zst and directories.
# Skipped (77) without bash.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
prog=${PGN_ARBITER:-src/pgn-arbiter}
comp=$top/completion/pgn-arbiter

if ! command -v bash >/dev/null 2>&1; then
    echo "SKIP: bash is not installed"
    exit 77
fi
if [ ! -f "$comp" ]; then
    echo "completion.sh: no completion at $comp" >&2
    exit 99
fi
help=$("$prog" --help) || {
    echo "FAIL: '$prog --help' exited with status $?"
    exit 1
}

. "$top/tests/testlib.sh"
test_tmp completion
mkdir "$tmp/files" "$tmp/files/sub dir" &&
    touch "$tmp/files/a.pgn" "$tmp/files/b.pgn.gz" "$tmp/files/c.pgn.zst" \
          "$tmp/files/D.PGN" "$tmp/files/notes.txt" "$tmp/files/e.pgn.bz2" \
          "$tmp/files/-x.pgn" || exit 99

# comp_words WORD...: the completions of the last WORD, sorted, one per line,
# as bash gives them to _pgn_arbiter (COMP_WORDBREAKS splits at '=').
cat >"$tmp/complete.bash" <<'EOS'
source "$1" || exit 99
shift
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
_pgn_arbiter pgn-arbiter "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}" | LC_ALL=C sort
EOS
comp_words() {
    (cd "$tmp/files" && bash "$tmp/complete.bash" "$comp" "$@")
}

# expect NAME EXPECTED WORD...: the completions of WORD... must be EXPECTED
# (a space-separated list, in C sort order).
expect() {
    name=$1 want=$2
    shift 2
    got=$(comp_words "$@" | tr '\n' ' ' | sed 's/ $//')
    if [ "$got" = "$want" ]; then
        pass "$name"
    else
        fail "$name: completing '$*': expected '$want', got '$got'"
    fi
}

# Every long option of --help.
offered=$(comp_words pgn-arbiter - | sed 's/=$//')
opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]*' | sort -u)
[ -n "$opts" ] || fail "'$prog --help' prints no long option"
for opt in $opts; do
    if printf '%s\n' "$offered" | grep -qx -- "$opt"; then
        pass "$opt is completed"
    else
        fail "$opt is in --help but completion/pgn-arbiter does not offer it"
    fi
done
for opt in $(printf '%s\n' "$offered" | grep -- '^--'); do
    printf '%s\n' "$opts" | grep -qx -- "$opt" ||
        echo "note: $opt is completed but not in --help (an option to come?)"
done

# Values: each one offered is accepted, and each word of the option's own
# --help text that pgn-arbiter accepts as a value is offered.
for opt in rules only color format; do
    # --format goes with --check.
    with=
    [ "$opt" = format ] && with=--check
    # Only the options this pgn-arbiter has (the completion may be ahead).
    printf '%s\n' "$opts" | grep -qx -- "--$opt" || continue
    words=$(printf '%s\n' "$help" | awk -v o="--$opt=" '
        index($0, o) { on = 1; print; next }
        on && ($0 ~ /^ *-/ || $0 ~ /^$/) { on = 0 }
        on' | tr -cs 'a-z' '\n' | sort -u)
    values=$(comp_words pgn-arbiter "--$opt" '=' '')
    [ -n "$values" ] || fail "--$opt: no value completed"
    for v in $values; do
        if "$prog" $with "--$opt=$v" </dev/null >/dev/null 2>&1; then
            pass "--$opt=$v is accepted"
        else
            fail "--$opt=$v is completed but pgn-arbiter refuses it"
        fi
    done
    for w in $words; do
        "$prog" $with "--$opt=$w" </dev/null >/dev/null 2>&1 || continue
        if printf '%s\n' "$values" | grep -qx -- "$w"; then
            pass "--$opt: $w (from --help) is completed"
        else
            fail "--$opt=$w is accepted and in --help but not completed"
        fi
    done
done

expect 'long option prefix' '--check' pgn-arbiter --ch
expect 'options with a value' '--max-errors=' pgn-arbiter --max
expect '--rules = (split at =)' 'claim fide' pgn-arbiter --rules = ''
expect '--rules = c' 'claim' pgn-arbiter --rules = c
expect '--rules=f (one word)' '--rules=fide' pgn-arbiter --rules=f
expect '--rules VALUE (separate word)' 'claim' pgn-arbiter --json --rules cl
expect '--only = th' 'threefold' pgn-arbiter --only = th
expect '--only after a comma' 'threefold,fifty threefold,fivefold' pgn-arbiter --only = threefold,fi
expect '--only skips facts named' 'dead,fifty,fivefold,insufficient,seventyfive,stalemate,threefold' \
    pgn-arbiter --only dead,fifty,fivefold,insufficient,seventyfive,stalemate,thr
expect '--only=a,b one word' '--only=checkmate,dead' pgn-arbiter --only=checkmate,de
expect '--max-errors takes a number' '' pgn-arbiter --max-errors ''
expect '--jobs takes a number' '' pgn-arbiter --jobs = ''
expect '-j takes a number' '' pgn-arbiter -j ''
expect '--color = a' 'always auto' pgn-arbiter --color = a
expect '--format = (split at =)' 'github gnu junit sarif' pgn-arbiter --check --format = ''
expect '--format=s (one word)' '--format=sarif' pgn-arbiter --check --format=s
expect '--format VALUE (separate word)' 'github gnu' pgn-arbiter --check --format g
expect 'files' '-x.pgn D.PGN a.pgn b.pgn.gz c.pgn.zst sub dir' pgn-arbiter ''
expect 'files after options' 'a.pgn' pgn-arbiter --json a
expect 'files after --' '-x.pgn' pgn-arbiter -- -x
expect 'directories' 'sub dir' pgn-arbiter --check s

tally

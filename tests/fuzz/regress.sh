#!/bin/sh
# regress.sh: replays what the fuzzers found, in `make check`.
#
# Each harness tests/fuzz/fuzz_NAME.c is also built with a plain main
# (standalone.c, no libFuzzer, any compiler) as tests/fuzz/fuzz_NAME in the
# build tree.  This script runs each one on
#   - tests/fuzz/regressions/NAME/*: inputs that once broke an invariant or
#     crashed (each named for what it found), and
#   - for the PGN harnesses (lex reader split json fix), every PGN file of
#     tests/data and data, so the invariants hold on real archives too.
# A broken invariant aborts the harness and fails the test.  When VALGRIND
# is set (./configure --enable-valgrind) each run is under valgrind with an
# error exit code; in a sanitizer build every report stops the harness
# (the options below, as `make check` sets them).
#
# Environment: abs_top_builddir (where the harnesses are, default .),
# abs_top_srcdir or top_srcdir.  Prints one line per harness, then
# `N passed, M failed`.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/../..}}
build=${abs_top_builddir:-.}
vg=
if [ -n "${VALGRIND:-}" ]; then
    vg="$VALGRIND --error-exitcode=1 --leak-check=full --quiet"
fi

# Run by hand as under `make check`: a sanitizer report stops the harness.
for v in ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
    eval "o=\${$v:-}"
    case :$o: in
    *:halt_on_error=1:abort_on_error=1:) ;;
    *) eval "$v=\"\${o:+\$o:}halt_on_error=1:abort_on_error=1\"; export $v" ;;
    esac
done

pgns=$(find "$top/tests/data" "$top/data" -name '*.pgn' 2>/dev/null | sort)

passed=0
failed=0
for name in lex reader split fen san json fix reason; do
    prog=$build/tests/fuzz/fuzz_$name
    if [ ! -x "$prog" ]; then
        echo "FAIL: $name: no program $prog"
        failed=$((failed + 1))
        continue
    fi
    inputs=
    dir=$top/tests/fuzz/regressions/$name
    [ -d "$dir" ] && inputs=$dir
    case $name in
    lex | reader | split | json | fix) inputs="$inputs $pgns" ;;
    esac
    if [ -z "$inputs" ]; then
        echo "ok: $name: nothing to replay"
        passed=$((passed + 1))
        continue
    fi
    # shellcheck disable=SC2086
    if out=$($vg "$prog" $inputs 2>&1); then
        echo "ok: $name: $(printf '%s\n' "$out" | tail -n 1 | sed 's/.*: //')"
        passed=$((passed + 1))
    else
        echo "FAIL: $name: $(printf '%s\n' "$out" | grep '^replaying: ' | tail -n 1)"
        printf '%s\n' "$out" | grep -v '^replaying: ' | tail -n 30 | sed 's/^/    /'
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

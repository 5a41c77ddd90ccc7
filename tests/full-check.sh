#!/bin/sh
# full-check.sh: the whole test suite, as CI runs it, from the top of a
# clean source tree.  Each stage builds in a directory of its own (out of
# tree, so the source tree stays clean), and the first failure stops it:
#
#   1. build/           make check, then make distcheck (which also runs
#                       make installcheck from the tarball)
#   2. build-sanitize/  ./configure --enable-asan --enable-ubsan; make check
#   3. build-tsan/      ./configure --enable-tsan; make check: a data race
#                       between -j's threads, or with the decompression
#                       thread, is reported and fails the run
#   4. build-valgrind/  ./configure --enable-valgrind; the end-to-end and
#                       fault tests with every run of pgn-arbiter under
#                       valgrind (an error or a leak exits 1)
#   5. fuzz harnesses   built with clang, libFuzzer and the sanitizers; the
#                       inputs that once broke them (tests/fuzz/regressions)
#                       and every seed input, once each: repeatable
#   6. fuzzing          every harness fuzzed for its share of FUZZ_TIME
#                       seconds (default 112: two minutes in all) from a
#                       fixed FUZZ_SEED, so that CI tries a prefix of the
#                       inputs a longer run with that seed has tried; any
#                       crash, leak, timeout or broken invariant fails, and
#                       the input is printed (base64).  Stages 5 and 6 are
#                       skipped when clang cannot build libFuzzer targets,
#                       a failure with CI=true
#
# With CI=true (as .ci/run sets it) nothing may be skipped: a test script
# that skips, or the fuzz stages, fail the run instead, since CI installs
# every dependency.
#
# Usage: sh tests/full-check.sh
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=${JOBS:-2}

# The fuzz stages run the harnesses here: any sanitizer report stops one
# (make check sets the same options for its tests).
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}halt_on_error=1"
UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}halt_on_error=1"
export ASAN_OPTIONS UBSAN_OPTIONS

passed=0
stage() { printf '\n== %s\n' "$*"; }

# A tree configured in place (the README's first command) cannot also be
# built out of tree.
if [ -f config.status ]; then
    make distclean > /dev/null
fi

stage "autoreconf"
autoreconf -fi

stage "build/: make check and make distcheck"
rm -rf build && mkdir build && cd build
../configure
make -j"$jobs"
make -j"$jobs" check
make -j"$jobs" distcheck
cd "$top"
passed=$((passed + 1))

stage "build-sanitize/: AddressSanitizer and UndefinedBehaviorSanitizer"
rm -rf build-sanitize && mkdir build-sanitize && cd build-sanitize
../configure --enable-asan --enable-ubsan
make -j"$jobs"
make -j"$jobs" check
cd "$top"
passed=$((passed + 1))

stage "build-tsan/: ThreadSanitizer"
rm -rf build-tsan && mkdir build-tsan && cd build-tsan
../configure --enable-tsan
make -j"$jobs"
make -j"$jobs" check
cd "$top"
passed=$((passed + 1))

stage "build-valgrind/: the program under valgrind"
rm -rf build-valgrind && mkdir build-valgrind && cd build-valgrind
../configure --enable-valgrind
make -j"$jobs"
make -j"$jobs" check TESTS="tests/run-e2e.sh tests/faults.sh"
cd "$top"
passed=$((passed + 1))

stage "fuzz harnesses: regressions and seed inputs"
# Every input that once broke a harness, then every seed input, once each
# through every harness: repeatable, unlike a time-bounded fuzzing run,
# which `make fuzz` does (FUZZ_TIME seconds, new seeds each time).
status=0
fuzz="$top/build-fuzz"
FUZZ_DIR="$fuzz" sh tests/fuzz/run.sh regress || status=$?
skipped=0
if [ "$status" -eq 77 ] && [ "${CI:-}" = true ]; then
    echo "fuzz harnesses: clang cannot build libFuzzer targets, and CI=true: a failure"
    exit 1
elif [ "$status" -eq 77 ]; then
    echo "fuzz harnesses skipped: clang cannot build libFuzzer targets"
    skipped=2
elif [ "$status" -ne 0 ]; then
    exit "$status"
else
    FUZZ_DIR="$fuzz" sh tests/fuzz/run.sh seed
    for bin in "$fuzz"/bin/fuzz_*; do
        h=${bin##*/fuzz_}
        [ -d "$fuzz/seeds/$h" ] || continue
        find "$fuzz/seeds/$h" -type f | sort | xargs "$bin" -timeout=10 -rss_limit_mb=1024 \
            > "$fuzz/seeds-$h.log" 2>&1 || {
            tail -n 30 "$fuzz/seeds-$h.log"
            echo "fuzz_$h: a seed input broke it (log: $fuzz/seeds-$h.log)"
            exit 1
        }
        echo "ok: fuzz_$h: $(find "$fuzz/seeds/$h" -type f | wc -l) seed inputs"
    done
    passed=$((passed + 1))

    stage "fuzzing: ${FUZZ_TIME:-112} seconds in all"
    FUZZ_DIR="$fuzz" FUZZ_TIME=${FUZZ_TIME:-112} FUZZ_SEED=${FUZZ_SEED:-20261121} sh tests/fuzz/run.sh run
    passed=$((passed + 1))
fi

stage "done: stages of the test suite"
echo "$passed passed, 0 failed, $skipped skipped"

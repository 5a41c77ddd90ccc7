#!/bin/sh
# full-check.sh: the whole test suite, as CI runs it, from the top of a
# clean source tree.  Each stage builds in a directory of its own (out of
# tree, so the source tree stays clean), and the first failure stops it:
#
#   1. build/           make check, then make distcheck (which also runs
#                       make installcheck from the tarball)
#   2. build-sanitize/  ./configure --enable-asan --enable-ubsan; make check
#   3. build-valgrind/  ./configure --enable-valgrind; the end-to-end and
#                       fault tests with every run of pgn-arbiter under
#                       valgrind (an error or a leak exits 1)
#   4. fuzzing          tests/fuzz/run.sh for FUZZ_TIME seconds in total
#                       (default 120) with a fixed seed (FUZZ_SEED, 1) and at
#                       most FUZZ_RUNS inputs per harness (2500), so that a
#                       run repeats whatever the machine's speed; longer runs
#                       with other seeds are for development (make fuzz).
#                       Skipped when clang cannot build libFuzzer targets
#
# Usage: sh tests/full-check.sh
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
jobs=${JOBS:-2}

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

stage "build-valgrind/: the program under valgrind"
rm -rf build-valgrind && mkdir build-valgrind && cd build-valgrind
../configure --enable-valgrind
make -j"$jobs"
make -j"$jobs" check TESTS="tests/run-e2e.sh tests/faults.sh"
cd "$top"
passed=$((passed + 1))

stage "fuzzing"
status=0
FUZZ_TIME=${FUZZ_TIME:-120} FUZZ_DIR="$top/build-fuzz" FUZZ_FLAGS="-seed=${FUZZ_SEED:-1} -runs=${FUZZ_RUNS:-2500} ${FUZZ_FLAGS:-}" \
    sh tests/fuzz/run.sh run || status=$?
skipped=0
case $status in
0) passed=$((passed + 1)) ;;
77) echo "fuzzing skipped: clang cannot build libFuzzer targets"; skipped=1 ;;
*) exit "$status" ;;
esac

stage "done: stages of the test suite"
echo "$passed passed, 0 failed, $skipped skipped"

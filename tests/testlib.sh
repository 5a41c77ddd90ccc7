# testlib.sh: what the shell tests share.  Sourced (". tests/testlib.sh")
# once `top` is set; POSIX sh.
#
#   test_tmp NAME   makes $tmp, a scratch directory named after the test,
#                   removed when the script exits
#   pass TEXT       counts a check that passed (and says so, unless
#                   quiet_pass is set: a test of thousands of checks)
#   fail TEXT       counts and says a check that failed
#   tally           prints the counts; true if nothing failed

passed=0
failed=0

pass() {
    passed=$((passed + 1))
    [ -n "${quiet_pass:-}" ] || echo "ok: $*"
}

fail() {
    failed=$((failed + 1))
    echo "FAIL: $*"
}

tally() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}

test_tmp() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgn-arbiter-$1.XXXXXX") || exit 99
    trap 'rm -rf "$tmp"' EXIT
    trap 'exit 1' HUP INT TERM
}

#!/bin/sh
# ci-skips.sh: with CI=true a skipped test fails the run.  The test
# scripts run through tests/no-skip-in-ci.sh (the Makefile's
# SH_LOG_COMPILER), which turns their exit 77 into 1 under CI=true, and
# leaves it a skip otherwise.
#
# Environment: abs_top_srcdir or top_srcdir, abs_top_builddir (set by
# `make check`).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
build=${abs_top_builddir:-.}
wrap=$top/tests/no-skip-in-ci.sh
failed=0
# expect STATUS CI CODE: a script exiting CODE, run through the wrapper with
# CI set to CI, must give STATUS.
expect() {
    CI=$2 sh "$wrap" sh -c "exit $3" 2>/dev/null
    status=$?
    if [ "$status" = "$1" ]; then
        echo "ok: exit $3 with CI='$2' gives $status"
    else
        echo "FAIL: exit $3 with CI='$2' gives $status, expected $1"
        failed=1
    fi
}
expect 1 true 77
expect 77 '' 77
expect 0 true 0
expect 1 true 1
expect 99 true 99
if grep '^SH_LOG_COMPILER *=' "$build/Makefile" | grep -q 'no-skip-in-ci\.sh'; then
    echo "ok: the test scripts run through no-skip-in-ci.sh"
else
    echo "FAIL: SH_LOG_COMPILER in $build/Makefile does not use no-skip-in-ci.sh"
    failed=1
fi
exit "$failed"

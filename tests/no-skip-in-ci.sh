#!/bin/sh
# no-skip-in-ci.sh: the test scripts' LOG_COMPILER (see Makefile.am).
#
#   no-skip-in-ci.sh COMMAND [ARG...]
#
# Runs COMMAND and exits with its status, except that with CI=true a skip
# (77, automake's "skipped": a missing jq, parallel, python3, bash or clang)
# becomes a failure: CI installs every dependency, so a skip there means a
# part of the suite silently did not run.

"$@"
status=$?
if [ "$status" -eq 77 ] && [ "${CI:-}" = true ]; then
    echo "no-skip-in-ci.sh: $* skipped, and CI=true: counted as a failure" >&2
    exit 1
fi
exit "$status"

#!/bin/sh
# timeouts.sh: in a sanitizer or valgrind build, the unit tests' libcheck
# timeouts are stretched (CK_TIMEOUT_MULTIPLIER) so far that only a hang
# trips them: the longest test (test_dead's best-first search, a minute's
# budget) takes about a minute under ThreadSanitizer on an idle machine, more
# on a busy one, and a verdict must not depend on the machine's speed.
#
# Environment: BUILD_CFLAGS, VALGRIND, CK_TIMEOUT_MULTIPLIER (set by `make
# check`).  A plain build has nothing to check and passes.

case " ${BUILD_CFLAGS:-} " in
*" -fsanitize="*) what="a sanitizer build" ;;
*) what= ;;
esac
[ -n "${VALGRIND:-}" ] && what="a valgrind build"
if [ -z "$what" ]; then
    echo "ok: a plain build, libcheck's timeouts as written"
    exit 0
fi
# At least a hundredfold, as configure sets it: a minute becomes more than
# an hour and a half.
m=${CK_TIMEOUT_MULTIPLIER:-1}
if awk -v m="$m" 'BEGIN { exit !(m + 0 >= 100) }'; then
    echo "ok: $what, libcheck's timeouts times $m"
    exit 0
fi
echo "FAIL: $what, and CK_TIMEOUT_MULTIPLIER is '$m', not 100 or more"
exit 1

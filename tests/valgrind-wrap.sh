#!/bin/sh
# valgrind-wrap.sh: the tests' LOG_COMPILER under ./configure --enable-valgrind.
#
#   valgrind-wrap.sh PROGRAM [ARG...]   runs PROGRAM under valgrind
#   valgrind-wrap.sh SCRIPT.sh [ARG...] runs the script with sh, with
#       PGN_ARBITER and PERFT replaced by shims that run those programs
#       under valgrind, so every run of our code is checked.
#
# valgrind's first error or leak makes the program exit 1; --quiet keeps its
# stderr empty otherwise, so the e2e expected-stderr files still match.

vg="${VALGRIND:-valgrind} --error-exitcode=1 --leak-check=full --quiet"
# libcheck runs each test in a forked child by default; unforked, valgrind
# sees one process and reports each leak once.
CK_FORK=no
export CK_FORK

case $1 in
*.sh) ;;
*) exec $vg "$@" ;;
esac

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/valgrind-wrap.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

for var in PGN_ARBITER PERFT; do
    eval "real=\${$var-}"
    [ -n "$real" ] || continue
    shim=$tmp/${real##*/}
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$vg" "$real" >"$shim"
    chmod +x "$shim"
    eval "$var=\$shim"
    export "$var"
done

sh "$@"

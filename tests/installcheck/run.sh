#!/bin/sh
# run.sh: `make installcheck`.  Builds tests/installcheck/example.c against
# the installed library, found through the installed pgnarbiter.pc, runs it
# on data/sample.pgn and compares its output with expected.out.
#
# The Makefile passes, in the environment: srcdir, DESTDIR (may be empty),
# libdir, includedir, pkgconfigdir (as configured, without DESTDIR), CC and
# PKG_CONFIG; and, to check that they are installed too, bindir, mandir and
# bashcompletiondir (each optional).  With DESTDIR the files sit under $DESTDIR while pgnarbiter.pc
# names the configured directories, so its -I and -L are moved under
# $DESTDIR and the run gets LD_LIBRARY_PATH.  Works from a read-only source
# tree (distcheck): everything is written to a temporary directory.

srcdir=${srcdir:-.}
CC=${CC:-cc}
PKG_CONFIG=${PKG_CONFIG:-pkg-config}
here=$srcdir/tests/installcheck

for v in libdir includedir pkgconfigdir; do
    eval "val=\${$v:-}"
    if [ -z "$val" ]; then
        echo "installcheck: $v is not set (run through 'make installcheck')" >&2
        exit 99
    fi
done
if ! command -v "$PKG_CONFIG" >/dev/null 2>&1; then
    echo "installcheck: FAIL: pkg-config ($PKG_CONFIG) not found" >&2
    exit 1
fi

fail=0
check_file() {
    if [ -f "$1" ]; then
        echo "ok: installed $1"
    else
        echo "FAIL: $1 is not installed"
        fail=1
    fi
}
check_file "$DESTDIR$includedir/pgnarbiter.h"
check_file "$DESTDIR$pkgconfigdir/pgnarbiter.pc"
if ls "$DESTDIR$libdir"/libpgnarbiter.* >/dev/null 2>&1; then
    echo "ok: installed $(cd "$DESTDIR$libdir" && echo libpgnarbiter.*)"
else
    echo "FAIL: no libpgnarbiter.* in $DESTDIR$libdir"
    fail=1
fi
if [ -n "${mandir:-}" ]; then
    check_file "$DESTDIR$mandir/man1/pgn-arbiter.1"
    check_file "$DESTDIR$mandir/man3/pgnarbiter.3"
fi
[ -z "${bashcompletiondir:-}" ] || check_file "$DESTDIR$bashcompletiondir/pgn-arbiter"
if [ -n "${bindir:-}" ]; then
    prog=$(ls "$DESTDIR$bindir"/pgn-arbiter* 2>/dev/null | head -n 1)
    if [ -n "$prog" ] && "$prog" --version >/dev/null; then
        echo "ok: installed $prog runs"
    else
        echo "FAIL: no pgn-arbiter in $DESTDIR$bindir that runs"
        fail=1
    fi
fi
[ "$fail" -eq 0 ] || exit 1

# The EXAMPLE of pgnarbiter(3) is this program, character for character.
man3=$srcdir/man/pgnarbiter.3
if [ -f "$man3" ]; then
    mansrc=$(sed -n '/^\.SS Program source/,/^\.EE/p' "$man3" | sed -e '1,/^\.EX/d' -e '/^\.EE/d' |
        sed -e 's/\\-/-/g' -e 's/\\e/\\/g')
    if printf '%s\n' "$mansrc" | cmp -s - "$here/example.c"; then
        echo "ok: the EXAMPLE of man/pgnarbiter.3 is tests/installcheck/example.c"
    else
        echo "FAIL: the EXAMPLE of man/pgnarbiter.3 differs from tests/installcheck/example.c (< man, > example.c):"
        printf '%s\n' "$mansrc" | diff - "$here/example.c" | head -n 20
        exit 1
    fi
    # ... and the output it shows there is the start of expected.out.
    manout=$(sed -n '/^\.SH EXAMPLE/,/^\.EE/p' "$man3" | sed -e '1,/^\.EX/d' -e '/^\.EE/d' -e '/^\$ /d' |
        sed -e 's/\\-/-/g' -e 's/\\e/\\/g')
    lines=$(printf '%s\n' "$manout" | wc -l)
    if [ "$(head -n "$lines" "$here/expected.out")" = "$manout" ]; then
        echo "ok: the output shown in the EXAMPLE of man/pgnarbiter.3 is the program's"
    else
        echo "FAIL: the output in the EXAMPLE of man/pgnarbiter.3 is not the start of expected.out:"
        printf '%s\n' "$manout"
        exit 1
    fi
fi

PKG_CONFIG_PATH=$DESTDIR$pkgconfigdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
export PKG_CONFIG_PATH
flags=$("$PKG_CONFIG" --cflags --libs pgnarbiter) || {
    echo "FAIL: $PKG_CONFIG --cflags --libs pgnarbiter (PKG_CONFIG_PATH=$PKG_CONFIG_PATH)"
    exit 1
}
echo "pkg-config: $flags"
case " $flags " in
*" -lpgnarbiter "*) ;;
*) echo "FAIL: pkg-config gives no -lpgnarbiter"; exit 1 ;;
esac

if [ -n "$DESTDIR" ]; then
    # Move every absolute -I and -L under DESTDIR, and name the staged
    # directories if pkg-config did not: it drops -I/usr/include and
    # -L/usr/lib, so for a /usr prefix nothing else would point into DESTDIR.
    staged=
    for f in $flags; do
        case $f in
        -I/*) f=-I$DESTDIR${f#-I} ;;
        -L/*) f=-L$DESTDIR${f#-L} ;;
        esac
        staged="$staged $f"
    done
    case "$staged " in *" -L$DESTDIR$libdir "*) ;; *) staged=" -L$DESTDIR$libdir$staged" ;; esac
    case "$staged " in *" -I$DESTDIR$includedir "*) ;; *) staged=" -I$DESTDIR$includedir$staged" ;; esac
    flags=${staged# }
fi
LD_LIBRARY_PATH=$DESTDIR$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnarbiter-installcheck.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

echo "$CC $here/example.c -o example $flags"
# shellcheck disable=SC2086 # CC and flags are word lists
if ! $CC "$here/example.c" -o "$tmp/example" $flags; then
    echo "FAIL: example.c does not build against the installed library"
    exit 1
fi
"$tmp/example" "$srcdir/data/sample.pgn" >"$tmp/out"
rc=$?
if [ "$rc" -ne 0 ]; then
    echo "FAIL: example exited with status $rc on data/sample.pgn"
    exit 1
fi
if ! diff -u "$here/expected.out" "$tmp/out"; then
    echo "FAIL: the example's output differs from tests/installcheck/expected.out (- expected, + got)"
    exit 1
fi
echo "ok: example.c built with pkg-config and ran on data/sample.pgn as expected"

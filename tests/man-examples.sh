#!/bin/sh
# man-examples.sh: the examples of man/pgn-arbiter.1 and README.md run as
# tests, so that the documentation cannot drift from the program.
#
# Usage: tests/man-examples.sh [--update]
#
# In the man page, an example is the .EX/.EE block that follows a line
#     .\" example: NAME
# Its text, with the roff escapes undone (\- \(aq \(dq \e \& \% and font
# changes), is a shell script run by sh.  An .EX/.EE block that follows
#     .\" output: NAME
# shows what example NAME prints: it must equal the example's standard
# output followed by its standard error.
# In README.md, an example is the fenced code block that follows a line
#     <!-- example: NAME -->
# and must be the same command as the man page example NAME.
#
# Each example runs in a fresh scratch copy of the files it may use, data/
# and tests/data/examples/, laid out as in the top source directory (so an
# example may rewrite a file in place without touching the source tree),
# with the directory of $PGN_ARBITER first in PATH so that it is found as
# `pgn-arbiter`, LC_ALL=C and standard input /dev/null.  What it printed
# is compared with tests/man-examples/NAME.out: the standard output, then,
# if the example wrote to standard error, a line `--- stderr ---` and the
# standard error, then, if its exit status was not 0, a line
# `--- exit status N ---`.  An example that uses jq is skipped when jq is
# not installed.
#
# --update writes tests/man-examples/NAME.out from what each example
# printed; read every changed file before committing it.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).
# Prints each failure with what differed, then `N passed, M failed`; exit
# status 1 if any test failed, 99 on a broken setup.

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
top=$(cd "$top" 2>/dev/null && pwd) || {
    echo "man-examples.sh: no source directory" >&2
    exit 99
}
man=$top/man/pgn-arbiter.1
readme=$top/README.md
golden=$top/tests/man-examples

update=no
case ${1-} in
--update) update=yes ;;
'') ;;
*)
    echo "usage: tests/man-examples.sh [--update]" >&2
    exit 99
    ;;
esac

for f in "$man" "$readme"; do
    if [ ! -f "$f" ]; then
        echo "man-examples.sh: no file $f" >&2
        exit 99
    fi
done

PGN_ARBITER=${PGN_ARBITER:-src/pgn-arbiter}
case $PGN_ARBITER in
/*) ;;
*) PGN_ARBITER=$(pwd)/$PGN_ARBITER ;;
esac
if [ ! -x "$PGN_ARBITER" ]; then
    echo "man-examples.sh: $PGN_ARBITER is not an executable program" >&2
    exit 99
fi

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/man-examples.$$
    mkdir "$tmp" || exit 99
}
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

# The program as `pgn-arbiter`: its own directory if that is its name (a
# valgrind shim is named so too), else a shim in a directory of ours.
case ${PGN_ARBITER##*/} in
pgn-arbiter) bindir=${PGN_ARBITER%/*} ;;
*)
    bindir=$tmp/bin
    mkdir "$bindir" || exit 99
    printf '#!/bin/sh\nexec "%s" "$@"\n' "$PGN_ARBITER" >"$bindir/pgn-arbiter"
    chmod +x "$bindir/pgn-arbiter"
    ;;
esac

have_jq=no
command -v jq >/dev/null 2>&1 && have_jq=yes

# ---- extraction ------------------------------------------------------

mkdir "$tmp/man" "$tmp/show" "$tmp/readme" || exit 99

# Man page: NAME.cmd for each example, NAME.show for each output block.
# Complains (and exits 1) about a marker without its block, a bad name, or
# a name used twice.
awk -v cmd="$tmp/man" -v show="$tmp/show" '
    function fail(msg) { print "man/pgn-arbiter.1:" NR ": " msg; bad = 1 }
    /^\.\\" (example|output):/ {
        if (want) fail("marker for " name " not followed by .EX")
        kind = ($2 == "example:") ? "cmd" : "show"
        name = $3
        if (name !~ /^[A-Za-z0-9][A-Za-z0-9_-]*$/ || NF != 3) { fail("bad marker: " $0); next }
        if (seen[kind, name]++) { fail("second " kind " block named " name); next }
        want = 1
        next
    }
    want && /^\.EX/ {
        file = ((kind == "cmd") ? cmd : show) "/" name "." kind
        printf "" > file
        want = 0; inex = 1
        next
    }
    want { fail("marker for " name " not followed by .EX"); want = 0 }
    inex && /^\.EE/ { close(file); inex = 0; next }
    inex { print > file }
    END {
        if (want || inex) fail("unfinished example block " name)
        exit bad
    }
' "$man" || exit 1

# README: NAME.cmd for each fenced block after an example comment.
awk -v dir="$tmp/readme" '
    function fail(msg) { print "README.md:" NR ": " msg; bad = 1 }
    /^<!-- example: / {
        if (want) fail("example comment for " name " not followed by a code block")
        name = $3
        if (name !~ /^[A-Za-z0-9][A-Za-z0-9_-]*$/ || NF != 4 || $4 != "-->") { fail("bad example comment: " $0); next }
        if (seen[name]++) { fail("second example named " name); next }
        want = 1
        next
    }
    want && /^```/ {
        file = dir "/" name ".cmd"
        printf "" > file
        want = 0; infence = 1
        next
    }
    want && /^[ \t]*$/ { next }
    want { fail("example comment for " name " not followed by a code block"); want = 0 }
    infence && /^```[ \t]*$/ { close(file); infence = 0; next }
    infence { print > file }
    END {
        if (want || infence) fail("unfinished example block " name)
        exit bad
    }
' "$readme" || exit 1

# Undoes the roff escapes used in examples and output blocks.
unroff() {
    sed -e 's/\\(aq/'"'"'/g' -e 's/\\(dq/"/g' -e 's/\\(ga/`/g' -e 's/\\(ti/~/g' \
        -e 's/\\(ha/^/g' -e 's/\\-/-/g' -e 's/\\&//g' -e 's/\\%//g' -e 's/\\f[BIRP]//g' \
        -e 's/\\e/\\/g' "$1"
}

# ---- running ---------------------------------------------------------

passed=0
failed=0
skipped=0

pass() { passed=$((passed + 1)); }
fail() {
    echo "FAIL: $1"
    failed=$((failed + 1))
}

# run NAME: runs man page example NAME and compares what it printed.
run() {
    name=$1
    unroff "$tmp/man/$name.cmd" >"$tmp/script"
    if [ "$have_jq" = no ] && grep -q 'jq' "$tmp/script"; then
        echo "SKIP: $name: jq is not installed"
        skipped=$((skipped + 1))
        return
    fi
    work=$tmp/work
    chmod -R u+w "$work" 2>/dev/null
    rm -rf "$work"
    mkdir -p "$work/tests/data" || exit 99
    if [ -d "$top/data" ]; then cp -R "$top/data" "$work/data" || exit 99; fi
    if [ -d "$top/tests/data/examples" ]; then
        cp -R "$top/tests/data/examples" "$work/tests/data/examples" || exit 99
    fi
    chmod -R u+w "$work"

    (cd "$work" && PATH="$bindir:$PATH" LC_ALL=C exec sh "$tmp/script") \
        </dev/null >"$tmp/stdout" 2>"$tmp/stderr"
    status=$?

    {
        cat "$tmp/stdout"
        if [ -s "$tmp/stderr" ]; then
            echo "--- stderr ---"
            cat "$tmp/stderr"
        fi
        if [ "$status" -ne 0 ]; then
            echo "--- exit status $status ---"
        fi
    } >"$tmp/actual"

    ok=yes
    if [ "$update" = yes ]; then
        mkdir -p "$golden" && cp "$tmp/actual" "$golden/$name.out" || exit 99
    elif [ ! -f "$golden/$name.out" ]; then
        fail "$name: no tests/man-examples/$name.out (make it with --update, then read it)"
        ok=no
    elif ! cmp -s "$golden/$name.out" "$tmp/actual"; then
        fail "$name: the output differs from tests/man-examples/$name.out (- expected, + actual):"
        diff -u "$golden/$name.out" "$tmp/actual" | sed -e '1,2d' -e 's/^/    /'
        ok=no
    fi

    if [ -f "$tmp/show/$name.show" ]; then
        unroff "$tmp/show/$name.show" >"$tmp/shown"
        cat "$tmp/stdout" "$tmp/stderr" >"$tmp/printed"
        if ! cmp -s "$tmp/shown" "$tmp/printed"; then
            fail "$name: the man page shows other output than the example prints (- shown, + printed):"
            diff -u "$tmp/shown" "$tmp/printed" | sed -e '1,2d' -e 's/^/    /'
            ok=no
        fi
    fi
    [ "$ok" = yes ] && pass
}

count=0
for f in "$tmp/man"/*.cmd; do
    [ -f "$f" ] || continue
    count=$((count + 1))
    name=${f##*/}
    run "${name%.cmd}"
done
if [ "$count" -eq 0 ]; then
    fail "man/pgn-arbiter.1 has no example"
fi

# An output block needs its example.
for f in "$tmp/show"/*.show; do
    [ -f "$f" ] || continue
    name=${f##*/}
    name=${name%.show}
    [ -f "$tmp/man/$name.cmd" ] || fail "man page: output block $name has no example $name"
done

# A README example is a man page example, word for word.
for f in "$tmp/readme"/*.cmd; do
    [ -f "$f" ] || continue
    name=${f##*/}
    name=${name%.cmd}
    if [ ! -f "$tmp/man/$name.cmd" ]; then
        fail "README.md: example $name is not in the man page"
    elif unroff "$tmp/man/$name.cmd" | cmp -s - "$f"; then
        pass
    else
        fail "README.md: example $name differs from the man page's (- man page, + README):"
        unroff "$tmp/man/$name.cmd" | diff -u - "$f" | sed -e '1,2d' -e 's/^/    /'
    fi
done

# An expected output needs its example.
if [ "$update" = no ]; then
    for f in "$golden"/*.out; do
        [ -f "$f" ] || continue
        name=${f##*/}
        name=${name%.out}
        [ -f "$tmp/man/$name.cmd" ] || fail "tests/man-examples/$name.out: no example $name in the man page"
    done
fi

[ "$skipped" -gt 0 ] && echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

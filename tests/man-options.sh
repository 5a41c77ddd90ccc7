#!/bin/sh
# man-options.sh: every long option that `pgn-arbiter --help` prints must be
# documented in man/pgn-arbiter.1.  The option table drives --help, so this
# keeps the man page in step with the code.
#
# Environment: PGN_ARBITER (default src/pgn-arbiter), abs_top_srcdir or
# top_srcdir (default: the directory above this script's).

top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
man=$top/man/pgn-arbiter.1
prog=${PGN_ARBITER:-src/pgn-arbiter}

if [ ! -f "$man" ]; then
    echo "man-options.sh: no man page at $man" >&2
    exit 99
fi
help=$("$prog" --help) || {
    echo "FAIL: '$prog --help' exited with status $?" >&2
    exit 1
}
opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z-]+' | sort -u)
if [ -z "$opts" ]; then
    echo "FAIL: '$prog --help' prints no long option" >&2
    exit 1
fi

# The man page source with roff escapes undone: \-\-json -> --json, no fonts.
text=$(sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\&//g' "$man")

missing=0
for opt in $opts; do
    if printf '%s\n' "$text" | grep -qE -- "(^|[^a-z-])$opt([^a-z-]|\$)"; then
        echo "ok: $opt"
    else
        echo "FAIL: $opt is in --help but not in man/pgn-arbiter.1"
        missing=$((missing + 1))
    fi
done
[ "$missing" -eq 0 ]

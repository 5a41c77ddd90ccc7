#!/bin/sh
# layout.sh: the shape of the source tree (ARCHITECTURE.md).
#
#   - the library (include/, src/lib/) includes none of the program's
#     headers (src/cli/): it is built on nothing above it;
#   - the program's modules include each other without a cycle, so that
#     each can be read knowing only those below it;
#   - no source file is over 1,200 lines.
#
# Prints each breach, then exits 1 if there was one.
top=${abs_top_srcdir:-${top_srcdir:-$(dirname "$0")/..}}
cd "$top" || exit 99
[ -d src/lib ] && [ -d src/cli ] && [ -d include ] || {
    echo "layout.sh: no src/lib, src/cli or include in $top" >&2
    exit 99
}
bad=0

# Headers a file includes by quoted name.
quoted() { sed -n 's/^[ \t]*#[ \t]*include[ \t]*"\([^"]*\)".*/\1/p' "$1"; }

cli_headers=$(cd src/cli && ls *.h)
for f in $(find include src/lib -name '*.[ch]' | sort); do
    for h in $(quoted "$f"); do
        for c in $cli_headers; do
            if [ "${h##*/}" = "$c" ] && [ ! -f "src/lib/$h" ] && [ ! -f "include/$h" ] &&
                [ ! -f "$(dirname "$f")/$h" ]; then
                echo "layout.sh: $f includes the program's header $h"
                bad=1
            fi
        done
    done
done

# The program's modules (a .c and its .h are one module) as tsort pairs.
pairs=$(for f in src/cli/*.[ch]; do
    m=$(basename "$f"); m=${m%.*}
    for h in $(quoted "$f"); do
        [ -f "src/cli/$h" ] || continue
        d=${h%.h}
        [ "$d" = "$m" ] || echo "$m $d"
    done
done)
if ! loop=$(printf '%s\n' "$pairs" | tsort 2>&1 > /dev/null); then
    echo "layout.sh: the program's modules include each other in a cycle:"
    echo "$loop"
    bad=1
fi

for f in $(find include src -name '*.[ch]' | sort); do
    n=$(wc -l < "$f")
    if [ "$n" -gt 1200 ]; then
        echo "layout.sh: $f has $n lines (at most 1,200)"
        bad=1
    fi
done

[ "$bad" -eq 0 ] && echo "ok: library apart from the program, no include cycle, no file over 1,200 lines"
exit "$bad"

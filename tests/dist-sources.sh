#!/bin/sh
# dist-sources.sh: the tree that becomes the tarball holds sources only.
#
#   dist-sources.sh DIR
#
# Fails, naming each one, if DIR holds a built file: an object or library
# (.o .lo .la .a .so), a test log (.log .trs), a build directory's traces
# (.deps .libs .dirstamp) or a compiled program (an ELF, Mach-O or PE file).
# `make dist` runs it on its distdir (dist-hook), so a tarball made after a
# build in the source tree is the one a clean tree makes.

dir=${1:?usage: dist-sources.sh DIR}
[ -d "$dir" ] || { echo "dist-sources.sh: no directory $dir" >&2; exit 2; }
bad=$(find "$dir" \( -name '*.o' -o -name '*.lo' -o -name '*.la' -o -name '*.a' \
    -o -name '*.so' -o -name '*.log' -o -name '*.trs' -o -name .deps -o -name .libs \
    -o -name .dirstamp \) -print)
# Compiled programs, by their first bytes (ELF, Mach-O, PE).
progs=$(find "$dir" -type f -perm -u+x -print | while IFS= read -r f; do
    magic=$(head -c 4 "$f" | od -An -tx1 | tr -d ' \n')
    case $magic in
    7f454c46 | cffaedfe | cefaedfe | feedfacf | feedface | 4d5a*) echo "$f" ;;
    esac
done)
bad=$(printf '%s\n%s\n' "$bad" "$progs" | sed '/^$/d')
if [ -n "$bad" ]; then
    echo "dist-sources.sh: built files in $dir, which must hold sources only:" >&2
    printf '%s\n' "$bad" | sed 's/^/    /' >&2
    exit 1
fi
exit 0

#!/bin/sh
# sanitizers.sh: in a sanitizer build, a sanitizer report fails the program
# that makes it, so that no test passes over one.
#
# For each sanitizer in the build's CFLAGS (./configure --enable-asan,
# --enable-ubsan, --enable-tsan), a small program with the fault that
# sanitizer finds (a read past a heap block, a signed overflow, a data race)
# is compiled with the build's compiler and flags and run with the test
# environment (ASAN_OPTIONS, UBSAN_OPTIONS, TSAN_OPTIONS, see Makefile.am):
# it must report the fault and exit with a failure.  A build without
# sanitizers has nothing to check and passes.
#
# Environment: BUILD_CC, BUILD_CFLAGS, BUILD_LDFLAGS (set by `make check`).

cc=${BUILD_CC:-cc}
cflags=${BUILD_CFLAGS:-}
ldflags=${BUILD_LDFLAGS:-}

tmp=$(mktemp -d 2>/dev/null) || {
    tmp=${TMPDIR:-/tmp}/sanitizers.$$
    mkdir "$tmp" || exit 99
}
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' HUP INT TERM

cat >"$tmp/ubsan.c" <<'EOF'
#include <limits.h>
#include <stdio.h>
int main(void)
{
    volatile int big = INT_MAX;
    int sum = big + 1; /* signed overflow */
    printf("%d\n", sum);
    return 0;
}
EOF
cat >"$tmp/asan.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
    volatile int n = 4;
    char *volatile p = malloc(4); /* volatile: for ASan, not UBSan, to see */
    p[0] = 0;
    printf("%d\n", p[n]); /* one past the block */
    free(p);
    return 0;
}
EOF
cat >"$tmp/tsan.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>
static int shared;
static void *bump(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        shared++; /* unsynchronised, as in the other thread */
    return NULL;
}
int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, bump, NULL);
    pthread_create(&b, NULL, bump, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("%d\n", shared);
    return 0;
}
EOF

passed=0
failed=0
# check NAME FLAG WORDS: if the build has FLAG, the program NAME.c must
# fail, with WORDS (a fixed string) in its report.
check() {
    case " $cflags " in
    *" $2 "*) ;;
    *) return ;;
    esac
    # shellcheck disable=SC2086
    if ! $cc $cflags "$tmp/$1.c" -o "$tmp/$1" $ldflags -pthread >"$tmp/$1.log" 2>&1; then
        echo "FAIL: $1: does not compile with $cc $cflags:"
        sed 's/^/    /' "$tmp/$1.log"
        failed=$((failed + 1))
        return
    fi
    "$tmp/$1" >/dev/null 2>"$tmp/$1.err"
    status=$?
    if [ "$status" -ne 0 ] && grep -qF "$3" "$tmp/$1.err"; then
        echo "ok: $1: the report is fatal (exit $status)"
        passed=$((passed + 1))
    else
        echo "FAIL: $1: exit $status after the fault, expected a failure with \"$3\":"
        head -n 10 "$tmp/$1.err" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
}
check ubsan -fsanitize=undefined 'signed integer overflow'
check asan -fsanitize=address 'heap-buffer-overflow'
check tsan -fsanitize=thread 'data race'

if [ $((passed + failed)) -eq 0 ]; then
    echo "ok: not a sanitizer build, nothing to check"
    exit 0
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

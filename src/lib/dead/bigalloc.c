/* bigalloc.c: the searches' large tables, in huge pages where the system
 * has them.
 *
 * The exhaustion's queue and seen set and the best-first search's heap
 * grow to tens of MB, written once and then read at random.  In 4 KiB
 * pages a long search spends a tenth of its time taking page faults, and
 * most of its probes also miss the TLB.  Linux maps a region in 2 MiB
 * pages when asked with madvise(MADV_HUGEPAGE) (transparent huge pages,
 * in "madvise" or "always" mode).  Elsewhere, or where the system
 * declines, the table is an ordinary malloc() block: only the speed
 * differs, never what is computed. */
#define _GNU_SOURCE 1 /* madvise() and MADV_HUGEPAGE, where Linux has them */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dead_internal.h"

/* Smaller blocks gain little: a few huge pages at most, and a 2 MiB page
 * is cleared whole at its first touch, however little of it is used. */
#define BIG_MIN ((size_t)4 << 20)

void *dead_big_alloc(size_t size)
{
    void *p = malloc(size);
#ifdef MADV_HUGEPAGE
    long page = sysconf(_SC_PAGESIZE);
    if (p && size >= BIG_MIN && page > 0) {
        /* the whole pages of the block; the kernel uses huge pages for the
         * 2 MiB-aligned stretches among them */
        uintptr_t mask = (uintptr_t)page - 1;
        uintptr_t from = ((uintptr_t)p + mask) & ~mask, to = ((uintptr_t)p + size) & ~mask;
        if (to > from)
            (void)madvise((void *)from, to - from, MADV_HUGEPAGE); /* advice: a refusal changes nothing */
    }
#endif
    return p;
}

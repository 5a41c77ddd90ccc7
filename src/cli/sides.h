/* sides.h: --fen's analysis of both sides of a position at once, White's
 * on the calling thread and Black's on a worker thread, each with a search
 * handle of its own: a position then takes as long as its slower side,
 * not as the two together, and the answers are the same (report.h,
 * report_sides_fn). */
#ifndef ARB_SIDES_H
#define ARB_SIDES_H

#include <stdbool.h>

#include "report.h"

typedef struct sides sides_t;

/* Two handles at dead_search_new()'s default budget and a worker that
 * lives as long as they do, or, with two_threads false (or where the
 * second handle or the thread cannot be had), one handle for both sides
 * in turn.  NULL if out of memory. */
sides_t *sides_new(bool two_threads);

/* Waits for the worker and frees s (NULL is allowed). */
void sides_free(sides_t *s);

/* A report_sides_fn: ctx is a sides_t. */
void sides_analyse(void *ctx, const board_t *b, report_side_t side[2]);

#endif

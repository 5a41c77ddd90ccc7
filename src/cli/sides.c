/* sides.c: both sides of a --fen position at once (sides.h). */
#include "sides.h"

#include <stdlib.h>

#include "dead.h"
#include "jobq.h"

/* Black's question, handed to the worker. */
typedef struct side_job {
    const board_t *b;
    report_side_t *out;
} side_job_t;

struct sides {
    dead_search_t *search[2]; /* White's, and Black's (NULL: White's answers both) */
    jobq_t *worker;           /* runs Black's side; NULL: both in turn here */
};

/* The worker's part: Black's side, with Black's handle, which no other
 * thread touches. */
static void run_black(void *ctx, void *job)
{
    sides_t *s = ctx;
    side_job_t *j = job;
    report_side(s->search[BLACK], j->b, BLACK, j->out);
}

sides_t *sides_new(bool two_threads)
{
    sides_t *s = calloc(1, sizeof *s);
    if (!s || !(s->search[WHITE] = dead_search_new(0))) {
        free(s);
        return NULL;
    }
    if (two_threads && (s->search[BLACK] = dead_search_new(0)) &&
        !(s->worker = jobq_new(1, 1, run_black, s))) {
        dead_search_free(s->search[BLACK]);
        s->search[BLACK] = NULL;
    }
    return s;
}

void sides_free(sides_t *s)
{
    if (!s)
        return;
    jobq_free(s->worker);
    dead_search_free(s->search[WHITE]);
    dead_search_free(s->search[BLACK]);
    free(s);
}

void sides_analyse(void *ctx, const board_t *b, report_side_t side[2])
{
    sides_t *s = ctx;
    if (!s->worker) {
        report_side(s->search[WHITE], b, WHITE, &side[WHITE]);
        report_side(s->search[WHITE], b, BLACK, &side[BLACK]);
        return;
    }
    side_job_t job = { b, &side[BLACK] };
    jobq_put(s->worker, &job);
    report_side(s->search[WHITE], b, WHITE, &side[WHITE]);
    jobq_wait(s->worker, 0);
    jobq_remove(s->worker, 0);
}

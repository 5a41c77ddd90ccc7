/* progress.h: a progress line on stderr for long runs. */
#ifndef ARB_PROGRESS_H
#define ARB_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct progress {
    bool on;              /* print at all */
    bool forced;          /* asked for (--progress): a last line at the end too */
    bool tty;             /* stderr is a terminal: redraw one line in place */
    const char *name;
    uint64_t size;        /* bytes of the input, 0 if unknown */
    double start, last;   /* seconds, monotonic clock */
    bool shown;
} progress_t;

/* Starts a progress line for input `name` of `size` bytes (0: unknown). */
void progress_start(progress_t *p, bool on, bool forced, const char *name, uint64_t size);

/* Reports `done` bytes of the input read and `games` games, at most a few times a second. */
void progress_update(progress_t *p, uint64_t done, uint64_t games);

/* Ends the line: clears it on a terminal; when forced and not on a
 * terminal, prints the totals as a last line. */
void progress_end(progress_t *p, uint64_t done, uint64_t games);

#endif

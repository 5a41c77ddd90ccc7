/* events.h: what is new in the games of one followed file (--follow)
 * since the file was last read, as event lines.
 *
 * Each read of the file is replayed whole; its games are matched with the
 * games of earlier reads by their tags (the URL of a lichess study or
 * broadcast chapter in Site or GameURL, else Round and Board, else Round,
 * White and Black, else their place in the file), and each fact, illegal move,
 * unreadable text or contradicted result is an event written once.  A fact
 * that a later read no longer shows (moves taken back) is withdrawn.
 * What a half-written file could show falsely waits until it has stayed
 * the same for cli_t.settle_ms: see "Following a live round" in
 * pgn-arbiter(1) for the rules. */
#ifndef ARB_CLI_EVENTS_H
#define ARB_CLI_EVENTS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>

#include "cli.h"

typedef struct events events_t;

/* The events of the file named `file` (kept by pointer: it must outlive
 * the handle), read with the options of cli (kept likewise).  NULL if out
 * of memory. */
events_t *events_new(const char *file, const cli_t *cli);
void events_free(events_t *e);

/* Makes events_read() stop between two games once *stop is non-zero (set
 * by a signal handler), so that a stop during the replay of a large file
 * is prompt.  A read stopped so is incomplete and meant to be the last.
 * stop is kept by pointer; NULL: never stop. */
void events_set_stop(events_t *e, const volatile sig_atomic_t *stop);

/* Takes text[0..len), the whole file as it is now, read at `now` (a
 * monotonic clock, seconds) and `wall` (the time printed), and appends the
 * lines of the events it makes certain to out.  False if memory ran out. */
bool events_read(events_t *e, const char *text, size_t len, double now, time_t wall, strbuf_t *out);

/* Takes text[0..len), games of a stream (--follow -) where each game is
 * sent again whole as it grows: each game read replaces the earlier copy
 * of the game it names (games named by none of the tags above are matched
 * by Event, White and Black); the other games stay as they were.
 * last_cut: the last game of text may be cut short (more of it may come).
 * Appends the lines of the events it makes certain to out.  False if
 * memory ran out. */
bool events_stream_read(events_t *e, const char *text, size_t len, bool last_cut, double now, time_t wall,
                        strbuf_t *out);

/* The end of a stream: appends every event still waiting, as nothing can
 * change it any more, except those of a game whose last copy was cut short
 * (what the cut may have shown falsely).  False if memory ran out. */
bool events_end(events_t *e, time_t wall, strbuf_t *out);

/* Appends the lines of the events that waited for the settle time and
 * have waited long enough at `now`.  False if memory ran out. */
bool events_due(events_t *e, double now, time_t wall, strbuf_t *out);

/* When the next waiting event will be due (monotonic seconds), or a
 * negative number if none waits. */
double events_next_due(const events_t *e);

#endif

/* rewrite.h: byte-preserving PGN rewriting for --fix.
 *
 * The rewriter is fed the same bytes as the reader and, game by game,
 * copies them to an output buffer, changing only the Result tag, the
 * termination marker and an Adjudication tag (and, when truncating, the
 * moves recorded after the game had ended).  Everything else, line ends
 * and byte order mark included, is copied as it is. */
#ifndef ARB_REWRITE_H
#define ARB_REWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pgnarbiter.h"
#include "report.h"

typedef struct rewrite_options {
    bool annotate;  /* add [Adjudication "..."] when the rules change a result */
    bool truncate;  /* drop the moves recorded after the game ended by rule */
} rewrite_options_t;

typedef struct rewriter rewriter_t;

/* NULL if out of memory.  Free with rewrite_free(). */
rewriter_t *rewrite_new(rewrite_options_t opt);
void rewrite_free(rewriter_t *w);

/* Makes the first byte fed byte `offset` of the stream (a piece of a split
 * input), which starts a line: line_end is the line end before it ("\n" or
 * "\r\n"), for a game that has none of its own to copy, as one reader of
 * the whole stream would have seen it.  Call before the first
 * rewrite_feed(). */
void rewrite_set_origin(rewriter_t *w, uint64_t offset, const char *line_end);

/* Keeps the next len bytes of the stream.  Returns -1 if out of memory. */
int rewrite_feed(rewriter_t *w, const char *buf, size_t len);

/* Appends every byte up to the end of game g to out, corrected; a game
 * that is not ARB_OK is copied untouched.  Returns 1 if it changed, 0 if
 * not, and -1 if it needed a change but was copied untouched because the
 * change falls inside a word that would then read differently: a marker
 * read inside a word ("Ra0-15." with 1/2-1/2 for 0-1 would hold the move
 * Ra1), or, with truncate, an end inside a word ("Nf3Nc6" ending at Nf3). */
int rewrite_game(rewriter_t *w, const arb_game *g, strbuf_t *out);

/* Appends the bytes after the last game. */
void rewrite_finish(rewriter_t *w, strbuf_t *out);

/* The result --fix gives g (one of 1-0, 0-1, 1/2-1/2, *), NULL for a game
 * it leaves alone. */
const char *rewrite_target(const arb_game *g);

#endif

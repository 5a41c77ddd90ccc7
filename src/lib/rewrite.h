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

/* The longest game text, in bytes, that the rewriter holds to correct it: a
 * longer game (a huge comment, a decompression bomb) is copied as it is,
 * so that memory stays bounded whatever one game holds. */
#define REWRITE_GAME_MAX (8u << 20)

typedef struct rewrite_options {
    bool annotate;   /* add [Adjudication "..."] when the rules change a result */
    bool truncate;   /* drop the moves recorded after the game ended by rule */
    size_t game_max; /* bytes of one game's text held to correct it; 0: REWRITE_GAME_MAX */
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

/* Call before rewrite_feed() once every game the bytes fed so far hold is
 * rewritten: if more than the game_max bytes of the game under way are held,
 * appends all but the last game_max of them to out as they are.  That game
 * is longer than game_max, and rewrite_game() will copy it as it is. */
void rewrite_spill(rewriter_t *w, strbuf_t *out);

/* Appends every byte up to the end of game g to out, corrected; a game
 * that is not ARB_OK is copied untouched.  Returns 1 if it changed, 0 if
 * not, and -1 if it needed a change but was copied untouched because the
 * change falls inside a word that would then read differently: a marker
 * read inside a word ("Ra0-15." with 1/2-1/2 for 0-1 would hold the move
 * Ra1), or, with truncate, an end inside a word ("Nf3Nc6" ending at Nf3);
 * -2 if it needed a change but was copied untouched because its text is
 * longer than game_max bytes. */
int rewrite_game(rewriter_t *w, const arb_game *g, strbuf_t *out);

/* Appends the bytes after the last game. */
void rewrite_finish(rewriter_t *w, strbuf_t *out);

/* The result --fix gives g (one of 1-0, 0-1, 1/2-1/2, *), NULL for a game
 * it leaves alone. */
const char *rewrite_target(const arb_game *g);

#endif

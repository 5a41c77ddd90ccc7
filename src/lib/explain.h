/* explain.h: a person's account of one game (--explain).
 *
 * What the record of a game says in one JSON line, told in words: the
 * players, the recorded and the adjudicated result, the verdict, and for
 * each rule fact that occurred, the ply, the move that led there, the
 * FIDE article, every occurrence of a repeated position, the halfmove clock,
 * and a board diagram.  No I/O: the text is appended to a strbuf_t. */
#ifndef ARB_EXPLAIN_H
#define ARB_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "pgnarbiter.h"
#include "report.h"

/* Reads the first game in pgn[0..len) with the default options and appends
 * its account to out.  name heads the account ("games.pgn:16: game 4"),
 * NULL for "game"; ascii draws diagrams with letters (KQRBNP white, kqrbnp
 * black, '.' empty) instead of Unicode chess figures.  The caller keeps
 * pgn and owns out.  Returns 0, 1 if the bytes hold no game (nothing is
 * appended), -1 if memory ran out (out may hold part of the account). */
int explain_game(const char *pgn, size_t len, const char *name, bool ascii, strbuf_t *out);

/* The same with the options the game was read with (policy, null moves);
 * opt may be NULL for the defaults. */
int explain_game_opt(const char *pgn, size_t len, const char *name, bool ascii, const arb_options *opt,
                     strbuf_t *out);

/* How the claim of fact f (ARB_THREEFOLD or ARB_FIFTY) that the record of
 * the first game of pgn[0..len) places at ply p is made: *side is the
 * player who may claim (0 White, 1 Black), and declared[] the move that
 * player may write down and declare (FIDE 9.2.1.1, 9.3.1), numbered
 * ("34...Kg7"; the move played when the score records it), or "" when the
 * position at ply p allows the claim by itself (9.2.1.2, 9.3.2).  Returns
 * 0; 1 if the game cannot be replayed to ply p as the reader replayed it
 * (nothing is set); -1 if memory ran out. */
int explain_claim(const char *pgn, size_t len, const arb_options *opt, arb_fact f, uint32_t p, int *side,
                  char declared[24]);

#endif

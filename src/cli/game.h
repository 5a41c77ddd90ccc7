/* game.h: what the program does with each game the library hands it
 * (counted, reported, checked or rewritten), and how held output reaches
 * its stream.  Used by every way of reading an input: one thread, pieces
 * on worker threads, whole files on worker threads. */
#ifndef ARB_CLI_GAME_H
#define ARB_CLI_GAME_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Records game g of input `name`: totals into st, the report or rewritten
 * PGN into out, --check problems into problems, per-game diagnostics into
 * diag; w is the rewriter with --fix, else NULL. */
void cli_handle_game(const cli_t *cli, stats_t *st, const char *name, const arb_game *g,
                     strbuf_t *out, strbuf_t *problems, strbuf_t *diag, rewriter_t *w);

/* Adds the totals of one piece of work to st. */
void cli_add_stats(stats_t *st, const stats_t *piece);

/* Writes b to f with every tracked game number raised by base, then
 * empties b.  False on a write error. */
bool cli_write(strbuf_t *b, uint64_t base, FILE *f);

#endif

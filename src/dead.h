/* dead.h: dead positions and unwinnability (FIDE Laws 2023, 5.2.2 and 6.9).
 *
 * A side "can win" a position when some series of legal moves, both sides
 * cooperating (a helpmate), ends with that side checkmating the other.  The
 * position is dead (5.2.2) when neither side can win; a flag fall is a draw
 * when the opponent of the player out of time cannot win (6.9).
 *
 * The analysis follows the outline of M. Ambrona, "A Practical Algorithm for
 * Chess Unwinnability", FUN 2022: material rules, forced lines, a goal-directed
 * helpmate search, a semi-static pass over the pawn structure (which pawns can
 * never move, where each piece can ever go, whether a king can ever be
 * mated there) and an exhaustive search when the reachable positions are few.
 *
 * Soundness: DEAD_UNWINNABLE is only ever answered with a proof (material,
 * an exhausted search, the semi-static argument); DEAD_WINNABLE from
 * dead_can_win() comes with a helpmate line that can be replayed.  When the
 * budget runs out the answer is DEAD_UNDETERMINED, which callers must treat
 * as winnable, never as dead.  Move counters and repetitions are ignored, as
 * the Laws do for "any series of legal moves".
 *
 * No global mutable state: a dead_search_t belongs to one thread. */
#ifndef ARB_DEAD_H
#define ARB_DEAD_H

#include <stddef.h>

#include "board.h"

enum dead_answer {
    DEAD_WINNABLE,    /* the side can mate by some series of legal moves */
    DEAD_UNWINNABLE,  /* it cannot (proved) */
    DEAD_UNDETERMINED /* not decided: cheap test declined, or budget spent */
};

/* Search state: transposition table, node budget, scratch.  Opaque. */
typedef struct dead_search dead_search_t;

/* A search handle whose dead_can_win() visits at most about node_budget
 * positions per call (0: the default, 400000).  The table takes about
 * 16 bytes per budgeted node, between 64 KiB and 8 MiB.  Returns NULL if out
 * of memory.  The caller owns the handle and frees it with dead_search_free. */
dead_search_t *dead_search_new(size_t node_budget);

/* Frees s (NULL is allowed). */
void dead_search_free(dead_search_t *s);

/* Full analysis: can `color` (WHITE or BLACK) checkmate in b by some series of
 * legal moves?  On DEAD_WINNABLE the helpmate line (moves as movegen_legal
 * lists them, starting with b's side to move, ending in mate of !color) is
 * written to line[0..min(len, line_cap)) with *line_len = its full length;
 * line may be NULL when line_cap is 0.  *line_len is 0 for the other answers.
 * A position already checkmate is winnable (empty line) for the side that
 * mated and unwinnable for the side mated; a stalemate is unwinnable for both.
 * Cost: well under a millisecond for most positions, at most the budget. */
enum dead_answer dead_can_win(dead_search_t *s, const board_t *b, int color, move_t *line,
                              int line_cap, int *line_len);

/* Static filter, well under a microsecond, no allocation: answers
 * DEAD_UNWINNABLE when the material of `color` (and what the opponent could
 * lend it as blockers) can never mate, DEAD_WINNABLE only in the certain
 * cases named in dead.c (it never searches), DEAD_UNDETERMINED otherwise.
 * It does not look at legal moves: a stalemate or checkmate on the board is
 * the caller's to detect (rules.c knows), as is a forced line. */
enum dead_answer dead_quick(const board_t *b, int color);

/* Statistics of the last dead_can_win() call on s, for benchmarks. */
typedef struct dead_stats {
    unsigned long nodes; /* positions visited, all stages */
    int stage;           /* which stage decided: 0 none, 1 terminal/material, 2 forced lines,
                            3 quick helpmate search, 4 semi-static, 5 full search,
                            6 semi-static after one move */
} dead_stats_t;
void dead_last_stats(const dead_search_t *s, dead_stats_t *out);

#endif

/* dead.h: dead positions and unwinnability (FIDE Laws 2023, 5.2.2 and 6.9).
 *
 * A side "can win" a position when some series of legal moves, both sides
 * cooperating (a helpmate), ends with that side checkmating the other.  The
 * position is dead (5.2.2) when neither side can win; a flag fall is a draw
 * when the opponent of the player out of time cannot win (6.9).
 *
 * Three answers, from cheap to dear:
 *   dead_quick()    material alone, no board search: well under 0.1 us;
 *   dead_probe()    the cheap proofs (forced lines, locked pawns): a few us;
 *   dead_can_win()  the full analysis with a helpmate search: about 0.1 to
 *                   0.3 ms for most positions, at most the node budget.
 *
 * Soundness: DEAD_UNWINNABLE is only ever answered with a proof (material,
 * a search that saw every reachable position, the semi-static argument);
 * DEAD_WINNABLE from dead_can_win() comes with a helpmate line that the
 * caller can replay.  DEAD_UNDETERMINED means "not shown either way" and
 * must be treated as winnable, never as dead.  Move counters and repetition
 * are ignored, as "any series of legal moves" does.  The searches key
 * positions by 64-bit Zobrist keys; a collision could hide a position.
 *
 * No global mutable state: a dead_search_t belongs to one thread at a time. */
#ifndef ARB_DEAD_H
#define ARB_DEAD_H

#include <stddef.h>

#include "board.h"

enum dead_answer {
    DEAD_WINNABLE,    /* the side can mate by some series of legal moves */
    DEAD_UNWINNABLE,  /* it cannot (proved) */
    DEAD_UNDETERMINED /* not decided: the cheap test declined, or the budget ran out */
};

/* Search state: move generation tables, transposition table, scratch.
 * Opaque; one per thread. */
typedef struct dead_search dead_search_t;

/* A handle whose dead_can_win() visits at most about node_budget positions
 * per call (0: the default, 4000000, for a single position: a few seconds
 * and about 120 MiB at worst; 400000 takes a fraction of a second).
 * Memory: 0.6 MiB, and from the first dead_can_win() call on the table, 16
 * bytes per budgeted node rounded up to a power of two, between 64 KiB and
 * 8 MiB (that call answers DEAD_UNDETERMINED if it cannot be allocated);
 * the breadth-first and best-first stages of dead_can_win() borrow up to
 * 80 bytes per node left for the call and give them back.  Making a handle costs next to
 * nothing: the move tables are made at the first call that needs them.
 * Returns NULL if out of memory; free with dead_search_free(). */
dead_search_t *dead_search_new(size_t node_budget);

/* Frees s (NULL is allowed). */
void dead_search_free(dead_search_t *s);

/* Full analysis: can `color` (WHITE or BLACK) checkmate in b by some series
 * of legal moves?  On DEAD_WINNABLE the helpmate line (moves as
 * movegen_legal() lists them, b's side to move first, ending in mate of
 * !color) goes to line[0 .. min(*line_len, line_cap)) and *line_len is its
 * full length (line may be NULL when line_cap is 0; line_len may be NULL).
 * Lines can be long (up to 512 plies).  *line_len is 0 for the other
 * answers.  A position that is already checkmate is winnable (empty line)
 * for the side that mated and unwinnable for the side mated; a stalemate is
 * unwinnable for both. */
enum dead_answer dead_can_win(dead_search_t *s, const board_t *b, int color, move_t *line,
                              int line_cap, int *line_len);

/* The proofs of dead_can_win() that follow no line of moves, where pawns
 * are locked (every pawn has an enemy pawn ahead on its file, one of them
 * head-on): the position itself (mate, stalemate, material), the
 * semi-static pass, and the semi-static pass after each legal move (stages
 * 1, 4 and 7 below).  There it answers as dead_can_win() does when one of
 * these decides; otherwise DEAD_UNDETERMINED.  For a question asked once
 * (Article 6.9 at the end of a game) where a search would cost too much:
 * tens of microseconds, no node budget used. */
enum dead_answer dead_static_proof(dead_search_t *s, const board_t *b, int color);

/* A proof for fortresses: where one side has nothing but its king and
 * pawns, its king has no square to step to (its own men and the enemy's
 * pawns and pieces hold them all), every one of its pawns faces an enemy
 * pawn ahead on its file, and at most 8 pushes are left to them before
 * they meet, that side runs out of moves within a few plies unless the
 * structure changes, and the positions that can arise are few.  A
 * breadth-first exhaustion of them, within 4,096 nodes (stage 6), answers
 * as dead_can_win() does when it ends (a mate found comes with its line,
 * as there); elsewhere, or when the exhaustion stops, DEAD_UNDETERMINED.
 * For Article 6.9 at the end of a game, where the full analysis would cost
 * too much: a fraction of a microsecond when no side is walled in, up to
 * about 1 ms when one is. */
enum dead_answer dead_fortress_proof(dead_search_t *s, const board_t *b, int color, move_t *line,
                                     int line_cap, int *line_len);

/* Quick mode, for a replay that asks at many plies: only the cheap proofs
 * of dead_can_win(): the position itself (mate, stalemate, material),
 * forced lines of up to 9 plies (every series ends in insufficient
 * material, stalemate or mate of color), and the semi-static pass when
 * every pawn faces an enemy pawn on its file, some are locked, and color
 * has no rook or queen beside an open file.  No helpmate search:
 * DEAD_UNWINNABLE when proved, DEAD_WINNABLE only for a mate already on
 * the board, DEAD_UNDETERMINED otherwise.  About 3 microseconds. */
enum dead_answer dead_probe(dead_search_t *s, const board_t *b, int color);

/* Static filter on material alone (no moves, no allocation, well under a
 * microsecond): DEAD_UNWINNABLE when `color` can never mate whatever the
 * opponent lends as blockers (a lone king; a lone knight against nothing but
 * queens; bishops of one colour against no pawn, knight or bishop of the
 * other colour), else DEAD_UNDETERMINED.  It never answers DEAD_WINNABLE: no
 * material makes a win certain (a forced stalemate, a fortress).  Checkmate
 * and stalemate on the board are the caller's to detect. */
enum dead_answer dead_quick(const board_t *b, int color);

/* Statistics of the last dead_can_win(), dead_fortress_proof() or
 * dead_probe() call on s, for benchmarks and tests. */
typedef struct dead_stats {
    unsigned long nodes; /* positions visited, all stages */
    int stage;           /* the stage that decided: 0 none (undetermined), 1 the position itself
                            (mate, stalemate, material), 2 local helpmate search (dead_probe:
                            forced lines), 3 corner helpmate search, 4 semi-static pass,
                            5 iterative deepening, 6 breadth-first exhaustion, 7 semi-static
                            pass after each move, 8 best-first search; dead_can_win() runs
                            them in the order 1 4 7 2 3 5 6 8 (locked pawns: 1 4 7 2 3 6 5 8 5) */
} dead_stats_t;
void dead_last_stats(const dead_search_t *s, dead_stats_t *out);

#endif

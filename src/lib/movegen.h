/* movegen.h: attacks, legal moves, perft. */
#ifndef ARB_MOVEGEN_H
#define ARB_MOVEGEN_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"

#define MAX_MOVES 256 /* more than the 218 any position allows */

/* True if a piece of colour by attacks square sq (pins ignored). */
bool movegen_attacked(const board_t *b, int sq, int by);

/* Fills out[] with every pseudo-legal move of the side to move (castling
 * included, legal or not); returns the count.  movegen_is_legal_known()
 * tells which are legal. */
int movegen_pseudo(const board_t *b, move_t out[MAX_MOVES]);

/* Fills out[] with every legal move of the side to move; returns the count. */
int movegen_legal(const board_t *b, move_t out[MAX_MOVES]);

/* True if the side to move has at least one legal move (stops at the first). */
bool movegen_has_legal(const board_t *b);

/* True if the pseudo-legal move m does not leave the mover's king attacked. */
bool movegen_is_legal(const board_t *b, move_t m);

/* movegen_is_legal() for a king step (not castling) from `from` to `to`. */
bool movegen_king_step_legal(const board_t *b, int from, int to);

/* The same for a caller that knows whether the side to move is in check
 * (b->in_check): a move other than a king move or en passant is legal
 * unless it leaves the line of a pin (movegen_pin_dir()), or leaves
 * the check (b->checker) standing. */
bool movegen_is_legal_known_full(const board_t *b, move_t m, bool in_check);
/* The direction (board_ray_dir) from the side to move's king of the line
 * on which its man on `from` is pinned, BOARD_DIR_NONE if the man is free:
 * pinned when the nearest enemy slider of the line's kind beyond the king
 * has this man, and only it, in between.  No walk: a few loads and ANDs. */
static inline int movegen_pin_dir(const board_t *b, int from)
{
    int us = b->stm, k = b->king[us], d = board_ray_dir[BOARD_DELTA(k, from)];
    uint64_t sliders = board_ray_sliders(b, !us, k, d);
    if (!sliders)
        return BOARD_DIR_NONE;
    int s = SQ88(board_ray_nearest(d, sliders));
    return (board_between(k, s) & b->occ) == board_sq_bit[from] ? d : BOARD_DIR_NONE;
}

/* movegen_is_legal_known_full() for a move of a man other than the king,
 * not en passant nor castling: no call, for callers that keep their
 * common path free of register saves. */
static inline bool movegen_man_legal(const board_t *b, move_t m, bool in_check)
{
    int k = b->king[b->stm];
    if (in_check) {
        /* Another man can only take the one checker or step between it
         * and the king; then it must not uncover a second line. */
        int c = b->checker;
        if (c == SQ_NONE)
            return false; /* double check: only the king may move */
        if (m.to != c && !(board_between(k, c) & board_sq_bit[m.to]))
            return false; /* (a knight's or pawn's check has nothing between) */
    }
    int d = movegen_pin_dir(b, m.from);
    return d == BOARD_DIR_NONE || board_ray_dir[BOARD_DELTA(k, m.to)] == d;
}

/* The same, with the common answer inline (the test above, unabridged). */
static inline bool movegen_is_legal_known(const board_t *b, move_t m, bool in_check)
{
    /* Most moves, answered here: out of check, a man off every line
     * through its king cannot be pinned (the king itself sits on none). */
    if (!in_check && !(m.flags & (MOVE_EP | MOVE_CASTLE)) && !board_line_step(b->king[b->stm], m.from) &&
        m.from != b->king[b->stm])
        return true;
    return movegen_is_legal_known_full(b, m, in_check);
}

/* True if the side to move has a legal en passant capture on b->ep. */
bool movegen_ep_capture_legal(const board_t *b);

/* Number of leaf positions depth plies below b. */
uint64_t movegen_perft(const board_t *b, int depth);

#endif

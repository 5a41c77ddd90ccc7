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
 * unless it leaves the line of a pin, found with one ray walk, or leaves
 * the check (b->checker) standing. */
bool movegen_is_legal_known_full(const board_t *b, move_t m, bool in_check);
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
        if (m.to != c) {
            int dc = board_line_step(k, c);
            if (!dc || board_line_step(k, m.to) != dc || (m.to - k) / dc >= (c - k) / dc)
                return false;
        }
    }
    int d = board_line_step(k, m.from);
    if (!d)
        return true;
    bool diagonal = board_ray_kinds[BOARD_DELTA(k, m.from)] & (1 << BISHOP);
    uint8_t slider = PIECE(!b->stm, diagonal ? BISHOP : ROOK), queen = PIECE(!b->stm, QUEEN);
    if (!b->count[slider] && !b->count[queen])
        return true; /* nothing could pin along this line */
    for (int sq = k + d; sq != m.from; sq += d)
        if (b->sq[sq] != EMPTY)
            return true; /* another piece shields the king */
    for (int sq = m.from + d; !SQ_OFFBOARD(sq); sq += d) {
        if (b->sq[sq] == EMPTY)
            continue;
        if (b->sq[sq] != slider && b->sq[sq] != queen)
            return true;
        /* Pinned: it may only move along the pin line. */
        return board_line_step(k, m.to) == d;
    }
    return true;
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

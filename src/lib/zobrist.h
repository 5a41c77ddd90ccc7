/* zobrist.h: the position key used to recognise repetitions.
 *
 * Two positions are the same for FIDE 9.2.2 when the same side moves, the
 * same pieces stand on the same squares and the possible moves are the same.
 * So the key covers pieces, side to move, all 16 castling states (each a key
 * of its own) and the en passant file only when a capture is legal
 * (FIDE 9.2.3: a pinned or absent capturer leaves the positions equal). */
#ifndef ARB_ZOBRIST_H
#define ARB_ZOBRIST_H

#include <stdint.h>

#include "board.h"

/* Immutable tables; see zobrist.c for how they were drawn. */
extern const uint64_t zobrist_piece[16][128]; /* by piece code and 0x88 square */
extern const uint64_t zobrist_castle[16];     /* by castling mask; [0] == 0 */
extern const uint64_t zobrist_ep[8];          /* by file of a legal en passant square */
extern const uint64_t zobrist_black;          /* black to move */

/* The key of b computed from scratch (b->ep_legal decides the en passant part). */
uint64_t zobrist_compute(const board_t *b);

#endif

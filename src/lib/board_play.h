/* board_play.h: board_play() inline, for the replay's loop (rules_play()),
 * where a call saved and restored registers every move.  board.c holds the
 * rest of it: castling, en passant, promotion and null moves, and the steps
 * that change castling rights or settle an en passant capture. */
#ifndef ARB_BOARD_PLAY_H
#define ARB_BOARD_PLAY_H

#include "board.h"
#include "zobrist.h"

/* board_play()'s out-of-line parts, for board_play_inline() alone. */
void board_play_general(board_t *b, move_t m);
void board_play_ep(board_t *b);
void board_play_rights(board_t *b, int us, int f, int t, bool king);

/* Does the piece on `from` attack `to` on board b? */
static inline bool board_piece_attacks(const board_t *b, int from, int to)
{
    uint8_t pc = b->sq[from];
    int t = PIECE_TYPE(pc), d = to - from;
    if (t == PAWN)
        return PIECE_COLOR(pc) == WHITE ? (d == 15 || d == 17) : (d == -15 || d == -17);
    if (!(board_ray_kinds[BOARD_DELTA(from, to)] & (1 << t)))
        return false;
    return t == KNIGHT || t == KING || !(board_between(from, to) & b->occ);
}

/* The slider of colour `by` that attacks the king on ksq along the line
 * through the vacated square v (a discovered check), or -1; v < 0: none. */
static inline int board_discovered(const board_t *b, int ksq, int v, int by)
{
    if (v < 0)
        return -1;
    int d = board_ray_dir[BOARD_DELTA(ksq, v)];
    uint64_t sliders = board_ray_sliders(b, by, ksq, d);
    if (!sliders)
        return -1; /* no man of `by` on the line that moves along it (none at all off a line) */
    int first = board_first_on_ray(ksq, d, b->occ); /* a slider at the latest */
    return (sliders >> first) & 1 ? SQ88(first) : -1;
}

static inline ARB_ALWAYS_INLINE void board_play_inline(board_t *b, move_t m, board_undo_t *u)
{
    u->key = b->key;
    memcpy(u->state, (unsigned char *)b + BOARD_STATE_FIRST, BOARD_STATE_SIZE);
    if ((m.flags & (MOVE_CASTLE | MOVE_EP | MOVE_NULL)) || m.promo) {
        u->victim = (m.flags & (MOVE_NULL | MOVE_CASTLE | MOVE_EP)) ? EMPTY : b->sq[m.to];
        board_play_general(b, m);
        return;
    }
    /* One man moves from f to t, taking whatever stands there: the plain
     * case of board_make_move(), with every field read before it changes. */
    int us = b->stm, them = !us, f = m.from, t = m.to;
    uint8_t pc = b->sq[f], victim = b->sq[t];
    u->victim = victim;
    uint64_t key = b->key ^ zobrist_black ^ zobrist_piece[pc][f] ^ zobrist_piece[pc][t];
    if (b->ep_legal)
        key ^= zobrist_ep[SQ_FILE(b->ep)];
    b->sq[f] = EMPTY;
    b->sq[t] = pc;
    uint64_t fbit = board_sq_bit[f], tbit = board_sq_bit[t];
    b->men[MEN_INDEX(pc)] ^= fbit | tbit;
    b->occ = (b->occ ^ fbit) | tbit;
    unsigned halfmove = b->halfmove + (b->halfmove != UINT16_MAX);
    if (victim != EMPTY) {
        key ^= zobrist_piece[victim][t];
        b->count[victim]--;
        b->men[MEN_INDEX(victim)] ^= tbit;
        halfmove = 0;
    }
    b->ep = SQ_NONE;
    b->ep_legal = false;
    if (PIECE_TYPE(pc) == PAWN) {
        halfmove = 0;
        if (m.flags & MOVE_DOUBLE)
            b->ep = (uint8_t)((f + t) / 2);
    } else if (PIECE_TYPE(pc) == KING) {
        b->king[us] = (uint8_t)t;
    }
    b->halfmove = (uint16_t)halfmove;
    /* Check from the man on t, or uncovered through f (by another man: a
     * slider found there on t is the man on t, which gives check itself). */
    int ksq = b->king[them], checker = SQ_NONE;
    bool check = board_piece_attacks(b, t, ksq);
    if (check)
        checker = t;
    int c2 = board_discovered(b, ksq, f, us);
    if (c2 >= 0 && c2 != t) {
        checker = check ? SQ_NONE : c2;
        check = true;
    }
    b->in_check = check;
    b->checker = (uint8_t)checker;
    b->stm = (uint8_t)them;
    b->fullmove = (uint16_t)(b->fullmove + us); /* after Black's move */
    b->key = key;
    /* The last steps, each a tail call (a double step changes no right):
     * a right's rook stands on castle_rook as long as the right lasts, so
     * only a king move, a rook move or a rook's capture can end one (one
     * test of both kinds; no king is ever taken). */
    if (b->castle && ((1 << PIECE_TYPE(pc) | 1 << PIECE_TYPE(victim)) & (1 << KING | 1 << ROOK)))
        board_play_rights(b, us, f, t, PIECE_TYPE(pc) == KING);
    else if (b->ep != SQ_NONE)
        board_play_ep(b);
}

#endif

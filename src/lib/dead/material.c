/* material.c: what material alone proves (stage 1).
 *
 * A side whose pieces could never mate, whatever the opponent lends as
 * blockers, cannot win: dead_quick() answers that from the board's piece
 * counts, without a search handle, and dead_material_cannot_win_bb() from
 * a dpos_t's square sets, for the stages to drop positions where the
 * winner's last mating piece is gone. */
#include <stdbool.h>
#include <stdint.h>

#include "dead_internal.h"

/* True if `w` can never mate whatever the rest of the position, judged on
 * the pieces alone (python-chess has_insufficient_material, per side):
 *  - a lone king never mates;
 *  - a lone knight mates only with a blocker of the loser that cannot take
 *    it: a pawn (or what it promotes to), knight, bishop or rook; queens
 *    alone always reach the knight;
 *  - bishops all on one colour need blockers on the other colour: a pawn,
 *    a knight, or a bishop of the other colour.  Rooks and queens next to
 *    the king could always interpose on the checking diagonal or take the
 *    bishop, so they never help. */
bool dead_material_cannot_win_bb(const bb_t *W, const bb_t *L)
{
    if (W[PAWN] | W[ROOK] | W[QUEEN])
        return false;
    if (W[KNIGHT]) {
        if (W[BISHOP] || (W[KNIGHT] & (W[KNIGHT] - 1)))
            return false;
        return !(L[PAWN] | L[KNIGHT] | L[BISHOP] | L[ROOK]);
    }
    if (W[BISHOP]) {
        bool dark = (W[BISHOP] & DARK_BB) != 0, light = (W[BISHOP] & LIGHT_BB) != 0;
        if (dark && light)
            return false;
        return !(L[PAWN] | L[KNIGHT] | (L[BISHOP] & (dark ? LIGHT_BB : DARK_BB)));
    }
    return true;
}

enum dead_answer dead_quick(const board_t *b, int color)
{
    const uint8_t *c = b->count;
    int w = color, l = !color;
    if (c[PIECE(w, PAWN)] || c[PIECE(w, ROOK)] || c[PIECE(w, QUEEN)])
        return DEAD_UNDETERMINED;
    int knights = c[PIECE(w, KNIGHT)], bishops = c[PIECE(w, BISHOP)];
    if (knights) {
        if (bishops || knights > 1)
            return DEAD_UNDETERMINED;
        return (c[PIECE(l, PAWN)] || c[PIECE(l, KNIGHT)] || c[PIECE(l, BISHOP)] || c[PIECE(l, ROOK)])
                   ? DEAD_UNDETERMINED
                   : DEAD_UNWINNABLE;
    }
    if (bishops) {
        if (c[PIECE(l, PAWN)] || c[PIECE(l, KNIGHT)])
            return DEAD_UNDETERMINED;
        /* Square colours of the winner's bishops, and of the loser's. */
        int wcol = 0, lcol = 0;
        for (int sq = 0; sq < 128; sq++) {
            if (SQ_OFFBOARD(sq)) {
                sq += 7;
                continue;
            }
            uint8_t pc = b->sq[sq];
            if (PIECE_TYPE(pc) == BISHOP) {
                if (PIECE_COLOR(pc) == w)
                    wcol |= 1 << SQ_LIGHT(sq);
                else
                    lcol |= 1 << SQ_LIGHT(sq);
            }
        }
        if (wcol == 3 || (lcol & ~wcol))
            return DEAD_UNDETERMINED;
        return DEAD_UNWINNABLE;
    }
    return DEAD_UNWINNABLE;
}

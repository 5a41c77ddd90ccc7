/* probe.c: dead_probe(), the cheap proofs only.
 *
 * For a replay that asks at many plies: the position itself, forced lines
 * of a few plies (every series ends where the side cannot win), and the
 * semi-static pass where the pawns are locked.  No helpmate search: it
 * proves unwinnability or a mate already on the board, nothing else. */
#include <assert.h>
#include <stdbool.h>
#include <stdint.h>

#include "dead_internal.h"

/* The forced lines' budget. */
#define PROBE_DEPTH 9           /* plies of forced lines dead_probe() follows */
#define PROBE_NODES 2000UL

/* A quiet legal move of the side to move found without generating them
 * all (an unpinned piece or, if `pawns`, pawn to an empty square, or a king
 * step to an empty square not attacked), or false.  Only when not in check. */
static bool quiet_move(const tables_t *T, const dpos_t *p, bool pawns, dmove_t *out)
{
    const int us = p->stm, them = !us, k = p->ksq[us];
    const bb_t occ = p->occ;
    const bb_t *E = p->pc[them];
    bb_t pinned = 0;
    bb_t snipers = (rook_att(T, k, E[0]) & (E[ROOK] | E[QUEEN])) | (bishop_att(T, k, E[0]) & (E[BISHOP] | E[QUEEN]));
    while (snipers) {
        bb_t b = between(T, k, pop_lsb(&snipers)) & occ;
        if (b && !(b & (b - 1)))
            pinned |= b;
    }
    for (int type = KNIGHT; type <= QUEEN; type++) {
        for (bb_t pcs = p->pc[us][type] & ~pinned; pcs;) {
            int from = pop_lsb(&pcs);
            bb_t t = piece_att(T, type, us, from, occ) & ~occ;
            if (t) {
                *out = MV(from, lsb(t), 0, 0);
                return true;
            }
        }
    }
    bb_t movers = pawns ? p->pc[us][PAWN] & ~pinned : 0;
    bb_t pushes = (us == WHITE ? movers << 8 : movers >> 8) & ~occ & ~(RANK_1_BB | RANK_8_BB);
    if (pushes) {
        int to = lsb(pushes);
        *out = MV(us == WHITE ? to - 8 : to + 8, to, 0, 0);
        return true;
    }
    for (bb_t t = T->king[k] & ~occ; t;) {
        int to = pop_lsb(&t);
        if (!attackers(T, p, to, occ & ~BIT(k), them)) {
            *out = MV(k, to, 0, 0);
            return true;
        }
    }
    return false;
}

/* Is the step of the man of the side to move on `from` to the empty square
 * `to` (a piece's move or a king's step, no pawn) legal in p? */
static bool step_legal(const tables_t *T, const dpos_t *p, int from, int to)
{
    const int us = p->stm, pc = p->sq[from];
    if (pc == EMPTY || PIECE_COLOR(pc) != us || PIECE_TYPE(pc) == PAWN || p->sq[to] != EMPTY)
        return false;
    const int type = PIECE_TYPE(pc), k = type == KING ? to : p->ksq[us];
    if (!(piece_att(T, type, us, from, p->occ) & BIT(to)))
        return false;
    return !attackers(T, p, k, (p->occ & ~BIT(from)) | BIT(to), !us);
}

/* Can the side to move in frames[ply] (not in check) and then the other
 * side each step a man away and back, so that the position comes round
 * again?  Then there is a series of moves that never ends and never changes
 * the material, and no forced line of any depth ends the game there:
 * forced_unwinnable() is false, at a fraction of the cost of following its
 * line.  (Once round, castling rights and en passant chances may be gone,
 * but the same four steps are legal again: they depend on where the men
 * stand, nothing else.)  Uses frames[ply + 1 .. ply + 3]. */
static bool endless_line(dead_search_t *s, int ply)
{
    const tables_t *T = &s->T;
    dpos_t *p0 = &s->frames[ply].pos, *p1 = &s->frames[ply + 1].pos, *p2 = &s->frames[ply + 2].pos,
           *p3 = &s->frames[ply + 3].pos;
    dmove_t m1, m2;
    if (!quiet_move(T, p0, false, &m1))
        return false;
    dead_do_move(T, p0, m1, p1);
    if (in_check(T, p1) || !quiet_move(T, p1, false, &m2))
        return false;
    dead_do_move(T, p1, m2, p2);
    if (!step_legal(T, p2, MV_TO(m1), MV_FROM(m1)))
        return false;
    dead_do_move(T, p2, MV(MV_TO(m1), MV_FROM(m1), 0, 0), p3);
    return step_legal(T, p3, MV_TO(m2), MV_FROM(m2));
}

/* True if every series of at most `depth` plies from frames[ply] ends where
 * w cannot win: material, a stalemate, or w mated.  Gives up (false) at the
 * first line that gets through, trying a quiet move first, so an open
 * position costs about `depth` cheap steps. */
static bool forced_unwinnable(dead_search_t *s, int ply, int depth)
{
    const tables_t *T = &s->T;
    frame_t *fr = &s->frames[ply];
    const dpos_t *p = &fr->pos;
    const int w = s->winner;
    if (++s->nodes >= s->limit)
        return false;
    if (material_cannot_win(p, w))
        return true;
    bool check = in_check(T, p);
    if (depth == 0)
        return !dead_has_legal(T, p, fr->moves) && (p->stm == w || !check);
    /* A shuffle ends the search at once, where it would otherwise follow
     * a line down to the last ply (after a check, say). */
    if (!check && endless_line(s, ply))
        return false;
    dmove_t quiet;
    if (!check && quiet_move(T, p, true, &quiet)) {
        dead_do_move(T, p, quiet, &s->frames[ply + 1].pos);
        if (!forced_unwinnable(s, ply + 1, depth - 1))
            return false;
    }
    int n = dead_gen_legal(T, p, fr->moves);
    if (n == 0)
        return p->stm == w || !check;
    for (int i = 0; i < n; i++) {
        dead_do_move(T, p, fr->moves[i], &s->frames[ply + 1].pos);
        if (!forced_unwinnable(s, ply + 1, depth - 1))
            return false;
    }
    return true;
}

/* A rook or queen of w and a file without pawns: the semi-static pass
 * would not prove anything (the probe's shortcut, not a rule). */
static bool open_file_for_heavy(const dpos_t *p, int w)
{
    if (!(p->pc[w][ROOK] | p->pc[w][QUEEN]))
        return false;
    bb_t pawns = p->pc[WHITE][PAWN] | p->pc[BLACK][PAWN];
    for (int f = 0; f < 8; f++)
        if (!(pawns & (FILE_A_BB << f)))
            return true;
    return false;
}

enum dead_answer dead_probe(dead_search_t *s, const board_t *b, int color)
{
    assert(color == WHITE || color == BLACK);
    dead_prepare(s, false);
    const tables_t *T = &s->T;
    dpos_t *root = &s->frames[0].pos;
    s->winner = color;
    s->mate_len = 0;
    s->nodes = 1;
    s->stage = 1;
    dead_pos_from_board(T, b, root);
    if (!dead_has_legal(T, root, s->frames[0].moves))
        return in_check(T, root) && root->stm != color ? DEAD_WINNABLE : DEAD_UNWINNABLE;
    if (material_cannot_win(root, color))
        return DEAD_UNWINNABLE;
    s->stage = 2;
    s->limit = PROBE_NODES;
    if (forced_unwinnable(s, 0, PROBE_DEPTH))
        return DEAD_UNWINNABLE;
    s->stage = 4;
    if (dead_looks_blocked(root) && !open_file_for_heavy(root, color)) {
        enum dead_answer a = dead_semi_static(s, 0);
        if (a == DEAD_UNWINNABLE)
            return a;
    }
    s->stage = 0;
    return DEAD_UNDETERMINED;
}

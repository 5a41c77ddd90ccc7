/* position.c: the private bitboard position of the analysis, and its moves.
 *
 * Makes the attack tables, copies a board_t into a dpos_t, lists the legal
 * moves (the very set movegen_legal() lists, in an order of its own),
 * makes a move by copy, tells whether any move exists, and turns a move
 * back into the engine's move_t.  The engine's mailbox generator is exact
 * but too slow for searches of many thousand nodes; every line the
 * analysis returns is replayed through it by the tests. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dead_internal.h"

/* ------------------------------------------------------------------------
 * Attack tables. */

/* The eight directions of dead_internal.h, as steps of file and rank. */
static const int dir_file[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_rank[8] = {1, 1, 0, -1, -1, -1, 0, 1};

/* Every table but the knight distances (dead_tables_init_knight_dist()). */
void dead_tables_init(tables_t *T)
{
    static const int kn[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    memset(T, 0, sizeof *T);
    memset(T->dir, -1, sizeof T->dir);
    for (int s = 0; s < 64; s++) {
        int f = sq_file(s), r = sq_rank(s);
        for (int i = 0; i < 8; i++) {
            int nf = f + kn[i][0], nr = r + kn[i][1];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8)
                T->knight[s] |= BIT(nr * 8 + nf);
            nf = f + dir_file[i];
            nr = r + dir_rank[i];
            if (nf >= 0 && nf < 8 && nr >= 0 && nr < 8)
                T->king[s] |= BIT(nr * 8 + nf);
        }
        for (int d = 0; d < 8; d++) {
            for (int nf = f + dir_file[d], nr = r + dir_rank[d]; nf >= 0 && nf < 8 && nr >= 0 && nr < 8;
                 nf += dir_file[d], nr += dir_rank[d]) {
                T->ray[d][s] |= BIT(nr * 8 + nf);
                T->dir[s][nr * 8 + nf] = (int8_t)d;
            }
        }
        T->diag[s] = T->ray[D_NE][s] | T->ray[D_SE][s] | T->ray[D_SW][s] | T->ray[D_NW][s];
        T->orth[s] = T->ray[D_N][s] | T->ray[D_E][s] | T->ray[D_S][s] | T->ray[D_W][s];
        for (int c = 0; c < 2; c++) {
            int nr = r + (c == WHITE ? 1 : -1);
            if (nr < 0 || nr > 7)
                continue;
            if (f > 0)
                T->pawn[c][s] |= BIT(nr * 8 + f - 1);
            if (f < 7)
                T->pawn[c][s] |= BIT(nr * 8 + f + 1);
        }
    }
}

/* Knight distances by breadth-first search from every square: only the
 * searches need them, not dead_probe(). */
void dead_tables_init_knight_dist(tables_t *T)
{
    for (int s = 0; s < 64; s++) {
        bb_t seen = BIT(s), front = BIT(s);
        memset(T->knight_dist[s], 99, 64);
        T->knight_dist[s][s] = 0;
        for (int d = 1; front; d++) {
            bb_t next = 0;
            while (front) {
                int x = pop_lsb(&front);
                next |= T->knight[x];
            }
            next &= ~seen;
            seen |= next;
            for (bb_t t = next; t;)
                T->knight_dist[s][pop_lsb(&t)] = (uint8_t)d;
            front = next;
        }
    }
}

/* ------------------------------------------------------------------------
 * The position and its moves. */

/* From the board's square sets and key: the key differs only where an en
 * passant capture is possible but not legal (dpos_t counts the square then). */
void dead_pos_from_board(const tables_t *T, const board_t *b, dpos_t *p)
{
    memset(p->sq, EMPTY, sizeof p->sq);
    p->occ = 0;
    for (int c = WHITE; c <= BLACK; c++) {
        p->pc[c][0] = 0;
        for (int type = PAWN; type <= KING; type++) {
            uint8_t pc = PIECE(c, type);
            bb_t men = b->men[MEN_INDEX(pc)];
            p->pc[c][type] = men;
            p->pc[c][0] |= men;
            for (bb_t x = men; x; x &= x - 1)
                p->sq[lsb(x)] = pc;
        }
        p->occ |= p->pc[c][0];
    }
    p->ksq[WHITE] = (uint8_t)sq_from88(b->king[WHITE]);
    p->ksq[BLACK] = (uint8_t)sq_from88(b->king[BLACK]);
    p->stm = b->stm;
    p->castle = b->castle;
    for (int i = 0; i < 4; i++)
        p->crook[i] = (uint8_t)(b->castle_rook[i] == SQ_NONE ? NO_SQ : sq_from88(b->castle_rook[i]));
    p->ep = NO_SQ;
    p->key = b->key;
    if (b->ep_legal)
        p->key ^= zobrist_ep[SQ_FILE(b->ep)];
    if (b->ep != SQ_NONE) {
        int e = sq_from88(b->ep);
        if (T->pawn[!b->stm][e] & p->pc[b->stm][PAWN]) {
            p->ep = (uint8_t)e;
            p->key ^= zobrist_ep[sq_file(e)];
        }
    }
}

static inline int add_pawn_moves(dmove_t *out, int n, int from, int to, int flags, bool promo)
{
    if (promo) {
        for (int t = QUEEN; t >= KNIGHT; t--)
            out[n++] = MV(from, to, t, flags);
    } else {
        out[n++] = MV(from, to, 0, flags);
    }
    return n;
}

/* Squares from a to b on one rank, both included. */
static inline bb_t rank_span(int a, int b)
{
    int lo = a < b ? a : b, hi = a < b ? b : a;
    return (BIT(hi) - BIT(lo)) | BIT(hi);
}

/* Every legal move of the side to move, the same set movegen_legal() gives. */
int dead_gen_legal(const tables_t *T, const dpos_t *p, dmove_t *out)
{
    const int us = p->stm, them = !us, k = p->ksq[us];
    const bb_t own = p->pc[us][0], opp = p->pc[them][0], occ = p->occ;
    const bb_t *E = p->pc[them];
    int n = 0;
    bb_t checkers = attackers(T, p, k, occ, them);

    bb_t t = T->king[k] & ~own, occ_nok = occ & ~BIT(k);
    while (t) {
        int s = pop_lsb(&t);
        if (!attackers(T, p, s, occ_nok, them))
            out[n++] = MV(k, s, 0, (opp & BIT(s)) ? MOVE_CAPTURE : 0);
    }
    if (checkers & (checkers - 1))
        return n;
    bb_t mask = ~own;
    if (checkers)
        mask = checkers | between(T, k, lsb(checkers));

    bb_t pinned = 0;
    const bb_t diag = (E[BISHOP] | E[QUEEN]) & T->diag[k], orth = (E[ROOK] | E[QUEEN]) & T->orth[k];
    bb_t snipers = (orth ? rook_att(T, k, opp) & orth : 0) | (diag ? bishop_att(T, k, opp) & diag : 0);
    while (snipers) {
        int s = pop_lsb(&snipers);
        bb_t b = between(T, k, s) & occ;
        if (b && !(b & (b - 1)) && (b & own))
            pinned |= b;
    }

    for (int type = KNIGHT; type <= QUEEN; type++) {
        bb_t pcs = p->pc[us][type];
        while (pcs) {
            int s = pop_lsb(&pcs);
            bb_t a = piece_att(T, type, us, s, occ) & mask;
            if (pinned & BIT(s))
                a &= type == KNIGHT ? 0 : line_through(T, k, s);
            while (a) {
                int d = pop_lsb(&a);
                out[n++] = MV(s, d, 0, (opp & BIT(d)) ? MOVE_CAPTURE : 0);
            }
        }
    }

    const int up = us == WHITE ? 8 : -8;
    const int start_rank = us == WHITE ? 1 : 6, last_rank = us == WHITE ? 7 : 0;
    bb_t pawns = p->pc[us][PAWN];
    while (pawns) {
        int s = pop_lsb(&pawns);
        bb_t allow = mask;
        if (pinned & BIT(s))
            allow &= line_through(T, k, s);
        int f = s + up;
        if (!(occ & BIT(f))) {
            if (allow & BIT(f))
                n = add_pawn_moves(out, n, s, f, 0, sq_rank(f) == last_rank);
            if (sq_rank(s) == start_rank && !(occ & BIT(f + up)) && (allow & BIT(f + up)))
                out[n++] = MV(s, f + up, 0, MOVE_DOUBLE);
        }
        bb_t caps = T->pawn[us][s] & opp & allow;
        while (caps) {
            int d = pop_lsb(&caps);
            n = add_pawn_moves(out, n, s, d, MOVE_CAPTURE, sq_rank(d) == last_rank);
        }
    }
    if (p->ep != NO_SQ) {
        int e = p->ep, capsq = e - up;
        bb_t cand = T->pawn[them][e] & p->pc[us][PAWN];
        while (cand) {
            int s = pop_lsb(&cand);
            bb_t o = (occ & ~BIT(s) & ~BIT(capsq)) | BIT(e);
            if (!(attackers(T, p, k, o, them) & ~BIT(capsq)))
                out[n++] = MV(s, e, 0, MOVE_CAPTURE | MOVE_EP);
        }
    }

    /* Castling (also Chess960): the paths of king and rook empty but for
     * themselves, no square of the king's path attacked (movegen.c). */
    if (!checkers && (p->castle & (3 << (us * 2)))) {
        for (int q = 0; q < 2; q++) {
            int idx = CASTLE_INDEX(us, q);
            if (!(p->castle & (1 << idx)))
                continue;
            int r = p->crook[idx], rank = us == WHITE ? 0 : 7;
            int kto = rank * 8 + (q ? 2 : 6), rto = rank * 8 + (q ? 3 : 5);
            bb_t o = occ & ~BIT(k) & ~BIT(r);
            bb_t kpath = rank_span(k, kto);
            if ((kpath | rank_span(r, rto)) & o)
                continue;
            bool ok = true;
            while (kpath && ok) {
                if (attackers(T, p, pop_lsb(&kpath), o, them))
                    ok = false;
            }
            if (ok)
                out[n++] = MV(k, r, 0, MOVE_CASTLE);
        }
    }
    return n;
}

/* Copy-make: q = p after the legal move m. */
void dead_do_move(const tables_t *T, const dpos_t *p, dmove_t m, dpos_t *q)
{
    const int us = p->stm, them = !us, from = MV_FROM(m), to = MV_TO(m), fl = MV_FLAGS(m);
    *q = *p;
    if (p->ep != NO_SQ)
        q->key ^= zobrist_ep[sq_file(p->ep)];
    q->ep = NO_SQ;
    q->key ^= zobrist_castle[p->castle];
    if (fl & MOVE_CASTLE) {
        int rank = us == WHITE ? 0 : 7;
        bool qs = sq_file(to) < sq_file(from);
        int kto = rank * 8 + (qs ? 2 : 6), rto = rank * 8 + (qs ? 3 : 5);
        int king = p->sq[from], rook = p->sq[to];
        remove_piece(q, from);
        remove_piece(q, to);
        put_piece(q, kto, king);
        put_piece(q, rto, rook);
        q->ksq[us] = (uint8_t)kto;
        q->castle &= (uint8_t)~(3 << (us * 2));
    } else {
        int pc = p->sq[from];
        if (fl & MOVE_CAPTURE)
            remove_piece(q, (fl & MOVE_EP) ? to + (us == WHITE ? -8 : 8) : to);
        remove_piece(q, from);
        put_piece(q, to, MV_PROMO(m) ? PIECE(us, MV_PROMO(m)) : pc);
        if (PIECE_TYPE(pc) == KING) {
            q->ksq[us] = (uint8_t)to;
            q->castle &= (uint8_t)~(3 << (us * 2));
        }
        if (q->castle) {
            for (int i = 0; i < 4; i++)
                if ((q->castle & (1 << i)) && (p->crook[i] == from || p->crook[i] == to))
                    q->castle &= (uint8_t)~(1 << i);
        }
        if (fl & MOVE_DOUBLE) {
            int e = (from + to) / 2;
            if (T->pawn[us][e] & q->pc[them][PAWN])
                q->ep = (uint8_t)e;
        }
    }
    q->key ^= zobrist_castle[q->castle];
    if (q->ep != NO_SQ)
        q->key ^= zobrist_ep[sq_file(q->ep)];
    q->key ^= zobrist_black;
    q->stm = (uint8_t)them;
}

/* The key dead_do_move() gives q, without making q: the searches look a
 * child up in their tables before they pay for the copy, and most
 * children of a long search are there already. */
uint64_t dead_move_key(const tables_t *T, const dpos_t *p, dmove_t m)
{
    const int us = p->stm, them = !us, from = MV_FROM(m), to = MV_TO(m), fl = MV_FLAGS(m);
    const int pc = p->sq[from];
    uint64_t k = p->key ^ zobrist_black ^ zobrist_castle[p->castle];
    int castle = p->castle;
    if (p->ep != NO_SQ)
        k ^= zobrist_ep[sq_file(p->ep)];
    if (fl & MOVE_CASTLE) {
        int rank = us == WHITE ? 0 : 7;
        bool qs = sq_file(to) < sq_file(from);
        int kto = rank * 8 + (qs ? 2 : 6), rto = rank * 8 + (qs ? 3 : 5), rook = p->sq[to];
        k ^= zobrist_piece[pc][sq_to88(from)] ^ zobrist_piece[pc][sq_to88(kto)];
        k ^= zobrist_piece[rook][sq_to88(to)] ^ zobrist_piece[rook][sq_to88(rto)];
        castle &= ~(3 << (us * 2));
    } else {
        if (fl & MOVE_CAPTURE) {
            int cap = (fl & MOVE_EP) ? to + (us == WHITE ? -8 : 8) : to;
            k ^= zobrist_piece[p->sq[cap]][sq_to88(cap)];
        }
        k ^= zobrist_piece[pc][sq_to88(from)];
        k ^= zobrist_piece[MV_PROMO(m) ? PIECE(us, MV_PROMO(m)) : pc][sq_to88(to)];
        if (PIECE_TYPE(pc) == KING)
            castle &= ~(3 << (us * 2));
        if (castle) {
            for (int i = 0; i < 4; i++)
                if ((castle & (1 << i)) && (p->crook[i] == from || p->crook[i] == to))
                    castle &= ~(1 << i);
        }
        if (fl & MOVE_DOUBLE) {
            int e = (from + to) / 2;
            if (T->pawn[us][e] & p->pc[them][PAWN])
                k ^= zobrist_ep[sq_file(e)];
        }
    }
    return k ^ zobrist_castle[castle];
}

/* The engine's move_t of m: 0x88 squares, the same promotion and flags. */
move_t dead_to_move_t(dmove_t m)
{
    move_t out;
    out.from = (uint8_t)sq_to88(MV_FROM(m));
    out.to = (uint8_t)sq_to88(MV_TO(m));
    out.promo = (uint8_t)MV_PROMO(m);
    out.flags = (uint8_t)MV_FLAGS(m);
    return out;
}

/* True if the side to move has a legal move; cheaper than dead_gen_legal()
 * when the king or an unpinned piece can obviously move. */
bool dead_has_legal(const tables_t *T, const dpos_t *p, dmove_t *scratch)
{
    const int us = p->stm, them = !us, k = p->ksq[us];
    const bb_t own = p->pc[us][0], occ = p->occ;
    for (bb_t t = T->king[k] & ~own; t;)
        if (!attackers(T, p, pop_lsb(&t), occ & ~BIT(k), them))
            return true;
    if (!attackers(T, p, k, occ, them)) {
        const bb_t *E = p->pc[them];
        bb_t pinned = 0;
        bb_t snipers = (rook_att(T, k, p->pc[them][0]) & (E[ROOK] | E[QUEEN])) |
                       (bishop_att(T, k, p->pc[them][0]) & (E[BISHOP] | E[QUEEN]));
        while (snipers) {
            bb_t b = between(T, k, pop_lsb(&snipers)) & occ;
            if (b && !(b & (b - 1)))
                pinned |= b;
        }
        for (int type = KNIGHT; type <= QUEEN; type++)
            for (bb_t pcs = p->pc[us][type] & ~pinned; pcs;)
                if (piece_att(T, type, us, pop_lsb(&pcs), occ) & ~own)
                    return true;
        bb_t pawns = p->pc[us][PAWN] & ~pinned;
        bb_t pushes = (us == WHITE ? pawns << 8 : pawns >> 8) & ~occ;
        if (pushes)
            return true;
    }
    return dead_gen_legal(T, p, scratch) > 0;
}

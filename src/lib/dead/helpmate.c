/* dead.c: can a side still checkmate?  Dead positions (FIDE 5.2.2) and
 * flag falls against a side that cannot mate (FIDE 6.9).
 *
 * The question is a helpmate: both sides cooperate.  dead_can_win() runs
 * stages from cheap to dear and stops at the first that decides (numbered
 * as dead_stats_t reports them, in the order they run):
 *
 *   1. the position itself: already mate, stalemate, or material that can
 *      never mate whatever the opponent lends as blockers;
 *   4. a semi-static pass: which pieces can never move (pawns locked by
 *      pawns), where every piece could ever stand, and whether a mate could
 *      ever be put together on a square the loser's king can reach; again
 *      with a king shut in on two squares, which the other king can never
 *      approach without stalemating it;
 *   7. the semi-static pass after each legal move (it stops at the first
 *      move it cannot prove, so it costs one pass where a mate is near);
 *   2. a local helpmate search: the mate happens around the loser's king
 *      where it stands, which suits positions full of pieces (with seven
 *      pieces or fewer, a short one that only finds short mates);
 *   3. a corner helpmate search: the loser's king walks into a corner, the
 *      winner's pieces follow, which suits endgames;
 *   5. the corner search by iterative deepening, within half the budget
 *      (in pawn endings a deepening in pawn mode goes first, within a
 *      fifth: pawn moves and offers to the winner's pawns are free);
 *   6. a breadth-first exhaustion of every reachable position, dropping
 *      those the semi-static pass proves, within the rest (with locked
 *      pawns, where few positions are reachable, the exhaustion goes first
 *      with a fifth of the budget, then the deepening towards the corner on
 *      the loser's side, the best-first search, and the deepening towards
 *      the corner on the winner's side);
 *   8. a best-first search, ordered by an estimate of the plies to a mate
 *      (in pawn endings by the steps of a plan: the loser's king takes a
 *      pawn, the loser promotes, a winner's pawn takes the new piece to
 *      change files and promotes), with what the exhaustion left: the
 *      helpmates of 40 plies and more that the depth limits miss.
 * The searches of stages 2, 3, 5 and 8 prove unwinnability too when they
 * end without cutting anything off: they have then seen every position
 * that can arise.  dead_probe() runs only stage 1, forced lines and stage 4.
 *
 * Everything runs on a private bitboard copy of the position: the engine's
 * mailbox generator is exact but too slow for searches of many thousand
 * nodes.  Lines leave as move_t exactly as movegen_legal() lists them, and
 * the tests replay them through the engine.
 *
 * Written for pgn-arbiter from the outline of M. Ambrona, "A Practical
 * Algorithm for Chess Unwinnability", FUN 2022 (LIPIcs 226): the corner
 * search's rewards and punishments, and the idea of a semi-static pass
 * followed by an exhaustive search, come from there. */
#include "dead.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "zobrist.h"

/* ------------------------------------------------------------------------
 * Bitboards: bit s is square s = rank * 8 + file (a1 = 0, h8 = 63). */

typedef uint64_t bb_t;

#define BIT(s) ((bb_t)1 << (s))
#define NO_SQ 64
#define FILE_A_BB 0x0101010101010101ULL
#define RANK_1_BB 0x00000000000000FFULL
#define RANK_8_BB 0xFF00000000000000ULL
#define DARK_BB BOARD_DARK_SQUARES
#define LIGHT_BB (~DARK_BB)
#define ALL_BB (~(bb_t)0)

static inline int popcnt(bb_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* Index of the lowest and of the highest set bit (x != 0): board.h's, one
 * instruction each where the compiler has one. */
static inline int lsb(bb_t x) { return board_lsb(x); }
static inline int msb(bb_t x) { return board_msb(x); }

static inline int pop_lsb(bb_t *x)
{
    int s = lsb(*x);
    *x &= *x - 1;
    return s;
}

static inline int sq_file(int s) { return s & 7; }
static inline int sq_rank(int s) { return s >> 3; }
static inline int sq_to88(int s) { return (s >> 3) * 16 + (s & 7); }
static inline int sq_from88(int s) { return (s >> 4) * 8 + (s & 7); }
static inline int iabs(int x) { return x < 0 ? -x : x; }
static inline int king_dist(int a, int b)
{
    int df = iabs(sq_file(a) - sq_file(b)), dr = iabs(sq_rank(a) - sq_rank(b));
    return df > dr ? df : dr;
}

/* Directions; N, NE, E and NW go up the bit order. */
enum { D_N, D_NE, D_E, D_SE, D_S, D_SW, D_W, D_NW };
static const int dir_file[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int dir_rank[8] = {1, 1, 0, -1, -1, -1, 0, 1};
#define DIR_UP(d) ((d) <= D_E || (d) == D_NW)

/* Attack tables, built once per search handle (immutable afterwards). */
typedef struct tables {
    bb_t knight[64], king[64];
    bb_t pawn[2][64];   /* squares a pawn of colour c on s attacks */
    bb_t ray[8][64];    /* squares from s in direction d to the edge, s excluded */
    int8_t dir[64][64]; /* direction from a to b, -1 if not on one line */
    uint8_t knight_dist[64][64];
} tables_t;

static void tables_init(tables_t *T)
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
static void tables_init_knight_dist(tables_t *T)
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

static inline bb_t ray_attacks(const tables_t *T, int d, int s, bb_t occ)
{
    bb_t a = T->ray[d][s], blk = a & occ;
    if (blk)
        a ^= T->ray[d][DIR_UP(d) ? lsb(blk) : msb(blk)];
    return a;
}

static inline bb_t bishop_att(const tables_t *T, int s, bb_t occ)
{
    return ray_attacks(T, D_NE, s, occ) | ray_attacks(T, D_SE, s, occ) | ray_attacks(T, D_SW, s, occ) |
           ray_attacks(T, D_NW, s, occ);
}

static inline bb_t rook_att(const tables_t *T, int s, bb_t occ)
{
    return ray_attacks(T, D_N, s, occ) | ray_attacks(T, D_E, s, occ) | ray_attacks(T, D_S, s, occ) |
           ray_attacks(T, D_W, s, occ);
}

/* Squares strictly between a and b (on one line). */
static inline bb_t between(const tables_t *T, int a, int b)
{
    int d = T->dir[a][b];
    if (d < 0)
        return 0;
    return T->ray[d][a] & ~T->ray[d][b] & ~BIT(b);
}

/* The whole line through a and b (on one line), both included. */
static inline bb_t line_through(const tables_t *T, int a, int b)
{
    int d = T->dir[a][b];
    return T->ray[d][a] | T->ray[(d + 4) & 7][a] | BIT(a);
}

/* Attacks of a piece of type t and colour c on s, given the occupancy. */
static bb_t piece_att(const tables_t *T, int type, int c, int s, bb_t occ)
{
    switch (type) {
    case PAWN: return T->pawn[c][s];
    case KNIGHT: return T->knight[s];
    case BISHOP: return bishop_att(T, s, occ);
    case ROOK: return rook_att(T, s, occ);
    case QUEEN: return bishop_att(T, s, occ) | rook_att(T, s, occ);
    default: return T->king[s];
    }
}

/* Squares one step from the squares of b: diagonally, orthogonally, by a
 * knight's jump.  Slider reach in the semi-static pass is a closure of
 * single steps (a slider may stop on every square its line passes). */
#define NOT_A_BB (~FILE_A_BB)
#define NOT_H_BB (~(FILE_A_BB << 7))
#define NOT_AB_BB (~(FILE_A_BB | FILE_A_BB << 1))
#define NOT_GH_BB (~(FILE_A_BB << 6 | FILE_A_BB << 7))

/* Squares the pawns of colour c attack. */
static inline bb_t pawn_takes(bb_t pawns, int c)
{
    if (c == WHITE)
        return ((pawns & NOT_A_BB) << 7) | ((pawns & NOT_H_BB) << 9);
    return ((pawns & NOT_A_BB) >> 9) | ((pawns & NOT_H_BB) >> 7);
}

/* Files ahead of a pawn of colour c on s, s excluded. */
static inline bb_t file_ahead(int c, int s)
{
    return (FILE_A_BB << sq_file(s)) & (c == WHITE ? ALL_BB << s << 1 : BIT(s) - 1);
}

static inline bb_t step_diag(bb_t b)
{
    return ((b & NOT_H_BB) << 9) | ((b & NOT_A_BB) << 7) | ((b & NOT_H_BB) >> 7) | ((b & NOT_A_BB) >> 9);
}

static inline bb_t step_orth(bb_t b)
{
    return (b << 8) | (b >> 8) | ((b & NOT_H_BB) << 1) | ((b & NOT_A_BB) >> 1);
}

static inline bb_t step_knight(bb_t b)
{
    bb_t l1 = (b & NOT_A_BB) >> 1, l2 = (b & NOT_AB_BB) >> 2;
    bb_t r1 = (b & NOT_H_BB) << 1, r2 = (b & NOT_GH_BB) << 2;
    bb_t h1 = l1 | r1, h2 = l2 | r2;
    return (h1 << 16) | (h1 >> 16) | (h2 << 8) | (h2 >> 8);
}

/* ------------------------------------------------------------------------
 * The private position and its moves. */

typedef struct dpos {
    bb_t pc[2][7];      /* by colour and type; [c][0] = every piece of c */
    bb_t occ;
    uint64_t key;       /* Zobrist key (zobrist.h tables), en passant whenever ep is set */
    uint8_t sq[64];     /* piece code (board.h PIECE) or EMPTY */
    uint8_t ksq[2];
    uint8_t stm;
    uint8_t ep;         /* square a pawn may capture en passant, NO_SQ if none */
    uint8_t castle;     /* CASTLE_* bits */
    uint8_t crook[4];   /* rook square per right (CASTLE_INDEX) */
} dpos_t;

/* A move: from | to << 6 | promo << 12 | MOVE_* flags << 16.  Castling is
 * king takes own rook, as in board.h. */
typedef uint32_t dmove_t;
#define MV(from, to, promo, flags) ((dmove_t)(from) | ((dmove_t)(to) << 6) | ((dmove_t)(promo) << 12) | ((dmove_t)(flags) << 16))
#define MV_FROM(m) ((int)((m) & 63))
#define MV_TO(m) ((int)(((m) >> 6) & 63))
#define MV_PROMO(m) ((int)(((m) >> 12) & 7))
#define MV_FLAGS(m) ((int)((m) >> 16))

#define MAX_GEN 224 /* more than the 218 legal moves any position has */

static inline void put_piece(dpos_t *p, int s, int pc)
{
    bb_t b = BIT(s);
    p->sq[s] = (uint8_t)pc;
    p->pc[PIECE_COLOR(pc)][PIECE_TYPE(pc)] |= b;
    p->pc[PIECE_COLOR(pc)][0] |= b;
    p->occ |= b;
    p->key ^= zobrist_piece[pc][sq_to88(s)];
}

static inline void remove_piece(dpos_t *p, int s)
{
    int pc = p->sq[s];
    bb_t b = BIT(s);
    p->sq[s] = EMPTY;
    p->pc[PIECE_COLOR(pc)][PIECE_TYPE(pc)] &= ~b;
    p->pc[PIECE_COLOR(pc)][0] &= ~b;
    p->occ &= ~b;
    p->key ^= zobrist_piece[pc][sq_to88(s)];
}

/* From the board's square sets and key: the key differs only where an en
 * passant capture is possible but not legal (dpos_t counts the square then). */
static void dpos_from_board(const tables_t *T, const board_t *b, dpos_t *p)
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

/* Pieces of colour `by` attacking s, for the occupancy occ. */
static inline bb_t attackers(const tables_t *T, const dpos_t *p, int s, bb_t occ, int by)
{
    const bb_t *P = p->pc[by];
    return (T->pawn[!by][s] & P[PAWN]) | (T->knight[s] & P[KNIGHT]) | (T->king[s] & P[KING]) |
           (bishop_att(T, s, occ) & (P[BISHOP] | P[QUEEN])) | (rook_att(T, s, occ) & (P[ROOK] | P[QUEEN]));
}

static inline bool in_check(const tables_t *T, const dpos_t *p)
{
    return attackers(T, p, p->ksq[p->stm], p->occ, !p->stm) != 0;
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
static int gen_legal(const tables_t *T, const dpos_t *p, dmove_t *out)
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
    bb_t snipers = (rook_att(T, k, opp) & (E[ROOK] | E[QUEEN])) | (bishop_att(T, k, opp) & (E[BISHOP] | E[QUEEN]));
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
static void do_move(const tables_t *T, const dpos_t *p, dmove_t m, dpos_t *q)
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

static move_t to_move_t(dmove_t m)
{
    move_t out;
    out.from = (uint8_t)sq_to88(MV_FROM(m));
    out.to = (uint8_t)sq_to88(MV_TO(m));
    out.promo = (uint8_t)MV_PROMO(m);
    out.flags = (uint8_t)MV_FLAGS(m);
    return out;
}

/* ------------------------------------------------------------------------
 * Material. */

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
static bool material_cannot_win_bb(const bb_t *W, const bb_t *L)
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

static inline bool material_cannot_win(const dpos_t *p, int w)
{
    return material_cannot_win_bb(p->pc[w], p->pc[!w]);
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

/* ------------------------------------------------------------------------
 * Search state. */

#define MAX_PLY 512             /* longest line searched, plies */
#define DEFAULT_BUDGET 4000000UL /* nodes per dead_can_win() call, for --fen: a few seconds at worst */
#define LOCAL_DEPTH 3           /* local search: plies before rewards */
#define LOCAL_NODES 2000UL
#define QUICK_NODES 5000UL      /* corner search, two plies before rewards */
#define ITER_NODES 10000UL      /* iterative deepening, per iteration */
#define PAWN_ID_SHARE 20        /* pawn endings: the deepening in pawn mode first, to 20 per cent */
#define ID_SHARE 50             /* per cent of the budget: deepening, then exhaustion */
#define BLOCKED_BFS_SHARE 20    /* locked pawns: exhaustion up to 20 per cent, */
#define BLOCKED_ID_SHARE 50     /* deepening to 50, */
#define BLOCKED_BF_SHARE 80     /* best-first to 80, deepening to the other corner */
#define BF_MIN_NODES 20000UL    /* no best-first search with fewer nodes left (the replay's) */
#define ID_TT_START (4 * ITER_NODES) /* table entries the deepening starts with ... */
#define ID_TT_SWITCH (4 * ITER_NODES) /* ... until it has used this many nodes */
#define SPARSE_PIECES 7         /* at most this many pieces: a shorter local search, */
#define SPARSE_LOCAL_NODES 300UL /* for a short mate only */
#define PROBE_DEPTH 9           /* plies of forced lines dead_probe() follows */
#define PROBE_NODES 2000UL

typedef struct frame {
    dpos_t pos;
    dmove_t moves[MAX_GEN];
} frame_t;

/* A position visited with `depth` plies of search left, in generation gen. */
typedef struct tt_entry {
    uint64_t key;
    uint32_t gen;
    int32_t depth;
} tt_entry_t;

struct dead_search {
    tables_t T;
    bool tables_ready;       /* T is made but for knight_dist (prepare()) */
    bool dist_ready;         /* T.knight_dist is made too */
    tt_entry_t *tt;          /* made by prepare() at the first dead_can_win() call */
    size_t tt_mask;          /* entries - 1; 4-entry buckets */
    size_t tt_used;          /* entries - 1 of the part in use: a search of a few thousand
                                nodes stays in cache instead of missing on every probe */
    uint32_t gen;            /* current generation; entries of others are empty */
    unsigned long budget;    /* nodes per dead_can_win call */
    unsigned long nodes;     /* visited in this call */
    unsigned long limit;     /* the running search stops at this count */
    bool interrupted;        /* the running search cut something off: no proof */
    bool use_tt;
    bool local;              /* local mode (classify_local), else corner mode */
    bool pawn_mode;          /* corner mode: pawn play first while the winner has no rook or queen */
    bool other_side;         /* corner mode: the corner on the winner's side of the board */
    int winner;              /* colour whose mate is sought */
    int root_lk;             /* the loser's king square at the start of the call */
    int max_depth;           /* plies of the current iteration, before rewards */
    int mate_len;
    int stage;
    frame_t *frames;         /* MAX_PLY + 1: position and moves per ply */
    dmove_t path[MAX_PLY];
    dmove_t mate[MAX_PLY];
    uint64_t ss_failed[256]; /* signatures (pawns and material) the semi-static pass could not
                                prove in this call; their positions are not tested again */
    struct bfs_node *queue;  /* the breadth-first stage's queue and its hash set of keys */
    uint64_t *seen;          /* (0 = free), allocated by the stage and freed after it */
    size_t queue_cap, seen_mask;
};

dead_search_t *dead_search_new(size_t node_budget)
{
    dead_search_t *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->budget = node_budget ? (unsigned long)node_budget : DEFAULT_BUDGET;
    size_t entries = 4096;
    while (entries < s->budget && entries < ((size_t)1 << 19))
        entries *= 2;
    s->frames = malloc((MAX_PLY + 1) * sizeof *s->frames);
    if (!s->frames) {
        dead_search_free(s);
        return NULL;
    }
    s->tt_mask = entries - 1;
    s->gen = 1;
    return s;
}

/* The tables and the transposition table are made at the first call that
 * needs them: a replay makes a handle per file and asks it nothing in most
 * files.  False if the table cannot be allocated. */
static bool prepare(dead_search_t *s, bool need_tt)
{
    if (!s->tables_ready) {
        tables_init(&s->T);
        s->tables_ready = true;
    }
    if (need_tt && !s->dist_ready) {
        tables_init_knight_dist(&s->T);
        s->dist_ready = true;
    }
    if (need_tt && !s->tt)
        s->tt = calloc(s->tt_mask + 1, sizeof *s->tt);
    return !need_tt || s->tt;
}

void dead_search_free(dead_search_t *s)
{
    if (!s)
        return;
    free(s->tt);
    free(s->frames);
    free(s->queue);
    free(s->seen);
    free(s);
}

void dead_last_stats(const dead_search_t *s, dead_stats_t *out)
{
    out->nodes = s->nodes;
    out->stage = s->stage;
}

/* Empties the table for a search of about `nodes` positions. */
static void tt_new_generation(dead_search_t *s, unsigned long nodes)
{
    size_t want = 4096;
    while (want < 2 * (size_t)nodes && want <= s->tt_mask)
        want *= 2;
    s->tt_used = (want <= s->tt_mask ? want : s->tt_mask + 1) - 1;
    if (++s->gen == 0) {
        memset(s->tt, 0, (s->tt_mask + 1) * sizeof *s->tt);
        s->gen = 1;
    }
}

/* The entry of key in this generation (*found), or the one to overwrite. */
static tt_entry_t *tt_probe(dead_search_t *s, uint64_t key, bool *found)
{
    tt_entry_t *b = &s->tt[key & s->tt_used & ~(size_t)3], *victim = NULL;
    for (int i = 0; i < 4; i++) {
        if (b[i].gen == s->gen && b[i].key == key) {
            *found = true;
            return &b[i];
        }
    }
    *found = false;
    for (int i = 0; i < 4; i++) {
        if (b[i].gen != s->gen)
            return &b[i];
        if (!victim || b[i].depth < victim->depth)
            victim = &b[i];
    }
    return victim;
}

/* ------------------------------------------------------------------------
 * The helpmate search. */

/* How a move is searched: rewarded plies are free, punished ones cost 3,
 * normal ones 1 (free right after a rewarded one); checks of the local mode
 * are rewarded and tried first. */
enum { V_NORMAL, V_REWARD, V_PUNISH, V_CHECK };

/* Can only a promotion of the loser give the winner a blocker to mate
 * against?  True when the winner has a lone knight and the loser no minor
 * piece or rook, or the winner only bishops of one colour and there is no
 * knight of the loser nor any bishop of the other colour. */
static bool need_loser_promotion(const dpos_t *p, int w)
{
    const bb_t *W = p->pc[w], *L = p->pc[!w];
    if (W[KNIGHT] && popcnt(W[0]) == 2 && !(L[KNIGHT] | L[BISHOP] | L[ROOK]))
        return true;
    if (W[BISHOP] && popcnt(W[0]) == popcnt(W[BISHOP]) + 1) {
        bb_t colour = (W[BISHOP] & DARK_BB) ? DARK_BB : LIGHT_BB;
        if (!((p->pc[WHITE][BISHOP] | p->pc[BLACK][BISHOP]) & ~colour) && !L[KNIGHT])
            return true;
    }
    return false;
}

/* The corner the search aims at: on the loser's side (the winner's last
 * rank), dark when the winner has a dark bishop (or no bishop while the
 * loser has a light one), else light.  Without any bishop the colour is
 * free: the corner nearest the loser's king at the start of the call (lk),
 * the loser's side first on a tie.  other_side: the corner of the same
 * colour on the other side. */
static int mate_corner(const dpos_t *p, int w, int lk, bool other_side)
{
    int c;
    if (!(p->pc[WHITE][BISHOP] | p->pc[BLACK][BISHOP])) {
        static const int corners[4] = {63, 56, 7, 0}; /* h8 a8 h1 a1 */
        int first = w == WHITE ? 0 : 2;
        c = corners[first];
        for (int i = 0; i < 4; i++) {
            int k = corners[(first + i) & 3];
            if (king_dist(lk, k) < king_dist(lk, c))
                c = k;
        }
    } else {
        bool dark = (p->pc[w][BISHOP] & DARK_BB) || (!p->pc[w][BISHOP] && (p->pc[!w][BISHOP] & LIGHT_BB));
        c = dark ? 63 : 56; /* h8 is dark, a8 light */
        if (w == BLACK)
            c ^= 63;        /* the first rank: h8 -> a1, a8 -> h1 */
    }
    return other_side ? c ^ 63 : c;
}

/* Where a piece should head for the mate in the corner c: the loser's king
 * goes into the corner, its other pieces next to it along the edge rank;
 * the winner's king two squares in front of it, its other pieces to the
 * corner. */
static int mate_target(int c, bool king, bool winners_turn)
{
    int dr = sq_rank(c) == 7 ? -8 : 8, df = sq_file(c) == 7 ? -1 : 1;
    if (winners_turn)
        return king ? c + 2 * dr : c;
    return king ? c : c + df;
}

static bool goes_to(const tables_t *T, dmove_t m, int target, int type, bool bishops)
{
    int from = MV_FROM(m), to = MV_TO(m);
    if (type == KING || (bishops && type == BISHOP))
        return king_dist(to, target) < king_dist(from, target);
    if (type == KNIGHT)
        return T->knight_dist[to][target] < T->knight_dist[from][target];
    return false;
}

/* True if the side to move has a legal move; cheaper than gen_legal() when
 * the king or an unpinned piece can obviously move. */
static bool has_legal(const tables_t *T, const dpos_t *p, dmove_t *scratch)
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
    return gen_legal(T, p, scratch) > 0;
}

/* Corner mode: the pieces head for the mate pattern of mate_target(). */
static void classify_corner(const dead_search_t *s, const dpos_t *p, const dmove_t *moves, int n, uint8_t *var)
{
    const tables_t *T = &s->T;
    const int w = s->winner;
    const bool winners_turn = p->stm == w;
    const bool need_promo = !winners_turn && need_loser_promotion(p, w);
    const int corner = mate_corner(p, w, s->root_lk, s->other_side);
    const int king_target = mate_target(corner, true, winners_turn);
    const int piece_target = mate_target(corner, false, winners_turn);
    for (int i = 0; i < n; i++) {
        dmove_t m = moves[i];
        int from = MV_FROM(m), type = PIECE_TYPE(p->sq[from]);
        int target = type == KING ? king_target : piece_target;
        int v = V_NORMAL;
        if (winners_turn) {
            bool advanced = type == PAWN && (w == WHITE ? sq_rank(from) >= 4 : sq_rank(from) <= 3);
            if (advanced || (MV_FLAGS(m) & MOVE_CAPTURE) || goes_to(T, m, target, type, false))
                v = V_REWARD;
        } else {
            if (need_promo) {
                int promo = MV_PROMO(m);
                v = (type == PAWN && promo != QUEEN && promo != ROOK) ? V_REWARD : V_PUNISH;
            }
            if (goes_to(T, m, target, type, false))
                v = V_REWARD;
            else if (MV_FLAGS(m) & MOVE_CAPTURE)
                v = V_PUNISH;
            /* a loser with a queen has the means to block anywhere: no
             * reward, no punishment */
            if (p->pc[!w][QUEEN] || MV_PROMO(m) == QUEEN)
                v = V_NORMAL;
        }
        var[i] = (uint8_t)v;
    }
}

/* Local mode, for positions full of pieces: the mate happens where the
 * loser's king stands.  The winner's pieces (not the king) close in on it;
 * the loser's king stays, its pawns open lines, its other pieces crowd
 * around the king, and it takes nothing. */
static void classify_local(const dead_search_t *s, const dpos_t *p, const dmove_t *moves, int n, uint8_t *var)
{
    const tables_t *T = &s->T;
    const int w = s->winner, l = !w;
    const int lk = p->ksq[l];
    const bool winners_turn = p->stm == w;
    for (int i = 0; i < n; i++) {
        dmove_t m = moves[i];
        int from = MV_FROM(m), to = MV_TO(m), type = PIECE_TYPE(p->sq[from]);
        int v = V_NORMAL;
        if (winners_turn) {
            int t = MV_PROMO(m) ? MV_PROMO(m) : type;
            if (t != KING && (piece_att(T, t, w, to, (p->occ & ~BIT(from)) | BIT(to)) & BIT(lk)))
                v = V_CHECK;
            else if (type == KNIGHT ? T->knight_dist[to][lk] < T->knight_dist[from][lk]
                               : type != KING && king_dist(to, lk) < king_dist(from, lk))
                v = V_REWARD;
            else if (type == KING)
                v = V_PUNISH;
        } else {
            if ((MV_FLAGS(m) & MOVE_CAPTURE) || type == KING)
                v = V_PUNISH;
            else if (king_dist(to, lk) == 1 || type == PAWN)
                v = V_REWARD;
        }
        var[i] = (uint8_t)v;
    }
}

/* King distance from s to the nearest of the pawns (99 if none). */
static int pawn_dist(bb_t pawns, int s)
{
    int d = 99;
    while (pawns) {
        int k = king_dist(s, pop_lsb(&pawns));
        if (k < d)
            d = k;
    }
    return d;
}

/* Pawn mode, for pawn endings where the winner must promote: pawn moves of
 * both sides are rewarded (there are only so many), and so are the
 * winner's captures, the loser's pieces moving where a pawn of the winner
 * can take them (a capture is how a blocked pawn changes file) and the
 * loser's king going for the winner's pawns (taking one frees a file for
 * a pawn of the loser, whose promotion the winner's pawns can then take).
 * Once the winner has a rook or a queen the corner mode takes over. */
static void classify_pawns(const dead_search_t *s, const dpos_t *p, const dmove_t *moves, int n, uint8_t *var)
{
    const int w = s->winner;
    const bool winners_turn = p->stm == w;
    const bb_t wp = p->pc[w][PAWN], takes = pawn_takes(wp, w);
    for (int i = 0; i < n; i++) {
        dmove_t m = moves[i];
        int type = PIECE_TYPE(p->sq[MV_FROM(m)]);
        int v = V_NORMAL;
        if (type == PAWN)
            v = V_REWARD;
        else if (winners_turn ? (MV_FLAGS(m) & MOVE_CAPTURE) != 0 : type != KING && (takes & BIT(MV_TO(m))))
            v = V_REWARD;
        else if (!winners_turn && type == KING &&
                 ((MV_FLAGS(m) & MOVE_CAPTURE) || pawn_dist(wp, MV_TO(m)) < pawn_dist(wp, MV_FROM(m))))
            v = V_REWARD;
        var[i] = (uint8_t)v;
    }
}

/* Depth-first helpmate search below frames[ply].  Plies cost 1, rewarded
 * ones (progress towards the mate pattern) 0, punished ones 3; a normal ply
 * right after a rewarded one is free.  Rewarded moves are tried first.
 * Returns true on a mate (line in s->mate).  Sets s->interrupted when a
 * branch was cut by depth or nodes. */
static bool mate_dfs(dead_search_t *s, int ply, int depth, bool past_progress)
{
    frame_t *fr = &s->frames[ply];
    const dpos_t *p = &fr->pos;
    const tables_t *T = &s->T;
    const int w = s->winner, l = !w;

    if (++s->nodes >= s->limit) {
        s->interrupted = true;
        return false;
    }
    int left = s->max_depth - depth;
    tt_entry_t *e = NULL;
    if (s->use_tt) {
        bool found;
        e = tt_probe(s, p->key, &found);
        if (found && e->depth >= left)
            return false;
    }
    if (material_cannot_win(p, w))
        return false;
    if (depth >= s->max_depth || ply >= MAX_PLY - 1) {
        /* a leaf: only a mate or a position without moves is final; out
         * of check, moves or none, the answer is no mate here, and once
         * the search is cut off anyway whether there are moves is moot */
        if (s->interrupted && !in_check(T, p))
            return false;
        if (has_legal(T, p, fr->moves)) {
            s->interrupted = true;
            return false;
        }
        if (p->stm == l && in_check(T, p)) {
            s->mate_len = ply;
            memcpy(s->mate, s->path, (size_t)ply * sizeof *s->path);
            return true;
        }
        return false;
    }
    int n = gen_legal(T, p, fr->moves);
    if (n == 0) {
        if (p->stm == l && in_check(T, p)) {
            s->mate_len = ply;
            memcpy(s->mate, s->path, (size_t)ply * sizeof *s->path);
            return true;
        }
        return false;
    }
    if (e) {
        e->key = p->key;
        e->gen = s->gen;
        e->depth = left;
    }

    uint8_t var[MAX_GEN];
    if (s->local)
        classify_local(s, p, fr->moves, n, var);
    else if (s->pawn_mode && !(p->pc[w][ROOK] | p->pc[w][QUEEN]))
        classify_pawns(s, p, fr->moves, n, var);
    else
        classify_corner(s, p, fr->moves, n, var);
    dpos_t *q = &s->frames[ply + 1].pos;
    /* checks, rewarded, normal, punished moves, each in generation order */
    static const uint8_t rank_of[4] = {[V_CHECK] = 0, [V_REWARD] = 1, [V_NORMAL] = 2, [V_PUNISH] = 3};
    uint8_t order[MAX_GEN];
    int at[4] = {0, 0, 0, 0};
    for (int i = 0; i < n; i++)
        if (rank_of[var[i]] < 3)
            at[rank_of[var[i]] + 1]++;
    at[2] += at[1];
    at[3] += at[2];
    for (int i = 0; i < n; i++)
        order[at[rank_of[var[i]]]++] = (uint8_t)i;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        dmove_t m = fr->moves[i];
        bool reward = var[i] == V_REWARD || var[i] == V_CHECK;
        int nd = depth + 1;
        if (reward || (var[i] == V_NORMAL && past_progress))
            nd = depth;
        else if (var[i] == V_PUNISH)
            nd = depth + 3 < s->max_depth ? depth + 3 : s->max_depth;
        do_move(T, p, m, q);
        s->path[ply] = m;
        if (mate_dfs(s, ply + 1, nd, reward))
            return true;
        if (s->nodes >= s->limit)
            return false;
    }
    return false;
}

/* One helpmate search from frames[0] with the given depth, stopping after
 * `nodes` more nodes or at `until` in all. */
static bool run_search(dead_search_t *s, int max_depth, unsigned long nodes, unsigned long until, bool use_tt,
                       bool local)
{
    s->local = local;
    s->max_depth = max_depth;
    s->limit = s->nodes + nodes < until ? s->nodes + nodes : until;
    s->interrupted = false;
    s->use_tt = use_tt;
    return mate_dfs(s, 0, 0, false);
}

/* ------------------------------------------------------------------------
 * The semi-static pass.
 *
 * An over-approximation of the future, computed as a least fixpoint: for
 * every piece the set of squares it may ever stand on (reach), and whether
 * its square may ever become empty (clear: it moves or is taken).  A piece
 * that is not clear is fixed: it stands on its square in every reachable
 * position, so sliders never pass it, pawns never push into it, and what it
 * always attacks (all a pawn, knight or king attacks, the first square of
 * each line of a slider) the enemy king never enters.
 *
 * Starting from "nothing moves", moves are added while their conditions can
 * hold: a pawn pushes into a square no fixed piece holds, captures where an
 * enemy piece (not a king) may stand, or en passant past an enemy pawn
 * still on its first square (pawns never return there) or as the FEN
 * offers; a piece moves as on a board holding only the fixed pieces, never
 * onto an own fixed piece nor onto a king that never moves; a king never
 * onto a square a fixed enemy piece always attacks.  Two pawns of opposite
 * colours on one file, each never leaving it and the one ahead never taken,
 * never pass each other.  Entering the square of an enemy piece (not a
 * king) means it was taken or had left: it becomes clear.  A pawn that may
 * reach its last rank may become anything and go anywhere.
 *
 * Every condition only grows with reach and clear, so the iteration ends,
 * and by induction over any series of legal moves every position reached
 * keeps each piece inside its reach and each fixed piece on its square.
 * ss_unwinnable() then looks for a square of the loser king's reach where a
 * mate could ever be put together (ss_mate_possible). */

typedef struct ss {
    int n;
    uint8_t sq[32], color[32], type[32];
    bool promo[32];     /* may promote: reach is everything */
    bool clear[32];
    bb_t reach[32];
    bb_t last_allowed[32]; /* the input of a piece's last expansion */
    int8_t at[64];      /* piece index by its square now, -1 if empty */
} ss_t;

/* Returns false, leaving ss unfinished, as soon as a pawn of `hopeless`
 * (WHITE, BLACK, or -1 for none) may promote: the pass cannot prove that
 * side unwinnable then.  ban[c] (NULL: none) holds squares the king of c is
 * assumed never to stand on (ss_confined() says when that holds). */
static bool ss_saturate(const tables_t *T, const dpos_t *p, ss_t *ss, int hopeless, const bb_t *ban)
{
    memset(ss->at, -1, sizeof ss->at);
    ss->n = 0;
    for (bb_t o = p->occ; o;) {
        int s = pop_lsb(&o), i = ss->n++;
        ss->sq[i] = (uint8_t)s;
        ss->color[i] = (uint8_t)PIECE_COLOR(p->sq[s]);
        ss->type[i] = (uint8_t)PIECE_TYPE(p->sq[s]);
        ss->promo[i] = false;
        ss->clear[i] = false;
        ss->reach[i] = BIT(s);
        ss->last_allowed[i] = 0;
        ss->at[s] = (int8_t)i;
    }
    /* Castling takes king and rook to their squares in one move. */
    for (int idx = 0; idx < 4; idx++) {
        if (!(p->castle & (1 << idx)))
            continue;
        int c = idx / 2, q = idx % 2, rank = c == WHITE ? 0 : 7;
        int ki = ss->at[p->ksq[c]], ri = ss->at[p->crook[idx]];
        ss->reach[ki] |= BIT(rank * 8 + (q ? 2 : 6));
        ss->reach[ri] |= BIT(rank * 8 + (q ? 3 : 5));
    }
    const bb_t ep_rank[2] = {0x0000FF0000000000ULL /* rank 6 */, 0x0000000000FF0000ULL /* rank 3 */};
    bool changed = true;
    while (changed) {
        changed = false;
        bb_t fixed[2] = {0, 0}, guard[2] = {0, 0}, can_be[2] = {0, 0};
        bb_t hits[2] = {0, 0}; /* squares where a piece of the colour may take something */
        for (int i = 0; i < ss->n; i++) {
            int c = ss->color[i];
            if (ss->type[i] == PAWN && !ss->promo[i]) {
                for (bb_t x = ss->reach[i]; x;)
                    hits[c] |= T->pawn[c][pop_lsb(&x)];
            } else {
                hits[c] |= ss->reach[i];
            }
            if (!ss->clear[i]) {
                /* what a piece that never moves attacks whatever else moves:
                 * everything a pawn, knight or king attacks, the first
                 * square of each line of a slider */
                int x = ss->sq[i];
                fixed[c] |= BIT(x);
                switch (ss->type[i]) {
                case PAWN: guard[c] |= T->pawn[c][x]; break;
                case KNIGHT: guard[c] |= T->knight[x]; break;
                case BISHOP: guard[c] |= T->king[x] & bishop_att(T, x, ALL_BB); break;
                case ROOK: guard[c] |= T->king[x] & rook_att(T, x, ALL_BB); break;
                default: guard[c] |= T->king[x]; break;
                }
            }
            if (ss->type[i] != KING)
                can_be[c] |= ss->reach[i];
        }
        bb_t fixed_all = fixed[WHITE] | fixed[BLACK];
        for (int i = 0; i < ss->n; i++) {
            int c = ss->color[i], type = ss->type[i];
            bb_t r = ss->reach[i], nr = r, taken = 0;
            bb_t fixed_king = fixed[!c] & p->pc[!c][KING];
            if (ss->promo[i]) {
                /* anything, anywhere */
            } else if (type == PAWN) {
                bb_t push, dbl, caps = 0, ep_caps;
                if (c == WHITE) {
                    push = (r << 8) & ~fixed_all;
                    dbl = ((push & 0x0000000000FF0000ULL) << 8) & ~fixed_all;
                    ep_caps = (p->pc[BLACK][PAWN] & 0x00FF000000000000ULL) >> 8 & ~fixed_all;
                    ep_caps &= ~(fixed_all << 8);
                } else {
                    push = (r >> 8) & ~fixed_all;
                    dbl = ((push & 0x0000FF0000000000ULL) >> 8) & ~fixed_all;
                    ep_caps = (p->pc[WHITE][PAWN] & 0x000000000000FF00ULL) << 8 & ~fixed_all;
                    ep_caps &= ~(fixed_all >> 8);
                }
                /* Two pawns of opposite colours on one file, each never
                 * leaving it and the one ahead never taken, never pass each
                 * other: the pawn behind stays below the other's square. */
                bb_t file = FILE_A_BB << sq_file(ss->sq[i]), stop = 0;
                if (!(r & ~file)) {
                    for (bb_t x = p->pc[!c][PAWN] & file; x;) {
                        int j = ss->at[pop_lsb(&x)];
                        int rj = sq_rank(ss->sq[j]), ri = sq_rank(ss->sq[i]);
                        if ((c == WHITE ? rj <= ri : rj >= ri) || (ss->reach[j] & ~file) ||
                            (ss->reach[j] & hits[c]) || ss->promo[j])
                            continue;
                        bb_t beyond = c == WHITE ? ALL_BB << (rj * 8) : ALL_BB >> ((7 - rj) * 8);
                        stop |= beyond;
                    }
                }
                push &= ~stop;
                dbl &= ~stop;
                /* the pushes from there on, in this pass already */
                for (bb_t fresh = (push | dbl) & ~r; fresh;) {
                    fresh = (c == WHITE ? fresh << 8 : fresh >> 8) & ~fixed_all & ~stop & ~(r | push | dbl);
                    push |= fresh;
                }
                for (bb_t x = r; x;)
                    caps |= T->pawn[c][pop_lsb(&x)];
                /* en passant: past a pawn still on its first square
                 * (pawns never return there), or the capture the FEN offers */
                if (p->ep != NO_SQ && p->stm == c)
                    ep_caps |= BIT(p->ep);
                bb_t ep_hits = caps & ep_caps & ep_rank[c];
                caps &= (can_be[!c] | ep_hits) & ~fixed[c];
                nr |= push | dbl | caps;
                taken = caps & p->pc[!c][0];
                for (bb_t x = ep_hits; x;) {
                    int e = pop_lsb(&x);
                    taken |= BIT(c == WHITE ? e - 8 : e + 8) & p->pc[!c][PAWN];
                }
                if (nr & (c == WHITE ? RANK_8_BB : RANK_1_BB)) {
                    if (c == hopeless)
                        return false;
                    ss->promo[i] = true;
                    nr = ALL_BB;
                }
            } else {
                bb_t allowed = ~fixed[c] & ~fixed_king;
                if (type == KING)
                    allowed &= ~guard[!c] & (ban ? ~ban[c] : ALL_BB);
                /* the reach is closed under the moves of the last pass: only
                 * new freedom (fewer fixed pieces) can extend it */
                if (ss->last_allowed[i] == allowed)
                    continue;
                ss->last_allowed[i] = allowed;
                /* a line through squares no fixed piece holds is a series of
                 * steps the slider could stop after; standing on a fixed
                 * enemy piece it has taken, it may go on from there */
                for (bb_t fresh = r; fresh;) {
                    bb_t next = type == KNIGHT ? step_knight(fresh)
                              : type == BISHOP ? step_diag(fresh)
                              : type == ROOK   ? step_orth(fresh)
                                               : step_diag(fresh) | step_orth(fresh);
                    fresh = next & allowed & ~nr;
                    nr |= fresh;
                }
                taken = nr & p->pc[!c][0] & ~p->pc[!c][KING];
            }
            for (taken &= ~BIT(ss->sq[i]); taken;) {
                int j = ss->at[pop_lsb(&taken)];
                if (j >= 0 && !ss->clear[j]) {
                    ss->clear[j] = true;
                    changed = true;
                }
            }
            if (nr != r) {
                ss->reach[i] = nr;
                changed = true;
            }
            if (!ss->clear[i] && (nr & (nr - 1))) {
                ss->clear[i] = true;
                changed = true;
            }
        }
    }
    return true;
}

/* Could w ever mate on the square s?  A mate needs a piece of w (not the
 * king) attacking s, and every flight square t (a neighbour of s that the
 * loser's king could ever stand on; it could never move elsewhere) either
 * held by a loser piece or attacked by w (a piece of w standing on t must be
 * guarded, so that is an attack too).  Each piece stands on one square of
 * its reach: the options of a piece are the sets of these "jobs" it covers
 * from one square (attacks for w, its own square for the loser).  A subset
 * DP over the jobs (at most 9) decides whether one option per piece covers
 * them all.  Occupancy beyond the fixed pieces, pins, interpositions and
 * captures of the checker are ignored: the test only errs towards "yes". */
static bool ss_mate_possible(const tables_t *T, const ss_t *ss, int w, int s, bb_t region,
                             const bb_t *reach_att, bb_t (*att_from)[64])
{
    int jobsq[9], nj = 1;
    jobsq[0] = s;
    for (bb_t f = T->king[s] & region; f;)
        jobsq[nj++] = pop_lsb(&f);
    bb_t jobs = 0;
    for (int k = 0; k < nj; k++)
        jobs |= BIT(jobsq[k]);
    const unsigned full = (1u << nj) - 1;
    uint64_t have[8] = {1, 0, 0, 0, 0, 0, 0, 0}; /* masks reachable so far */

    for (int i = 0; i < ss->n; i++) {
        int c = ss->color[i], type = ss->type[i];
        uint64_t opt[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        if (c == w && type != KING) {
            if (!(reach_att[i] & jobs))
                continue;
            for (bb_t r = ss->reach[i]; r;) {
                bb_t a = att_from[i][pop_lsb(&r)] & jobs;
                if (!a)
                    continue;
                unsigned m = 0;
                for (int k = 0; k < nj; k++)
                    if (a & BIT(jobsq[k]))
                        m |= 1u << k;
                opt[m >> 6] |= (uint64_t)1 << (m & 63);
            }
        } else if (c == w) {
            /* w's king: never next to s; it attacks the flights next to it */
            for (bb_t r = ss->reach[i] & ~T->king[s] & ~BIT(s); r;) {
                bb_t a = T->king[pop_lsb(&r)] & jobs;
                if (!a)
                    continue;
                unsigned m = 0;
                for (int k = 1; k < nj; k++)
                    if (a & BIT(jobsq[k]))
                        m |= 1u << k;
                opt[m >> 6] |= (uint64_t)1 << (m & 63);
            }
        } else if (type != KING) {
            /* a loser piece holds at most one flight */
            for (int k = 1; k < nj; k++) {
                if (ss->reach[i] & BIT(jobsq[k])) {
                    unsigned m = 1u << k;
                    opt[m >> 6] |= (uint64_t)1 << (m & 63);
                }
            }
        }
        bool any = false;
        for (int k = 0; k < 8; k++)
            any |= opt[k] != 0;
        if (!any)
            continue;
        uint64_t next[8];
        memcpy(next, have, sizeof next);
        for (unsigned m = 0; m <= full; m++) {
            if (!(have[m >> 6] >> (m & 63) & 1))
                continue;
            for (int k = 0; k < 8; k++) {
                for (uint64_t o = opt[k]; o; o &= o - 1) {
                    unsigned c2 = (unsigned)(k * 64 + lsb(o)) | m;
                    next[c2 >> 6] |= (uint64_t)1 << (c2 & 63);
                }
            }
        }
        memcpy(have, next, sizeof have);
        if (have[full >> 6] >> (full & 63) & 1)
            return true;
    }
    return false;
}

/* True if the fixpoint proves that w can never mate: on no square the
 * loser's king could ever stand on could a mate be put together (above). */
static bool ss_unwinnable(const tables_t *T, const dpos_t *p, const ss_t *ss, int w)
{
    bb_t region = ss->reach[ss->at[p->ksq[!w]]];
    bb_t fixed_all = 0, checks = 0;
    bb_t reach_att[32];
    bb_t att_from[32][64]; /* attacks of piece i from square x of its reach */
    for (int i = 0; i < ss->n; i++)
        if (!ss->clear[i])
            fixed_all |= BIT(ss->sq[i]);
    for (int i = 0; i < ss->n; i++) {
        reach_att[i] = 0;
        if (ss->color[i] != w || ss->type[i] == KING)
            continue;
        for (bb_t r = ss->reach[i]; r;) {
            int x = pop_lsb(&r);
            bb_t a = ss->promo[i] ? bishop_att(T, x, fixed_all) | rook_att(T, x, fixed_all) | T->knight[x]
                                  : piece_att(T, ss->type[i], w, x, fixed_all);
            att_from[i][x] = a;
            reach_att[i] |= a;
        }
        checks |= reach_att[i];
    }
    for (checks &= region; checks;)
        if (ss_mate_possible(T, ss, w, pop_lsb(&checks), region, reach_att, att_from))
            return false;
    return true;
}

/* Could a move of o's king from a square of its reach off f to a square
 * of f uncover a check on a square of r?  The king would stand between a
 * slider of o (or a piece o promotes) and the square, on a line no fixed
 * piece blocks, and step off it. */
static bool ss_discovery_possible(const tables_t *T, const ss_t *ss, int o, int oksq, bb_t r, bb_t f)
{
    bb_t fixed_all = 0;
    for (int i = 0; i < ss->n; i++)
        if (!ss->clear[i])
            fixed_all |= BIT(ss->sq[i]);
    bb_t diag = 0, orth = 0; /* squares o's sliders may stand on, by line kind */
    for (int i = 0; i < ss->n; i++) {
        if (ss->color[i] != o)
            continue;
        int t = ss->type[i];
        if (ss->promo[i] || t == QUEEN)
            diag |= ss->reach[i], orth |= ss->reach[i];
        else if (t == BISHOP)
            diag |= ss->reach[i];
        else if (t == ROOK)
            orth |= ss->reach[i];
    }
    for (bb_t us = ss->reach[ss->at[oksq]] & ~f; us;) {
        int u = pop_lsb(&us);
        for (bb_t rs = r; rs;) {
            int x = pop_lsb(&rs), d = T->dir[x][u];
            if (d < 0 || king_dist(x, u) <= 1 || (between(T, x, u) & fixed_all))
                continue;
            if (!(T->king[u] & f & ~line_through(T, x, u)))
                continue;
            /* the ray beyond u up to the first fixed piece, that one included */
            bb_t beyond = T->ray[d][u], blk = beyond & fixed_all;
            if (blk)
                beyond &= ~T->ray[d][DIR_UP(d) ? lsb(blk) : msb(blk)];
            if (beyond & ((d & 1) ? diag : orth))
                return true;
        }
    }
    return false;
}

/* The semi-static pass for a side c whose king is confined to two squares
 * r = {x, y} and whose other men never move.  Whenever the other king
 * stands next to r but off it, c's king stands on the square of r that king
 * does not touch (kings never stand side by side) and cannot step to the
 * other: if c is to move it has no legal move at all, and the game is
 * over, mate only if c is in check.  That king arrived there by a move of
 * its own, so c is to move then: from a position where the other king is
 * not next to r, any series of moves that goes on keeps it away from there.
 * The pass runs with that ban (ss_saturate()'s ban); it holds if the
 * fixpoint confirms the hypothesis it rests on (c's king inside r, c's
 * other men on their squares).  A game that ends by the ban's move ends in
 * w's favour only if c is the loser and the king's step uncovers a check:
 * ss_discovery_possible() must rule that out.  No castling rights: castling
 * is a king move that moves a rook too.  True if w is proved unable to
 * mate. */
static bool ss_confined(const tables_t *T, const dpos_t *p, ss_t *ss, int w)
{
    if (p->castle)
        return false;
    for (int c = WHITE; c <= BLACK; c++) {
        const bb_t *C = p->pc[c];
        if (C[KNIGHT] | C[ROOK] | C[QUEEN])
            continue;
        /* c's pawns stand blocked now (else they would move) */
        bb_t pushes = c == WHITE ? C[PAWN] << 8 : C[PAWN] >> 8;
        if (pushes & ~p->occ)
            continue;
        const int o = !c, k = p->ksq[c];
        bb_t opawn_att = 0;
        for (bb_t x = p->pc[o][PAWN]; x;)
            opawn_att |= T->pawn[o][pop_lsb(&x)];
        bb_t ys = T->king[k] & ~C[0] & ~opawn_att & ~T->king[p->ksq[o]];
        if (popcnt(ys) > 2)
            continue;
        for (; ys;) {
            int y = pop_lsb(&ys);
            bb_t r = BIT(k) | BIT(y), f = (T->king[k] | T->king[y]) & ~r;
            if (BIT(p->ksq[o]) & f)
                continue;
            bb_t ban[2];
            ban[c] = 0;
            ban[o] = f;
            if (!ss_saturate(T, p, ss, w, ban))
                continue;
            bool holds = !(ss->reach[ss->at[k]] & ~r);
            for (int i = 0; i < ss->n && holds; i++)
                if (ss->color[i] == c && ss->type[i] != KING && (ss->promo[i] || (ss->reach[i] & (ss->reach[i] - 1))))
                    holds = false;
            if (!holds || (c != w && ss_discovery_possible(T, ss, o, p->ksq[o], r, f)))
                continue;
            if (ss_unwinnable(T, p, ss, w))
                return true;
        }
    }
    return false;
}

/* The semi-static pass's proof that w cannot mate in p: the plain pass,
 * then the confined king's (ss_confined()). */
static bool ss_proves(const tables_t *T, const dpos_t *p, int w)
{
    ss_t ss;
    if (ss_saturate(T, p, &ss, w, NULL) && ss_unwinnable(T, p, &ss, w))
        return true;
    return ss_confined(T, p, &ss, w);
}

/* Semi-static verdict for frames[ply] after playing out forced moves (a
 * single legal move) at most 100 times.  Returns DEAD_UNWINNABLE, or
 * DEAD_WINNABLE when the forced moves end in mate of the loser (the line is
 * then in s->mate, after the ply moves of s->path), else DEAD_UNDETERMINED. */
static enum dead_answer semi_static(dead_search_t *s, int ply)
{
    const tables_t *T = &s->T;
    const int w = s->winner;
    for (int forced = 0;; forced++) {
        frame_t *fr = &s->frames[ply];
        const dpos_t *p = &fr->pos;
        if (material_cannot_win(p, w))
            return DEAD_UNWINNABLE;
        s->nodes++;
        int n = gen_legal(T, p, fr->moves);
        if (n == 0) {
            if (p->stm != w && in_check(T, p)) {
                s->mate_len = ply;
                memcpy(s->mate, s->path, (size_t)ply * sizeof *s->path);
                return DEAD_WINNABLE;
            }
            return DEAD_UNWINNABLE;
        }
        if (n > 1 || forced >= 100 || ply >= MAX_PLY - 1)
            break;
        s->path[ply] = fr->moves[0];
        do_move(T, p, fr->moves[0], &s->frames[ply + 1].pos);
        ply++;
    }
    return ss_proves(T, &s->frames[ply].pos, w) ? DEAD_UNWINNABLE : DEAD_UNDETERMINED;
}

/* ------------------------------------------------------------------------
 * Breadth-first exhaustion.
 *
 * Every position reachable from the root, each expanded once, in a queue of
 * compact positions; a mate found is a shortest one.  Children reached by a
 * capture, a pawn move or a promotion are dropped when the semi-static pass
 * proves them unwinnable (nothing below them can mate).  When the queue
 * empties, no position reachable mates: a proof. */

typedef struct bfs_node {
    bb_t occ;
    uint8_t code[16];   /* piece codes of the occupied squares, 4 bits each, in square order */
    uint32_t parent;    /* queue index, UINT32_MAX for the root */
    dmove_t move;       /* from the parent */
    uint16_t ply;       /* distance from the root */
    uint8_t stm, castle, ep;
} bfs_node_t;           /* 40 bytes */

static void bfs_pack(const dpos_t *p, bfs_node_t *n)
{
    memset(n->code, 0, sizeof n->code);
    n->occ = p->occ;
    int k = 0;
    for (bb_t o = p->occ; o; k++) {
        int s = pop_lsb(&o);
        n->code[k >> 1] |= (uint8_t)(p->sq[s] << ((k & 1) * 4));
    }
    n->stm = p->stm;
    n->castle = p->castle;
    n->ep = p->ep;
}

/* crook comes from the root: rights only ever disappear. */
static void bfs_unpack(const bfs_node_t *n, const dpos_t *root, dpos_t *p)
{
    memset(p, 0, sizeof *p);
    int k = 0;
    for (bb_t o = n->occ; o; k++) {
        int s = pop_lsb(&o), pc = (n->code[k >> 1] >> ((k & 1) * 4)) & 15;
        put_piece(p, s, pc);
        if (PIECE_TYPE(pc) == KING)
            p->ksq[PIECE_COLOR(pc)] = (uint8_t)s;
    }
    p->stm = n->stm;
    p->castle = n->castle;
    p->ep = n->ep;
    memcpy(p->crook, root->crook, sizeof p->crook);
    p->key ^= zobrist_castle[p->castle];
    if (p->ep != NO_SQ)
        p->key ^= zobrist_ep[sq_file(p->ep)];
    if (p->stm == BLACK)
        p->key ^= zobrist_black;
}

/* The seen set's entry for a position's key (0 stands for free). */
static inline uint64_t seen_key(uint64_t key)
{
    return key ? key : 1;
}

/* The slot of k (a seen_key()) in the seen set: the one that holds it, or
 * the free one where it belongs.  The set holds only the root and the
 * positions put in the queue (queue_worth()), queue_cap + 1 at most, about
 * half the table (stage_room()): a probe always meets a free slot. */
static size_t seen_slot(const dead_search_t *s, uint64_t k)
{
    size_t i = (size_t)(k >> 7) & s->seen_mask;
    while (s->seen[i] != k && s->seen[i] != 0)
        i = (i + 1) & s->seen_mask;
    return i;
}

/* Pawns and material: positions that share them mostly share the verdict
 * of the semi-static pass.  Skipping the pass is always sound (the position
 * is searched instead), so a failure is remembered by signature. */
static uint64_t ss_signature(const dpos_t *p)
{
    uint64_t sig = (p->pc[WHITE][PAWN] * 0x9E3779B97F4A7C15ULL) ^ (p->pc[BLACK][PAWN] * 0xC2B2AE3D27D4EB4FULL);
    for (int c = 0; c < 2; c++)
        for (int t = KNIGHT; t <= QUEEN; t++)
            sig = (sig ^ (uint64_t)popcnt(p->pc[c][t])) * 0x100000001B3ULL;
    sig ^= (uint64_t)popcnt(p->pc[WHITE][BISHOP] & DARK_BB) << 56 ^ (uint64_t)popcnt(p->pc[BLACK][BISHOP] & DARK_BB) << 60;
    return sig | 1;
}

static bool ss_worth_trying(const dead_search_t *s, const dpos_t *p)
{
    uint64_t sig = ss_signature(p);
    return s->ss_failed[sig >> 56] != sig;
}

static void ss_note_failure(dead_search_t *s, const dpos_t *p)
{
    uint64_t sig = ss_signature(p);
    s->ss_failed[sig >> 56] = sig;
}

/* Starts a search over the queue: the root is queue[0], and seen. */
static void queue_start(dead_search_t *s, const dpos_t *root)
{
    memset(s->seen, 0, (s->seen_mask + 1) * sizeof *s->seen);
    bfs_pack(root, &s->queue[0]);
    s->queue[0].parent = UINT32_MAX;
    s->queue[0].ply = 0;
    uint64_t k = seen_key(root->key);
    s->seen[seen_slot(s, k)] = k;
}

/* Mate at queue[head]: its line, back through the parents, into s->mate. */
static enum dead_answer queue_mate(dead_search_t *s, size_t head)
{
    int len = s->queue[head].ply;
    s->mate_len = len;
    for (size_t i = head; s->queue[i].parent != UINT32_MAX; i = s->queue[i].parent)
        s->mate[--len] = s->queue[i].move;
    return DEAD_WINNABLE;
}

/* Is q, reached from p by m, worth a place in the queue: not seen before,
 * with mating material, and not proved unwinnable by a semi-static pass
 * (tried after a capture, a promotion, or a pawn move that ends in front
 * of an enemy pawn)?  If so, it is seen from now on.  A position found
 * unworthy is not kept: it is as unworthy when met again, and keeping it
 * could fill the set, which only the queue's limit bounds. */
static bool queue_worth(dead_search_t *s, const dpos_t *p, dmove_t m, const dpos_t *q)
{
    const int w = s->winner;
    uint64_t k = seen_key(q->key);
    size_t slot = seen_slot(s, k);
    if (s->seen[slot] == k || material_cannot_win(q, w))
        return false;
    int to = MV_TO(m);
    bool structure = (MV_FLAGS(m) & MOVE_CAPTURE) || MV_PROMO(m) ||
                     (PIECE_TYPE(p->sq[MV_FROM(m)]) == PAWN &&
                      (q->pc[!p->stm][PAWN] & BIT(p->stm == WHITE ? to + 8 : to - 8)));
    if (structure && ss_worth_trying(s, q)) {
        if (ss_proves(&s->T, q, w))
            return false;
        ss_note_failure(s, q);
    }
    s->seen[slot] = k;
    return true;
}

/* Opens queue[head] for both searches: its position into *p, its legal
 * moves into moves[].  Returns how many (0: none, and no mate by the
 * winner, so nothing to expand), or -1 when the search ends there with *a:
 * the winner has mated, or the node is too deep to expand. */
static inline int node_open(dead_search_t *s, size_t head, const dpos_t *root, dpos_t *p, dmove_t *moves,
                            enum dead_answer *a)
{
    const tables_t *T = &s->T;
    bfs_unpack(&s->queue[head], root, p);
    int n = gen_legal(T, p, moves);
    if (n == 0) {
        if (p->stm != s->winner && in_check(T, p)) {
            *a = queue_mate(s, head);
            return -1;
        }
        return 0;
    }
    if (s->queue[head].ply >= MAX_PLY - 1) {
        *a = DEAD_UNDETERMINED;
        return -1;
    }
    return n;
}

/* Puts q at queue[at], the child of queue[head] by m. */
static void queue_put(dead_search_t *s, size_t at, size_t head, dmove_t m, const dpos_t *q)
{
    bfs_node_t *child = &s->queue[at];
    bfs_pack(q, child);
    child->parent = (uint32_t)head;
    child->ply = (uint16_t)(s->queue[head].ply + 1);
    child->move = m;
}

static enum dead_answer bfs_search(dead_search_t *s, unsigned long until)
{
    const tables_t *T = &s->T;
    const dpos_t *root = &s->frames[0].pos;
    dpos_t p, q;
    dmove_t *moves = s->frames[1].moves;
    size_t head = 0, tail = 1;
    queue_start(s, root);
    for (; head < tail; head++) {
        if (s->nodes >= until)
            return DEAD_UNDETERMINED;
        s->nodes++;
        enum dead_answer a;
        int n = node_open(s, head, root, &p, moves, &a);
        if (n < 0)
            return a;
        for (int i = 0; i < n; i++) {
            do_move(T, &p, moves[i], &q);
            if (!queue_worth(s, &p, moves[i], &q))
                continue;
            if (tail == s->queue_cap)
                return DEAD_UNDETERMINED;
            queue_put(s, tail++, head, moves[i], &q);
        }
    }
    return DEAD_UNWINNABLE;
}

/* Room for as many positions as nodes are left before `until` (40 bytes
 * each, and at most 32 bytes of hash set), taken for a stage; its size, 0
 * if out of memory.  stage_room_free() gives it back. */
static size_t stage_room(dead_search_t *s, unsigned long until)
{
    size_t cap = until > s->nodes ? until - s->nodes : 0;
    if (cap < 4096)
        cap = 4096;
    size_t hs = 1;
    while (hs < 2 * cap)
        hs *= 2;
    s->queue = malloc(cap * sizeof *s->queue);
    s->seen = malloc(hs * sizeof *s->seen);
    if (!s->queue || !s->seen)
        return 0;
    s->queue_cap = cap;
    s->seen_mask = hs - 1;
    return cap;
}

static void stage_room_free(dead_search_t *s)
{
    free(s->queue);
    free(s->seen);
    s->queue = NULL;
    s->seen = NULL;
    s->queue_cap = 0;
}

/* The breadth-first stage, in a room of its own.  A budget spent already
 * by the stages before ends it at once: no room is taken for nothing. */
static enum dead_answer bfs_exhaust(dead_search_t *s, unsigned long until)
{
    if (s->nodes >= until)
        return DEAD_UNDETERMINED;
    enum dead_answer a = stage_room(s, until) ? bfs_search(s, until) : DEAD_UNDETERMINED;
    stage_room_free(s);
    return a;
}

/* Pawns and kings, and no rook or queen for the winner: the mate needs a
 * promotion, and the pawns' play decides. */
static bool pawn_race(const dpos_t *p, int w)
{
    const bb_t *W = p->pc[w];
    return W[PAWN] && !(W[ROOK] | W[QUEEN]) && popcnt(p->occ & ~(p->pc[WHITE][PAWN] | p->pc[BLACK][PAWN])) <= 3;
}

/* ------------------------------------------------------------------------
 * Best-first search.
 *
 * With both sides cooperating the helpmate is a path in a graph with a
 * single player, and a long plan (a pawn takes a piece the loser promoted
 * to change files, then promotes and mates; bishops walk around a locked
 * chain) is found far sooner by following an estimate of the distance to
 * a mate than by the depth limits of the searches above.  The queue and
 * the set of keys are the breadth-first stage's; a binary heap orders the
 * positions by estimate, and every child made counts as a node, so the
 * queue never outgrows the budget.  A queue that empties has seen every
 * reachable position, as in the breadth-first stage: a proof. */

/* Squares every piece of c attacks. */
static bb_t all_attacks(const tables_t *T, const dpos_t *p, int c)
{
    bb_t a = pawn_takes(p->pc[c][PAWN], c);
    for (int type = KNIGHT; type <= KING; type++)
        for (bb_t x = p->pc[c][type]; x;)
            a |= piece_att(T, type, c, pop_lsb(&x), p->occ);
    return a;
}

/* The mate itself, about in plies: the loser king's squares around it that
 * the winner does not cover (its own pieces may hem it in), a check, how
 * far the winner's pieces stand from it (a slider that reaches its squares
 * stands near), how far the loser's pieces stand from it (they are the
 * blockers of a helpmate), and, when the winner mates with bishops of one
 * colour only, whether the king stands on that colour. */
static int bf_mate_estimate(const tables_t *T, const dpos_t *p, int w)
{
    const int l = !w, lk = p->ksq[l];
    const bb_t att = all_attacks(T, p, w), zone = T->king[lk] | BIT(lk);
    int h = 4 * popcnt(T->king[lk] & ~p->pc[l][0] & ~att) + ((att & BIT(lk)) ? 0 : 2);
    for (bb_t x = p->pc[w][0] & ~p->pc[w][PAWN]; x;) {
        int sq = pop_lsb(&x), t = PIECE_TYPE(p->sq[sq]);
        if (t == KNIGHT)
            h += T->knight_dist[sq][lk];
        else if (t == KING)
            h += king_dist(sq, lk);
        else if (!(piece_att(T, t, w, sq, p->occ) & zone))
            h += t == BISHOP ? 2 : 1;
    }
    for (bb_t x = p->pc[l][0] & ~p->pc[l][PAWN] & ~p->pc[l][KING]; x;)
        h += 2 * (king_dist(pop_lsb(&x), lk) - 1);
    const bb_t wb = p->pc[w][BISHOP], pieces = p->pc[w][0] & ~p->pc[w][PAWN] & ~p->pc[w][KING];
    const bb_t colour = (wb & DARK_BB) ? DARK_BB : LIGHT_BB;
    if (wb && pieces == wb && !(wb & ~colour) && !(BIT(lk) & colour))
        h += 3;
    return h;
}

/* Pawn endings where the winner must promote, by the steps of the plan:
 * a winner's pawn with no enemy pawn ahead promotes (its distance, 0 to 7,
 * and two for each piece in its way); else a winner's pawn takes a piece to change files
 * (10 and the distance of the nearest loser piece to a square a winner's
 * pawn attacks); else a loser's pawn with no winner pawn ahead goes to
 * promote (20 and twice its distance); else the loser's king takes a
 * winner's pawn to free such a file (40 and its distance). */
static int bf_pawn_estimate(const dpos_t *p, int w)
{
    const int l = !w, lk = p->ksq[l];
    const bb_t wp = p->pc[w][PAWN], lp = p->pc[l][PAWN];
    int h = 99;
    for (bb_t x = wp; x;) {
        int sq = pop_lsb(&x);
        bb_t ahead = file_ahead(w, sq);
        if (ahead & lp)
            continue;
        int d = (w == WHITE ? 7 - sq_rank(sq) : sq_rank(sq)) + 2 * popcnt(ahead & p->occ);
        if (d < h)
            h = d;
    }
    if (h < 10)
        return h;
    const bb_t takes = pawn_takes(wp, w);
    bb_t prey = p->pc[l][0] & ~p->pc[l][KING];
    if (prey & takes)
        return 10;
    if (takes) {
        for (bb_t x = prey & ~lp; x;) {
            int sq = pop_lsb(&x), d = 99;
            for (bb_t t = takes; t;) {
                int k = king_dist(sq, pop_lsb(&t));
                if (k < d)
                    d = k;
            }
            if (10 + d < h)
                h = 10 + d;
        }
    }
    for (bb_t x = lp; x;) {
        int sq = pop_lsb(&x);
        if (file_ahead(l, sq) & wp)
            continue;
        int d = 20 + 2 * (l == WHITE ? 7 - sq_rank(sq) : sq_rank(sq));
        if (d < h)
            h = d;
    }
    if (h < 40)
        return h;
    return 40 + pawn_dist(wp, lk);
}

/* The estimate of a position, about in plies to the mate. */
static int bf_estimate(const tables_t *T, const dpos_t *p, int w, bool pawn_plan)
{
    if (pawn_plan && !(p->pc[w][ROOK] | p->pc[w][QUEEN]) && p->pc[w][PAWN])
        return 30 + bf_pawn_estimate(p, w);
    return bf_mate_estimate(T, p, w);
}

/* Heap entries: estimate weighted, plus the ply, above the queue index
 * (ties go to the older position, breadth-first). */
#define BF_WEIGHT 4

static void heap_push(uint64_t *h, size_t *n, uint64_t v)
{
    size_t i = (*n)++;
    while (i > 0 && h[(i - 1) / 2] > v) {
        h[i] = h[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h[i] = v;
}

static uint64_t heap_pop(uint64_t *h, size_t *n)
{
    uint64_t top = h[0], v = h[--*n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= *n)
            break;
        if (c + 1 < *n && h[c + 1] < h[c])
            c++;
        if (h[c] >= v)
            break;
        h[i] = h[c];
        i = c;
    }
    if (*n)
        h[i] = v;
    return top;
}

static enum dead_answer bf_search(dead_search_t *s, uint64_t *heap, unsigned long until)
{
    const tables_t *T = &s->T;
    const int w = s->winner;
    const dpos_t *root = &s->frames[0].pos;
    const bool pawn_plan = pawn_race(root, w);
    dpos_t p, q;
    dmove_t *moves = s->frames[1].moves;
    size_t tail = 1, hn = 0;
    queue_start(s, root);
    heap_push(heap, &hn, 0);
    while (hn) {
        size_t head = (size_t)(heap_pop(heap, &hn) & UINT32_MAX);
        enum dead_answer a;
        int n = node_open(s, head, root, &p, moves, &a);
        if (n < 0)
            return a;
        for (int i = 0; i < n; i++) {
            if (s->nodes >= until || tail == s->queue_cap)
                return DEAD_UNDETERMINED;
            s->nodes++;
            do_move(T, &p, moves[i], &q);
            if (!queue_worth(s, &p, moves[i], &q))
                continue;
            queue_put(s, tail, head, moves[i], &q);
            uint64_t f = (uint64_t)(BF_WEIGHT * bf_estimate(T, &q, w, pawn_plan) + s->queue[tail].ply);
            heap_push(heap, &hn, f << 32 | tail);
            tail++;
        }
    }
    return DEAD_UNWINNABLE;
}

/* The best-first stage, in a room of its own and a heap (8 bytes a
 * position). */
static enum dead_answer best_first(dead_search_t *s, unsigned long until)
{
    size_t cap = stage_room(s, until);
    uint64_t *heap = cap ? malloc(cap * sizeof *heap) : NULL;
    enum dead_answer a = heap ? bf_search(s, heap, until) : DEAD_UNDETERMINED;
    free(heap);
    stage_room_free(s);
    return a;
}

/* ------------------------------------------------------------------------
 * The stages. */

static bool looks_blocked(const dpos_t *p);

/* The corner search by iterative deepening (towards the corner on the
 * loser's side, or on the winner's side), until s->nodes reaches `until`. */
static enum dead_answer deepen(dead_search_t *s, bool other_side, bool pawn_mode, unsigned long until)
{
    unsigned long start = s->nodes;
    enum dead_answer a = DEAD_UNDETERMINED;
    s->other_side = other_side;
    s->pawn_mode = pawn_mode;
    tt_new_generation(s, ID_TT_START);
    for (int depth = 2; depth <= MAX_PLY && s->nodes < until; depth++) {
        /* the table keeps what earlier iterations saw; short searches use
         * a part of it that stays in the cache, long ones all of it */
        if (s->nodes - start > ID_TT_SWITCH && s->tt_used < s->tt_mask)
            tt_new_generation(s, s->budget);
        if (run_search(s, depth, ITER_NODES, until, true, false)) {
            a = DEAD_WINNABLE;
            break;
        }
        if (!s->interrupted) {
            a = DEAD_UNWINNABLE;
            break;
        }
    }
    s->other_side = false;
    s->pawn_mode = false;
    return a;
}

static enum dead_answer analyse(dead_search_t *s)
{
    const tables_t *T = &s->T;
    dpos_t *root = &s->frames[0].pos;
    const int w = s->winner;

    s->stage = 1;
    s->nodes = 1;
    int n = gen_legal(T, root, s->frames[0].moves);
    if (n == 0)
        return in_check(T, root) && root->stm != w ? DEAD_WINNABLE : DEAD_UNWINNABLE;
    if (material_cannot_win(root, w))
        return DEAD_UNWINNABLE;

    /* The semi-static pass, on the position and then after each legal
     * move: a few passes cost less than the searches, and in the replay's
     * question (a flag fall, Article 6.9) they are what proves. */
    s->stage = 4;
    enum dead_answer a = semi_static(s, 0);
    if (a != DEAD_UNDETERMINED)
        return a;
    s->stage = 7;
    for (int i = 0; i < n; i++) {
        s->path[0] = s->frames[0].moves[i];
        do_move(T, root, s->frames[0].moves[i], &s->frames[1].pos);
        a = semi_static(s, 1);
        if (a == DEAD_WINNABLE)
            return a;
        if (a != DEAD_UNWINNABLE)
            break;
        if (i == n - 1)
            return DEAD_UNWINNABLE;
    }

    /* A search that ends without cutting anything has seen every position
     * reachable (the table only skips positions already searched with as
     * many plies left): no mate is a proof.  With few pieces on the board
     * the mate is rarely where the loser's king stands: the local search
     * only looks for a short mate before the corner search. */
    bool sparse = popcnt(root->occ) <= SPARSE_PIECES;
    for (int k = 0; k < 2; k++) {
        bool local = k == 0;
        s->stage = local ? 2 : 3;
        unsigned long nodes = !local ? QUICK_NODES : sparse ? SPARSE_LOCAL_NODES : LOCAL_NODES;
        tt_new_generation(s, nodes);
        if (run_search(s, local ? LOCAL_DEPTH : 2, nodes, s->budget, true, local))
            return DEAD_WINNABLE;
        if (!s->interrupted)
            return DEAD_UNWINNABLE;
    }

    /* Locked pawns: the positions reachable are often few, so the
     * exhaustion goes first, then the deepening towards the corner on the
     * loser's side, the best-first search and the deepening towards the
     * other corner.  Otherwise the deepening is the better bet, the
     * exhaustion the fallback, and the best-first search, for long plans,
     * takes what the exhaustion left when its queue filled. */
    if (looks_blocked(root)) {
        s->stage = 6;
        a = bfs_exhaust(s, s->budget * BLOCKED_BFS_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        s->stage = 5;
        a = deepen(s, false, false, s->budget * BLOCKED_ID_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        if (s->budget * BLOCKED_BF_SHARE / 100 >= s->nodes + BF_MIN_NODES) {
            s->stage = 8;
            a = best_first(s, s->budget * BLOCKED_BF_SHARE / 100);
            if (a != DEAD_UNDETERMINED)
                return a;
            s->stage = 5;
        }
        a = deepen(s, true, false, s->budget);
        if (a != DEAD_UNDETERMINED)
            return a;
    } else {
        s->stage = 5;
        if (pawn_race(root, w)) {
            a = deepen(s, false, true, s->budget * PAWN_ID_SHARE / 100);
            if (a != DEAD_UNDETERMINED)
                return a;
        }
        a = deepen(s, false, false, s->budget * ID_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        s->stage = 6;
        a = bfs_exhaust(s, s->budget);
        if (a != DEAD_UNDETERMINED)
            return a;
        /* the exhaustion stops early when its queue fills */
        if (s->budget >= s->nodes + BF_MIN_NODES) {
            s->stage = 8;
            a = best_first(s, s->budget);
            if (a != DEAD_UNDETERMINED)
                return a;
        }
    }

    s->stage = 0;
    return DEAD_UNDETERMINED;
}

enum dead_answer dead_can_win(dead_search_t *s, const board_t *b, int color, move_t *line,
                              int line_cap, int *line_len)
{
    assert(color == WHITE || color == BLACK);
    if (line_len)
        *line_len = 0;
    if (!prepare(s, true))
        return DEAD_UNDETERMINED;
    s->winner = color;
    s->other_side = false;
    s->mate_len = 0;
    memset(s->ss_failed, 0, sizeof s->ss_failed);
    dpos_from_board(&s->T, b, &s->frames[0].pos);
    s->root_lk = s->frames[0].pos.ksq[!color];
    enum dead_answer a = analyse(s);
    if (a != DEAD_WINNABLE)
        s->mate_len = 0;
    for (int i = 0; i < s->mate_len && i < line_cap; i++)
        line[i] = to_move_t(s->mate[i]);
    if (line_len)
        *line_len = s->mate_len;
    return a;
}

/* ------------------------------------------------------------------------
 * The probe: proofs only, and only the cheap ones. */

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
    do_move(T, p0, m1, p1);
    if (in_check(T, p1) || !quiet_move(T, p1, false, &m2))
        return false;
    do_move(T, p1, m2, p2);
    if (!step_legal(T, p2, MV_TO(m1), MV_FROM(m1)))
        return false;
    do_move(T, p2, MV(MV_TO(m1), MV_FROM(m1), 0, 0), p3);
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
        return !has_legal(T, p, fr->moves) && (p->stm == w || !check);
    /* A shuffle ends the search at once, where it would otherwise follow
     * a line down to the last ply (after a check, say). */
    if (!check && endless_line(s, ply))
        return false;
    dmove_t quiet;
    if (!check && quiet_move(T, p, true, &quiet)) {
        do_move(T, p, quiet, &s->frames[ply + 1].pos);
        if (!forced_unwinnable(s, ply + 1, depth - 1))
            return false;
    }
    int n = gen_legal(T, p, fr->moves);
    if (n == 0)
        return p->stm == w || !check;
    for (int i = 0; i < n; i++) {
        do_move(T, p, fr->moves[i], &s->frames[ply + 1].pos);
        if (!forced_unwinnable(s, ply + 1, depth - 1))
            return false;
    }
    return true;
}

/* Worth a semi-static pass: some pawn blocked head-on by an enemy pawn, and
 * every pawn has an enemy pawn ahead on its file (a pawn with a free file
 * could promote).  Most positions of a game fail this at once. */
static bool looks_blocked(const dpos_t *p)
{
    bb_t wp = p->pc[WHITE][PAWN], bp = p->pc[BLACK][PAWN];
    if (!((wp << 8) & bp))
        return false;
    for (int c = WHITE; c <= BLACK; c++) {
        for (bb_t x = p->pc[c][PAWN]; x;) {
            int s = pop_lsb(&x);
            /* pawns never stand on the last ranks, so the shifts stay in range */
            if (!(file_ahead(c, s) & p->pc[!c][PAWN]))
                return false;
        }
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
    prepare(s, false);
    const tables_t *T = &s->T;
    dpos_t *root = &s->frames[0].pos;
    s->winner = color;
    s->mate_len = 0;
    s->nodes = 1;
    s->stage = 1;
    dpos_from_board(T, b, root);
    if (!has_legal(T, root, s->frames[0].moves))
        return in_check(T, root) && root->stm != color ? DEAD_WINNABLE : DEAD_UNWINNABLE;
    if (material_cannot_win(root, color))
        return DEAD_UNWINNABLE;
    s->stage = 2;
    s->limit = PROBE_NODES;
    if (forced_unwinnable(s, 0, PROBE_DEPTH))
        return DEAD_UNWINNABLE;
    s->stage = 4;
    if (looks_blocked(root) && !open_file_for_heavy(root, color)) {
        enum dead_answer a = semi_static(s, 0);
        if (a == DEAD_UNWINNABLE)
            return a;
    }
    s->stage = 0;
    return DEAD_UNDETERMINED;
}

/* semistatic.c: the semi-static pass (stages 4 and 7).
 *
 * Proves a side unable to mate without a search: where every piece could
 * ever stand and which pieces can never move, then whether a mate could
 * ever be put together on a square the loser's king can reach (the
 * comment below says how); again with a king shut in on two squares
 * (ss_confined()), and with one man pinned in each group of men that wait
 * on one another, the only one of its group that can be taken
 * (ss_pinned()).  dead_semi_static() plays out forced moves first;
 * dead_looks_blocked() tells when locked pawns make the pass worth its
 * cost. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "dead_internal.h"

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
 * reach its last rank may become anything and go anywhere.  A man pinned
 * (ss_pinned(): shown never to move) keeps its square as its reach; it
 * still becomes clear if it may be taken.
 *
 * Every condition only grows with reach and clear, so the iteration ends,
 * and by induction over any series of legal moves every position reached
 * keeps each piece inside its reach and each fixed piece on its square.
 * ss_unwinnable() then looks for a square of the loser king's reach where a
 * mate could ever be put together (ss_mate_possible). */

/* Squares one step from the squares of b: diagonally, orthogonally, by a
 * knight's jump.  Slider reach in the semi-static pass is a closure of
 * single steps (a slider may stop on every square its line passes). */
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

#define SS_PINS 4 /* pieces ss_pinned() may pin at once */

typedef struct ss {
    int n;
    uint8_t sq[32], color[32], type[32];
    bool promo[32];     /* may promote: reach is everything */
    bool clear[32];
    bb_t reach[32];
    bb_t last_allowed[32]; /* the input of a piece's last expansion */
    int8_t at[64];      /* piece index by its square now, -1 if empty */
    int npin;           /* pieces assumed never to move (ss_pinned()) ... */
    uint8_t pin[SS_PINS];
    bb_t pin_hold[SS_PINS]; /* ... and the squares that stay held while each stands */
} ss_t;

/* What a piece of type t and colour c on x attacks whatever else stands
 * anywhere: everything a pawn, knight or king attacks, the first square of
 * each line of a slider.  Also the squares it could first move to (for a
 * pawn, where it could take). */
static inline bb_t near_att(const tables_t *T, int t, int c, int x)
{
    switch (t) {
    case PAWN: return T->pawn[c][x];
    case KNIGHT: return T->knight[x];
    case BISHOP: return T->king[x] & bishop_att(T, x, ALL_BB);
    case ROOK: return T->king[x] & rook_att(T, x, ALL_BB);
    default: return T->king[x];
    }
}

/* Returns false, leaving ss unfinished, as soon as a pawn of `hopeless`
 * (WHITE, BLACK, or -1 for none) may promote: the pass cannot prove that
 * side unwinnable then.  ban[c] (NULL: none) holds squares the king of c is
 * assumed never to stand on (ss_confined() says when that holds); pinned
 * the squares of the men ss->pin lists. */
static inline ARB_ALWAYS_INLINE bool saturate(const tables_t *T, const dpos_t *p, ss_t *ss, int hopeless,
                                              const bb_t *ban, bb_t pinned)
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
                fixed[c] |= BIT(ss->sq[i]);
                guard[c] |= near_att(T, ss->type[i], c, ss->sq[i]);
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
                /* a pinned man never moves (last_allowed starts at 0) */
                bb_t allowed = pinned & BIT(ss->sq[i]) ? 0 : ~fixed[c] & ~fixed_king;
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

/* saturate() in two copies: the plain pass (pinned = 0, where the test
 * folds away) pays nothing for the pins. */
static bool ss_saturate(const tables_t *T, const dpos_t *p, ss_t *ss, int hopeless, const bb_t *ban)
{
    if (!ss->npin)
        return saturate(T, p, ss, hopeless, ban, 0);
    bb_t pinned = 0;
    for (int k = 0; k < ss->npin; k++)
        pinned |= BIT(ss->pin[k]);
    return saturate(T, p, ss, hopeless, ban, pinned);
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
        bb_t occ = fixed_all; /* a pinned piece's cluster stands while it does */
        for (int k = 0; k < ss->npin; k++)
            if (ss->pin[k] == ss->sq[i])
                occ |= ss->pin_hold[k];
        for (bb_t r = ss->reach[i]; r;) {
            int x = pop_lsb(&r);
            bb_t a = ss->promo[i] ? bishop_att(T, x, occ) | rook_att(T, x, occ) | T->knight[x]
                                  : piece_att(T, ss->type[i], w, x, occ);
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

/* The men of colour c other than pawns that might wait on one another: the
 * greatest set of them each of whose first-move squares (near_att()) holds
 * a blocked pawn or a man of the set, or is, for the king, attacked by a
 * blocked enemy pawn (a pawn that can push now is fixed in no pass).  Only
 * a candidate: ss_pin_holds() checks it against the pass. */
static bb_t ss_waiting(const tables_t *T, const dpos_t *p, int c)
{
    const bb_t blocked[2] = {p->pc[WHITE][PAWN] & p->occ >> 8, p->pc[BLACK][PAWN] & p->occ << 8};
    const bb_t pawns = blocked[WHITE] | blocked[BLACK], pawn_att = pawn_takes(blocked[!c], !c);
    bb_t set = p->pc[c][0] & ~p->pc[c][PAWN];
    for (bool changed = true; changed;) {
        changed = false;
        for (bb_t x = set; x;) {
            int s = pop_lsb(&x), t = PIECE_TYPE(p->sq[s]);
            if (near_att(T, t, c, s) & ~(pawns | set | (t == KING ? pawn_att : 0))) {
                set &= ~BIT(s);
                changed = true;
            }
        }
    }
    return set;
}

/* Does the pass ss confirm pin k: r = ss->pin[k] never moves?  It does
 * if every man of r's cluster (pin_hold[k]: r and the men whose squares
 * the first moves of the cluster would need) can first move only to a
 * square of the cluster, to a square a man holds for ever (for r, a man of
 * its own colour: the pass does not know r's captures), or, a king, to a
 * square a fixed enemy man always attacks; and if no man of the cluster
 * but r can be taken (a king never is; for the others no enemy man's
 * reach holds their square).  Then until a man of the cluster is taken,
 * none moves: at the first move of one, all still stand, and they fill
 * every square it could go to.  The only one that can be taken is r, so r
 * never moves: taken, it is gone.  The pass itself assumed that
 * (ss_saturate() pins r), and the check is made on its result: by
 * induction over a game, the first move that broke the pass's invariants
 * or moved r would be r's, which the argument above rules out. */
static bool ss_pin_holds(const tables_t *T, const ss_t *ss, int k)
{
    const int r = ss->pin[k], c = ss->color[ss->at[r]];
    const bb_t hold = ss->pin_hold[k];
    bb_t fixed_own = 0, fixed_all = 0, guard = 0, enemy_reach = 0;
    for (int i = 0; i < ss->n; i++) {
        if (!ss->clear[i]) {
            fixed_all |= BIT(ss->sq[i]);
            if (ss->color[i] != c)
                guard |= near_att(T, ss->type[i], ss->color[i], ss->sq[i]);
            else
                fixed_own |= BIT(ss->sq[i]);
        }
        if (ss->color[i] != c)
            enemy_reach |= ss->promo[i] ? ALL_BB : ss->reach[i];
    }
    for (bb_t x = hold; x;) {
        int s = pop_lsb(&x), i = ss->at[s];
        if (i < 0 || ss->color[i] != c || ss->type[i] == PAWN)
            return false;
        /* a fixed enemy man is never taken by the men the pass moves, but
         * r's moves are not in the pass */
        bb_t out = near_att(T, ss->type[i], c, s) & ~hold & ~(s == r ? fixed_own : fixed_all);
        if (ss->type[i] == KING)
            out &= ~guard;
        if (out || (s != r && ss->type[i] != KING && (enemy_reach & BIT(s))))
            return false;
    }
    return true;
}

/* The pass again with men pinned (ss_pin_holds()): a cluster of men that
 * wait on one another (ss_waiting()), like a king in a corner between its
 * rook and a bishop behind locked pawns, of which one could be taken where
 * it stands.  The plain pass lets that one move after another has left,
 * and the other leave once it is taken; pinned, it stays (and its lines
 * stop at the cluster), while the others may still move once it is gone.
 * One pin per cluster, tried on each man of it (kings apart), at most
 * SS_PINS in all; no castling rights for the colour (castling moves two
 * men at once).  True if w is proved unable to mate. */
static bool ss_pinned(const tables_t *T, const dpos_t *p, ss_t *ss, int w)
{
    /* squares next to an empty one, by the kind of step: a man to pin has
     * no empty square to step to */
    const bb_t empty = ~p->occ, d = step_diag(empty), o = step_orth(empty), n = step_knight(empty);
    ss->npin = 0;
    for (int c = WHITE; c <= BLACK; c++) {
        const bb_t *C = p->pc[c];
        if (!((C[KNIGHT] & ~n) | (C[BISHOP] & ~d) | (C[ROOK] & ~o) | (C[QUEEN] & ~(d | o))))
            continue;
        if (p->castle & (3 << (2 * c)))
            continue;
        const bb_t set = ss_waiting(T, p, c);
        if (popcnt(set) < 2)
            continue;
        for (bb_t x = set & ~p->pc[c][KING]; x && ss->npin < SS_PINS;) {
            int r = pop_lsb(&x);
            bb_t hold = BIT(r);
            for (bb_t grown = 0; grown != hold;) {
                grown = hold;
                for (bb_t y = grown; y;) {
                    int s = pop_lsb(&y);
                    hold |= near_att(T, PIECE_TYPE(p->sq[s]), c, s) & set;
                }
            }
            if (!(hold & (hold - 1)))
                continue;
            ss->pin[ss->npin] = (uint8_t)r;
            ss->pin_hold[ss->npin++] = hold;
            bool holds = ss_saturate(T, p, ss, w, NULL);
            for (int k = 0; k < ss->npin && holds; k++)
                holds = ss_pin_holds(T, ss, k);
            if (!holds) {
                ss->npin--;
                continue;
            }
            if (ss_unwinnable(T, p, ss, w))
                return true;
            x &= ~hold;
        }
    }
    ss->npin = 0;
    return false;
}

/* The semi-static pass's proof that w cannot mate in p: the plain pass,
 * then the confined king's (ss_confined()), then with pinned men
 * (ss_pinned()). */
bool dead_ss_proves(const tables_t *T, const dpos_t *p, int w)
{
    ss_t ss;
    ss.npin = 0;
    if (ss_saturate(T, p, &ss, w, NULL) && ss_unwinnable(T, p, &ss, w))
        return true;
    return ss_confined(T, p, &ss, w) || ss_pinned(T, p, &ss, w);
}

/* Semi-static verdict for frames[ply] after playing out forced moves (a
 * single legal move) at most 100 times.  Returns DEAD_UNWINNABLE, or
 * DEAD_WINNABLE when the forced moves end in mate of the loser (the line is
 * then in s->mate, after the ply moves of s->path), else DEAD_UNDETERMINED. */
enum dead_answer dead_semi_static(dead_search_t *s, int ply)
{
    const tables_t *T = &s->T;
    const int w = s->winner;
    for (int forced = 0;; forced++) {
        frame_t *fr = &s->frames[ply];
        const dpos_t *p = &fr->pos;
        if (material_cannot_win(p, w))
            return DEAD_UNWINNABLE;
        s->nodes++;
        int n = dead_gen_legal(T, p, fr->moves);
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
        dead_do_move(T, p, fr->moves[0], &s->frames[ply + 1].pos);
        ply++;
    }
    return dead_ss_proves(T, &s->frames[ply].pos, w) ? DEAD_UNWINNABLE : DEAD_UNDETERMINED;
}

/* Worth a semi-static pass: some pawn blocked head-on by an enemy pawn, and
 * every pawn has an enemy pawn ahead on its file (a pawn with a free file
 * could promote).  Most positions of a game fail this at once. */
bool dead_looks_blocked(const dpos_t *p)
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

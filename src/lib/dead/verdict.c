/* verdict.c: can a side still checkmate?  Dead positions (FIDE 5.2.2) and
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
 *      approach without stalemating it; again with men that can move only
 *      onto one another's squares (a king in the corner between its rook
 *      and a bishop behind locked pawns): none moves before one is taken,
 *      so where only one of them can be taken, that one never moves;
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
 *      helpmates of 40 plies and more that the depth limits miss;
 *   5. last, with six bishops or more on the board, the corner search by
 *      iterative deepening again, now rewarding bishops that head for the
 *      corner as well (the loser's to block its king's flight squares, the
 *      winner's to check), with nodes of its own beyond the budget: where
 *      the mate needs bishop after bishop walked there, the other searches
 *      spend everything on the other moves;
 *   5. and last, with locked pawns and nothing but pawns and bishops, the
 *      deepening once more, now rewarding the winner's offers: a piece put
 *      where a loser's pawn can take it and a winner's pawn can take back,
 *      the captures and every pawn move (the mate where the winner's
 *      pieces cannot cross the chain needs a pawn of the winner through
 *      it, and only the sacrifice opens a file), again with nodes of its
 *      own beyond the budget (not for the replay's small budget).  A mate
 *      found comes with its line, replayed by the tests; no mate is a
 *      proof only when nothing was cut off.
 * The searches of stages 2, 3, 5 and 8 prove unwinnability too when they
 * end without cutting anything off: they have then seen every position
 * that can arise.  dead_probe() runs only stage 1, forced lines and stage 4.
 *
 * This file runs the stages in that order and answers dead_can_win(); each
 * stage lives in a file of its own in this folder (dead_internal.h lists
 * them), dead_probe() in probe.c.  For Article 6.9 alone, where a search
 * costs too much, it also answers with some stages only: those that follow
 * no line (dead_static_proof()), and the exhaustion where a side is walled
 * in, its king without a square and its pawns a few pushes from being
 * blocked, so that few positions can arise (dead_fortress_proof()).
 *
 * Everything runs on a private bitboard copy of the position (position.c):
 * the engine's mailbox generator is exact but too slow for searches of
 * many thousand nodes.  Lines leave as move_t exactly as movegen_legal()
 * lists them, and the tests replay them through the engine.
 *
 * Written for pgn-arbiter from the outline of M. Ambrona, "A Practical
 * Algorithm for Chess Unwinnability", FUN 2022 (LIPIcs 226): the corner
 * search's rewards and punishments, and the idea of a semi-static pass
 * followed by an exhaustive search, come from there. */
#include <assert.h>
#include <stdbool.h>
#include <string.h>

#include "dead_internal.h"

/* Budgets of the stages, in nodes or in per cent of the handle's budget. */
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
#define BISHOP_MIN 6            /* bishops on the board for the deepening that walks them, */
#define EXTRA_NODES 600000UL    /* the last deepenings' nodes on each side, beyond the budget */
#define FORTRESS_TEMPI 8        /* dead_fortress_proof(): pushes left to the walled-in side, */
#define FORTRESS_NODES 4096UL   /* and the exhaustion's budget */

/* ------------------------------------------------------------------------
 * The stages. */

/* The corner search by iterative deepening (towards the corner on the
 * loser's side, or on the winner's side), until s->nodes reaches `until`. */
static enum dead_answer deepen(dead_search_t *s, bool other_side, bool pawn_mode, unsigned long until)
{
    unsigned long start = s->nodes;
    enum dead_answer a = DEAD_UNDETERMINED;
    s->other_side = other_side;
    s->pawn_mode = pawn_mode;
    dead_tt_new_generation(s, ID_TT_START);
    for (int depth = 2; depth <= MAX_PLY && s->nodes < until; depth++) {
        /* the table keeps what earlier iterations saw; short searches use
         * a part of it that stays in the cache, long ones all of it */
        if (s->nodes - start > ID_TT_SWITCH && s->tt_used < s->tt_mask)
            dead_tt_new_generation(s, s->budget);
        if (dead_run_search(s, depth, ITER_NODES, until, true, false)) {
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

/* A last deepening in the mode *mode (a flag of the handle), towards the
 * corner on the loser's side, then on the winner's, each with
 * EXTRA_NODES nodes of its own beyond the budget: the count is set back
 * after a deepening that decides nothing, so that the stages after it run
 * as they would without it.  Like any deepening it proves no mate only
 * when it cut nothing off. */
static enum dead_answer deepen_extra(dead_search_t *s, bool *mode)
{
    enum dead_answer a = DEAD_UNDETERMINED;
    s->stage = 5;
    *mode = true;
    for (int side = 0; side < 2 && a == DEAD_UNDETERMINED; side++) {
        unsigned long nodes = s->nodes;
        a = deepen(s, side == 1, false, nodes + EXTRA_NODES);
        if (a == DEAD_UNDETERMINED)
            s->nodes = nodes;
    }
    *mode = false;
    return a;
}

/* With many bishops (BISHOP_MIN), the mate needs them walked to the corner
 * one by one, the loser's as blockers and the winner's as checkers, and the
 * corner search, which rewards only kings, knights and pawns, spends the
 * budget on their other moves.  Here bishops heading for the corner are
 * rewarded too, towards the corner on the loser's side, then on the
 * winner's (deepen_extra()). */
static enum dead_answer deepen_bishops(dead_search_t *s)
{
    return deepen_extra(s, &s->bishop_mode);
}

/* Where pawns are locked and nothing but pawns and bishops is left, the
 * winner often can mate only after a pawn of its own gets through: a piece
 * offered to a loser's pawn, taken, and taken back by a winner's pawn,
 * which then promotes (helpmate.c, classify_offers()).  The other searches
 * reward that sacrifice nowhere.  Run as the bishops' deepening is, after
 * it (deepen_extra()). */
static enum dead_answer deepen_offers(dead_search_t *s)
{
    return deepen_extra(s, &s->offer_mode);
}

/* The stages in order for s->winner from frames[0] (the comment at the
 * top): the first that decides gives the answer, s->stage says which. */
/* Stages 1, 4 and 7 on the root, whose n legal moves are listed in
 * frames[0].moves: the proofs that follow no line. */
static enum dead_answer static_stages(dead_search_t *s, int n)
{
    const tables_t *T = &s->T;
    dpos_t *root = &s->frames[0].pos;
    const int w = s->winner;

    s->stage = 1;
    s->nodes = 1;
    if (n == 0)
        return in_check(T, root) && root->stm != w ? DEAD_WINNABLE : DEAD_UNWINNABLE;
    if (material_cannot_win(root, w))
        return DEAD_UNWINNABLE;

    /* The semi-static pass, on the position and then after each legal
     * move: a few passes cost less than the searches, and in the replay's
     * question (a flag fall, Article 6.9) they are what proves. */
    s->stage = 4;
    enum dead_answer a = dead_semi_static(s, 0);
    if (a != DEAD_UNDETERMINED)
        return a;
    s->stage = 7;
    for (int i = 0; i < n; i++) {
        s->path[0] = s->frames[0].moves[i];
        dead_do_move(T, root, s->frames[0].moves[i], &s->frames[1].pos);
        a = dead_semi_static(s, 1);
        if (a == DEAD_WINNABLE)
            return a;
        if (a != DEAD_UNWINNABLE)
            break;
        if (i == n - 1)
            return DEAD_UNWINNABLE;
    }
    return DEAD_UNDETERMINED;
}

static enum dead_answer analyse(dead_search_t *s)
{
    dpos_t *root = &s->frames[0].pos;
    const int w = s->winner;
    int n = dead_gen_legal(&s->T, root, s->frames[0].moves);
    enum dead_answer a = static_stages(s, n);
    if (a != DEAD_UNDETERMINED)
        return a;

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
        dead_tt_new_generation(s, nodes);
        if (dead_run_search(s, local ? LOCAL_DEPTH : 2, nodes, s->budget, true, local))
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
    if (dead_looks_blocked(root)) {
        s->stage = 6;
        a = dead_bfs_exhaust(s, s->budget * BLOCKED_BFS_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        s->stage = 5;
        a = deepen(s, false, false, s->budget * BLOCKED_ID_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        if (s->budget * BLOCKED_BF_SHARE / 100 >= s->nodes + BF_MIN_NODES) {
            s->stage = 8;
            a = dead_best_first(s, s->budget * BLOCKED_BF_SHARE / 100);
            if (a != DEAD_UNDETERMINED)
                return a;
            s->stage = 5;
        }
        a = deepen(s, true, false, s->budget);
        if (a != DEAD_UNDETERMINED)
            return a;
    } else {
        s->stage = 5;
        if (dead_pawn_race(root, w)) {
            a = deepen(s, false, true, s->budget * PAWN_ID_SHARE / 100);
            if (a != DEAD_UNDETERMINED)
                return a;
        }
        a = deepen(s, false, false, s->budget * ID_SHARE / 100);
        if (a != DEAD_UNDETERMINED)
            return a;
        s->stage = 6;
        a = dead_bfs_exhaust(s, s->budget);
        if (a != DEAD_UNDETERMINED)
            return a;
        /* the exhaustion stops early when its queue fills */
        if (s->budget >= s->nodes + BF_MIN_NODES) {
            s->stage = 8;
            a = dead_best_first(s, s->budget);
            if (a != DEAD_UNDETERMINED)
                return a;
        }
    }

    /* Last, where every other stage gave up: it would often find another
     * line where they find one. */
    if (popcnt(root->pc[WHITE][BISHOP] | root->pc[BLACK][BISHOP]) >= BISHOP_MIN) {
        a = deepen_bishops(s);
        if (a != DEAD_UNDETERMINED)
            return a;
    }
    if (!(root->pc[WHITE][KNIGHT] | root->pc[BLACK][KNIGHT] | root->pc[WHITE][ROOK] | root->pc[BLACK][ROOK] |
          root->pc[WHITE][QUEEN] | root->pc[BLACK][QUEEN]) && s->budget >= BF_MIN_NODES && dead_looks_blocked(root)) {
        a = deepen_offers(s);
        if (a != DEAD_UNDETERMINED)
            return a;
    }
    s->stage = 0;
    return DEAD_UNDETERMINED;
}

/* Makes b the root of a question about color. */
static void set_root(dead_search_t *s, const board_t *b, int color)
{
    s->winner = color;
    s->other_side = false;
    s->mate_len = 0;
    memset(s->ss_failed, 0, sizeof s->ss_failed);
    dead_pos_from_board(&s->T, b, &s->frames[0].pos);
    s->root_lk = s->frames[0].pos.ksq[!color];
}

enum dead_answer dead_static_proof(dead_search_t *s, const board_t *b, int color)
{
    assert(color == WHITE || color == BLACK);
    if (!dead_prepare(s, false))
        return DEAD_UNDETERMINED;
    set_root(s, b, color);
    dpos_t *root = &s->frames[0].pos;
    s->stage = 0;
    s->nodes = 0;
    /* The semi-static passes prove where pawns are locked; elsewhere they
     * almost never do, and a pass per legal move is not free. */
    if (!dead_looks_blocked(root))
        return DEAD_UNDETERMINED;
    enum dead_answer a = static_stages(s, dead_gen_legal(&s->T, root, s->frames[0].moves));
    if (a == DEAD_UNDETERMINED)
        s->stage = 0;
    return a;
}

/* A side walled in: x has nothing but its king and pawns, its king cannot
 * step anywhere (each square next to it holds a man of x or is attacked by
 * an enemy man other than the king, which may walk away), and each of its
 * pawns has an enemy pawn ahead on its file.  Then x's moves are the
 * pushes its pawns have left before they meet those pawns, and when they
 * are spent x is stalemated unless a capture or a king's move changes the
 * structure.  Returns the number of those pushes (the squares between
 * each pawn and the enemy pawn ahead of it), or -1 if x is not walled in. */
static int walled_in_tempi(const tables_t *T, const dpos_t *p, int x)
{
    const bb_t *X = p->pc[x];
    const int e = !x, k = p->ksq[x];
    if (X[0] & ~(X[PAWN] | X[KING]))
        return -1;
    bb_t att = pawn_takes(p->pc[e][PAWN], e);
    for (int type = KNIGHT; type <= QUEEN; type++)
        for (bb_t y = p->pc[e][type]; y;)
            att |= piece_att(T, type, e, pop_lsb(&y), p->occ & ~BIT(k));
    if (T->king[k] & ~X[0] & ~att)
        return -1;
    int tempi = 0;
    for (bb_t y = X[PAWN]; y;) {
        int sq = pop_lsb(&y);
        bb_t ahead = file_ahead(x, sq) & p->pc[e][PAWN];
        if (!ahead)
            return -1;
        tempi += iabs(sq_rank(x == WHITE ? lsb(ahead) : msb(ahead)) - sq_rank(sq)) - 1;
    }
    return tempi;
}

/* The helpmate line of an answer a into line[], as dead.h says. */
static void give_line(dead_search_t *s, enum dead_answer a, move_t *line, int line_cap, int *line_len)
{
    if (a != DEAD_WINNABLE)
        s->mate_len = 0;
    for (int i = 0; i < s->mate_len && i < line_cap; i++)
        line[i] = dead_to_move_t(s->mate[i]);
    if (line_len)
        *line_len = s->mate_len;
}

enum dead_answer dead_fortress_proof(dead_search_t *s, const board_t *b, int color, move_t *line, int line_cap,
                                     int *line_len)
{
    assert(color == WHITE || color == BLACK);
    if (line_len)
        *line_len = 0;
    s->stage = 0;
    s->nodes = 0;
    s->mate_len = 0;
    /* most positions have pieces on both sides: no copy made for them */
    bool pawns_only = false;
    for (int x = WHITE; x <= BLACK; x++)
        pawns_only |= !(b->count[PIECE(x, KNIGHT)] | b->count[PIECE(x, BISHOP)] | b->count[PIECE(x, ROOK)] |
                        b->count[PIECE(x, QUEEN)]);
    if (!pawns_only || !dead_prepare(s, false))
        return DEAD_UNDETERMINED;
    s->winner = color;
    s->other_side = false;
    memset(s->ss_failed, 0, sizeof s->ss_failed);
    dpos_t *root = &s->frames[0].pos;
    dead_pos_from_board(&s->T, b, root);
    s->root_lk = root->ksq[!color];
    bool walled = false;
    for (int x = WHITE; x <= BLACK && !walled; x++) {
        int t = walled_in_tempi(&s->T, root, x);
        walled = t >= 0 && t <= FORTRESS_TEMPI;
    }
    if (!walled)
        return DEAD_UNDETERMINED;
    s->stage = 6;
    enum dead_answer a = dead_bfs_exhaust(s, FORTRESS_NODES);
    if (a == DEAD_UNDETERMINED)
        s->stage = 0;
    give_line(s, a, line, line_cap, line_len);
    return a;
}

enum dead_answer dead_can_win(dead_search_t *s, const board_t *b, int color, move_t *line,
                              int line_cap, int *line_len)
{
    assert(color == WHITE || color == BLACK);
    if (line_len)
        *line_len = 0;
    if (!dead_prepare(s, true))
        return DEAD_UNDETERMINED;
    set_root(s, b, color);
    enum dead_answer a = analyse(s);
    give_line(s, a, line, line_cap, line_len);
    return a;
}


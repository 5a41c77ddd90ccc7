/* helpmate.c: the search handle and the depth-first helpmate searches
 * (stages 2, 3 and 5).
 *
 * The handle holds the tables, the transposition table and the frames of
 * the searches.  A search looks for a helpmate of s->winner below
 * frames[0]: both sides cooperate, moves towards a mate pattern are free,
 * others cost plies.  It proves a mate with its line, and proves that no
 * mate exists when it ends without cutting anything off: it has then seen
 * every position that can arise. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dead_internal.h"

/* ------------------------------------------------------------------------
 * The search handle and its transposition table. */

#define DEFAULT_BUDGET 4000000UL /* nodes per dead_can_win() call, for --fen: a few seconds at worst */

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
bool dead_prepare(dead_search_t *s, bool need_tt)
{
    if (!s->tables_ready) {
        dead_tables_init(&s->T);
        s->tables_ready = true;
    }
    if (need_tt && !s->dist_ready) {
        dead_tables_init_knight_dist(&s->T);
        s->dist_ready = true;
    }
    if (need_tt && !s->tt_mem) {
        /* a bucket of four entries is one cache line, so that a probe
         * misses once: the table starts at the first line of its block */
        s->tt_mem = calloc((s->tt_mask + 1) * sizeof *s->tt + 64, 1);
        if (s->tt_mem)
            s->tt = (tt_entry_t *)((uintptr_t)s->tt_mem + (64 - (uintptr_t)s->tt_mem % 64) % 64);
    }
    return !need_tt || s->tt;
}

void dead_search_free(dead_search_t *s)
{
    if (!s)
        return;
    free(s->tt_mem);
    free(s->frames);
    free(s->queue);
    free(s->seen);
    free(s->ss_proved);
    free(s);
}

void dead_last_stats(const dead_search_t *s, dead_stats_t *out)
{
    out->nodes = s->nodes;
    out->stage = s->stage;
}

/* Empties the table for a search of about `nodes` positions. */
void dead_tt_new_generation(dead_search_t *s, unsigned long nodes)
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

/* Entries in use in the table from which a search looks its children up
 * before making them (mate_dfs()): 1 MiB and more. */
#define TT_FAR ((size_t)1 << 16)

/* Does the table hold key, in this generation, searched with at least
 * `left` plies left?  Then a search of it with `left` plies finds nothing. */
static inline bool tt_cuts(const dead_search_t *s, uint64_t key, int left)
{
    const tt_entry_t *b = &s->tt[key & s->tt_used & ~(size_t)3];
    for (int i = 0; i < 4; i++)
        if (b[i].gen == s->gen && b[i].key == key)
            return b[i].depth >= left;
    return false;
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


/* Corner mode: the pieces head for the mate pattern of mate_target():
 * kings and knights, and bishops too in bishop mode (s->bishop_mode). */
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
            if (advanced || (MV_FLAGS(m) & MOVE_CAPTURE) || goes_to(T, m, target, type, s->bishop_mode))
                v = V_REWARD;
        } else {
            if (need_promo) {
                int promo = MV_PROMO(m);
                v = (type == PAWN && promo != QUEEN && promo != ROOK) ? V_REWARD : V_PUNISH;
            }
            if (goes_to(T, m, target, type, s->bishop_mode))
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

/* Offer mode, for locked chains where the winner's pieces cannot mate and
 * its pawns are stuck: a winner's piece offered where a loser's pawn can
 * take it and a winner's pawn can take back opens a file (the loser's pawn
 * leaves its square, the winner's pawn changes file behind it) for a pawn
 * of the winner to promote.  Rewarded: pawn moves of both sides (the
 * loser's capture of the offer among them), the winner's captures, and the
 * winner's pieces (not the king) moving onto such a square or to where
 * they attack one, a move from the offer.  Not every step closer: then a
 * bishop shut out of the way (behind its own chain) walks for free, and
 * each iteration's nodes go to those walks.  Once the winner has a rook or
 * a queen the corner mode takes over. */
static void classify_offers(const dead_search_t *s, const dpos_t *p, const dmove_t *moves, int n, uint8_t *var)
{
    const tables_t *T = &s->T;
    const int w = s->winner;
    const bool winners_turn = p->stm == w;
    const bb_t offers = pawn_takes(p->pc[!w][PAWN], !w) & pawn_takes(p->pc[w][PAWN], w) & ~p->pc[w][0];
    for (int i = 0; i < n; i++) {
        dmove_t m = moves[i];
        int from = MV_FROM(m), to = MV_TO(m), type = PIECE_TYPE(p->sq[from]);
        int v = V_NORMAL;
        if (type == PAWN || (winners_turn && (MV_FLAGS(m) & MOVE_CAPTURE)))
            v = V_REWARD;
        else if (winners_turn && type != KING && offers) {
            bb_t occ = (p->occ & ~BIT(from)) | BIT(to);
            if ((offers & BIT(to)) || (piece_att(T, type, w, to, occ) & offers))
                v = V_REWARD;
        }
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
        if (dead_has_legal(T, p, fr->moves)) {
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
    int n = dead_gen_legal(T, p, fr->moves);
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

    /* In a long search, whose table is far out of the cache, the
     * children's entries are fetched all at once, while the moves are
     * sorted, and a child the table cuts off is counted as the child
     * itself would count it, and never made.  A short search's table is
     * in the cache, and its children are seldom in it: there the keys
     * would cost more than they save. */
    const bool far = s->use_tt && s->tt_used + 1 >= TT_FAR;
    if (far) {
        for (int i = 0; i < n; i++) {
            fr->keys[i] = dead_move_key(T, p, fr->moves[i]);
#ifdef __GNUC__
            __builtin_prefetch(&s->tt[fr->keys[i] & s->tt_used & ~(size_t)3]);
#endif
        }
    }
    uint8_t var[MAX_GEN];
    if (s->local)
        classify_local(s, p, fr->moves, n, var);
    else if (s->pawn_mode && !(p->pc[w][ROOK] | p->pc[w][QUEEN]))
        classify_pawns(s, p, fr->moves, n, var);
    else if (s->offer_mode && !(p->pc[w][ROOK] | p->pc[w][QUEEN]))
        classify_offers(s, p, fr->moves, n, var);
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
        if (far && s->nodes + 1 < s->limit && tt_cuts(s, fr->keys[i], s->max_depth - nd)) {
            s->nodes++;
            continue;
        }
        dead_do_move(T, p, m, q);
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
bool dead_run_search(dead_search_t *s, int max_depth, unsigned long nodes, unsigned long until, bool use_tt,
                     bool local)
{
    s->local = local;
    s->max_depth = max_depth;
    s->limit = s->nodes + nodes < until ? s->nodes + nodes : until;
    s->interrupted = false;
    s->use_tt = use_tt;
    return mate_dfs(s, 0, 0, false);
}

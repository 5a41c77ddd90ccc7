/* exhaust.c: the breadth-first exhaustion (stage 6) and the best-first
 * search (stage 8).
 *
 * Both keep every position they reach, once, in a queue of compact
 * positions with a hash set of keys, dropping those the semi-static pass
 * proves: a mate found comes with its line, and a queue that empties has
 * seen every reachable position, a proof that there is no mate.  They
 * differ in the order: by distance from the root, or by an estimate of
 * the plies to a mate. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dead_internal.h"

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

/* Two men a byte, the loop taking them in pairs: the exhaustion and the
 * best-first search pack every child they keep and unpack every node. */
static void bfs_pack(const dpos_t *p, bfs_node_t *n)
{
    memset(n->code, 0, sizeof n->code);
    n->occ = p->occ;
    uint8_t *c = n->code;
    for (bb_t o = p->occ; o; c++) {
        unsigned pair = p->sq[pop_lsb(&o)];
        if (o)
            pair |= (unsigned)p->sq[pop_lsb(&o)] << 4;
        *c = (uint8_t)pair;
    }
    n->stm = p->stm;
    n->castle = p->castle;
    n->ep = p->ep;
}

/* A man of code pc on square s of a position being unpacked: its board and
 * key; the colours' boards and the kings' squares follow from the types'. */
static inline void unpack_man(dpos_t *p, int s, int pc)
{
    p->sq[s] = (uint8_t)pc;
    p->pc[PIECE_COLOR(pc)][PIECE_TYPE(pc)] |= BIT(s);
    p->key ^= zobrist_piece[pc][sq_to88(s)];
}

/* crook comes from the root: rights only ever disappear. */
static void bfs_unpack(const bfs_node_t *n, const dpos_t *root, dpos_t *p)
{
    memset(p, 0, sizeof *p);
    const uint8_t *c = n->code;
    for (bb_t o = n->occ; o; c++) {
        unpack_man(p, pop_lsb(&o), *c & 15);
        if (o)
            unpack_man(p, pop_lsb(&o), *c >> 4);
    }
    p->occ = n->occ;
    for (int side = WHITE; side <= BLACK; side++) {
        bb_t *b = p->pc[side];
        b[0] = b[PAWN] | b[KNIGHT] | b[BISHOP] | b[ROOK] | b[QUEEN] | b[KING];
        if (b[KING])
            p->ksq[side] = (uint8_t)lsb(b[KING]);
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
 * the free one where it belongs, from the home slot its top bits name.
 * The set holds only the root and the positions put in the queue
 * (queue_worth()), at most half the table (seen_room()): a probe always
 * meets a free slot. */
static inline size_t seen_home(const dead_search_t *s, uint64_t k)
{
    return (size_t)(k >> s->seen_shift);
}

static size_t seen_slot(const dead_search_t *s, uint64_t k)
{
    size_t i = seen_home(s, k);
    while (s->seen[i] != k && s->seen[i] != 0)
        i = (i + 1) & s->seen_mask;
    return i;
}

static void seen_add(dead_search_t *s, uint64_t k)
{
    s->seen[seen_slot(s, k)] = k;
    s->seen_count++;
}

/* The seen set starts small (SEEN_START slots at most, 256 KiB) and
 * doubles when half full: a stage that keeps few positions then probes a
 * table that stays in the cache, where one sized for the whole budget
 * would miss on every probe.  A key's home is named by its top bits, so
 * the homes keep their order when the table doubles, and moving the keys
 * over writes the new table from start to end.  False if the larger table
 * cannot be allocated (the stage then ends undecided, as when its queue
 * fills). */
#define SEEN_START ((size_t)1 << 15)

static bool seen_room(dead_search_t *s)
{
    size_t slots = s->seen_mask + 1;
    if (2 * s->seen_count <= slots)
        return true;
    /* written before it is read: calloc()'s fresh pages would be mapped
     * twice, for the first probe's read and for the first key's write */
    uint64_t *old = s->seen, *t = dead_big_alloc(2 * slots * sizeof *t);
    if (!t)
        return false;
    memset(t, 0, 2 * slots * sizeof *t);
    s->seen = t;
    s->seen_mask = 2 * slots - 1;
    s->seen_shift--;
    for (size_t i = 0; i < slots; i++)
        if (old[i])
            s->seen[seen_slot(s, old[i])] = old[i];
    free(old);
    return true;
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

/* The semi-static pass's proof for q, remembered: a position it proves is
 * not kept in the seen set, so the searches reach it again by every path.
 * The pass depends on nothing but the position and the winner, so an
 * entry holds for the handle's life (0 stands for free).  Short stages
 * (the replay's) go without: the table would cost more than it saves. */
static bool ss_proves(dead_search_t *s, const dpos_t *q)
{
    if (!s->ss_proved)
        return dead_ss_proves(&s->T, q, s->winner);
    uint64_t k = seen_key(q->key ^ (s->winner == BLACK ? 0x9E3779B97F4A7C15ULL : 0));
    uint64_t *slot = &s->ss_proved[(k >> 40) & (SS_PROVED_SLOTS - 1)];
    if (*slot == k)
        return true;
    if (!dead_ss_proves(&s->T, q, s->winner))
        return false;
    *slot = k;
    return true;
}

/* Starts a search over the queue: the root is queue[0], and seen. */
static void queue_start(dead_search_t *s, const dpos_t *root)
{
    bfs_pack(root, &s->queue[0]);
    s->queue[0].parent = UINT32_MAX;
    s->queue[0].ply = 0;
    seen_add(s, seen_key(root->key));
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

/* Is the child of p by m, whose key is k (a seen_key()), new: not in the
 * seen set?  Looked up before the child is made: most children of a long
 * search were seen by another path, and are never made. */
static inline bool queue_new(const dead_search_t *s, uint64_t k)
{
    return s->seen[seen_slot(s, k)] != k;
}

/* Is q, new (queue_new()) and reached from p by m, worth a place in the
 * queue: with mating material, and not proved unwinnable by a semi-static
 * pass (tried after a capture, a promotion, or a pawn move that ends in
 * front of an enemy pawn)?  If so, it is seen from now on.  A position
 * found unworthy is not kept: it is as unworthy when met again, and
 * keeping it could fill the set, which only the queue's limit bounds. */
static bool queue_worth(dead_search_t *s, const dpos_t *p, dmove_t m, const dpos_t *q)
{
    const int w = s->winner;
    if (material_cannot_win(q, w))
        return false;
    int to = MV_TO(m);
    bool structure = (MV_FLAGS(m) & MOVE_CAPTURE) || MV_PROMO(m) ||
                     (PIECE_TYPE(p->sq[MV_FROM(m)]) == PAWN &&
                      (q->pc[!p->stm][PAWN] & BIT(p->stm == WHITE ? to + 8 : to - 8)));
    if (structure && ss_worth_trying(s, q)) {
        if (ss_proves(s, q))
            return false;
        ss_note_failure(s, q);
    }
    seen_add(s, seen_key(q->key));
    return true;
}

/* A node opened (node_open()): its position, its legal moves and the
 * keys of its children (kid_keys()), or why it is not expanded. */
#define NODE_MATE (-1) /* the winner has mated: the search ends there */
#define NODE_DEEP (-2) /* too deep to expand: the search ends undecided */

typedef struct opened {
    dpos_t p;
    dmove_t *moves;  /* MAX_GEN */
    uint64_t *keys;  /* MAX_GEN */
    int n;           /* legal moves (0: none, and no mate by the winner), or NODE_* */
} opened_t;

/* The keys of the children of an opened node p, by its n moves, into
 * keys[] (as seen_key() makes them), their slots in the seen set fetched
 * all at once: the set is far larger than the cache. */
static inline void kid_keys(const dead_search_t *s, const dpos_t *p, const dmove_t *moves, int n, uint64_t *keys)
{
    for (int i = 0; i < n; i++) {
        keys[i] = seen_key(dead_move_key(&s->T, p, moves[i]));
#ifdef __GNUC__
        __builtin_prefetch(&s->seen[seen_home(s, keys[i])]);
#endif
    }
}

/* Opens queue[head] into *o for both searches.  Nothing else changes: the
 * exhaustion opens a node ahead of its turn. */
static inline void node_open(const dead_search_t *s, size_t head, const dpos_t *root, opened_t *o)
{
    const tables_t *T = &s->T;
    bfs_unpack(&s->queue[head], root, &o->p);
    o->n = dead_gen_legal(T, &o->p, o->moves);
    if (o->n == 0 && o->p.stm != s->winner && in_check(T, &o->p))
        o->n = NODE_MATE;
    else if (o->n > 0 && s->queue[head].ply >= MAX_PLY - 1)
        o->n = NODE_DEEP;
    if (o->n > 0)
        kid_keys(s, &o->p, o->moves, o->n, o->keys);
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
    const dpos_t *root = &s->frames[0].pos;
    dpos_t q;
    opened_t open[2] = {{.moves = s->frames[1].moves, .keys = s->frames[1].keys},
                        {.moves = s->frames[2].moves, .keys = s->frames[2].keys}};
    size_t head = 0, tail = 1, ready = SIZE_MAX; /* ready: the node open[next] holds */
    int next = 0;
    queue_start(s, root);
    for (; head < tail; head++) {
        if (s->nodes >= until)
            return DEAD_UNDETERMINED;
        s->nodes++;
        opened_t *o = &open[next];
        if (ready != head)
            node_open(s, head, root, o);
        if (o->n == NODE_MATE)
            return queue_mate(s, head);
        if (o->n == NODE_DEEP)
            return DEAD_UNDETERMINED;
        /* the next node opened now: the slots of its children come from
         * memory while this node's children are looked up */
        next ^= 1;
        ready = SIZE_MAX;
        if (head + 1 < tail) {
            node_open(s, head + 1, root, &open[next]);
            ready = head + 1;
        }
        const dpos_t *p = &o->p;
        for (int i = 0; i < o->n; i++) {
            if (!queue_new(s, o->keys[i]))
                continue;
            dead_do_move(&s->T, p, o->moves[i], &q);
            if (!queue_worth(s, p, o->moves[i], &q))
                continue;
            if (tail == s->queue_cap)
                return DEAD_UNDETERMINED;
            queue_put(s, tail++, head, o->moves[i], &q);
            if (!seen_room(s))
                return DEAD_UNDETERMINED;
        }
    }
    return DEAD_UNWINNABLE;
}

/* Room for as many positions as nodes are left before `until` (40 bytes
 * each, and a hash set that grows to at most 32 bytes each), taken for a
 * stage; its size, 0 if out of memory.  stage_room_free() gives it back. */
static size_t stage_room(dead_search_t *s, unsigned long until)
{
    size_t cap = until > s->nodes ? until - s->nodes : 0;
    if (cap < 4096)
        cap = 4096;
    size_t slots = 2;
    int shift = 63;
    while (slots < 2 * cap && slots < SEEN_START) {
        slots *= 2;
        shift--;
    }
    s->queue = dead_big_alloc(cap * sizeof *s->queue);
    s->seen = malloc(slots * sizeof *s->seen);
    if (s->seen)
        memset(s->seen, 0, slots * sizeof *s->seen);
    s->seen_count = 0;
    if (!s->ss_proved && cap >= SS_PROVED_SLOTS)
        s->ss_proved = calloc(SS_PROVED_SLOTS, sizeof *s->ss_proved); /* none is no harm */
    if (!s->queue || !s->seen)
        return 0;
    s->queue_cap = cap;
    s->seen_mask = slots - 1;
    s->seen_shift = shift;
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
enum dead_answer dead_bfs_exhaust(dead_search_t *s, unsigned long until)
{
    if (s->nodes >= until)
        return DEAD_UNDETERMINED;
    enum dead_answer a = stage_room(s, until) ? bfs_search(s, until) : DEAD_UNDETERMINED;
    stage_room_free(s);
    return a;
}

/* Pawns and kings, and no rook or queen for the winner: the mate needs a
 * promotion, and the pawns' play decides. */
bool dead_pawn_race(const dpos_t *p, int w)
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
 * a mate than by the depth limits of the helpmate searches.  The queue and
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
    const bool pawn_plan = dead_pawn_race(root, w);
    dpos_t q;
    opened_t o = {.moves = s->frames[1].moves, .keys = s->frames[1].keys};
    const dpos_t *p = &o.p;
    size_t tail = 1, hn = 0;
    queue_start(s, root);
    heap_push(heap, &hn, 0);
    while (hn) {
        size_t head = (size_t)(heap_pop(heap, &hn) & UINT32_MAX);
#ifdef __GNUC__
        if (hn) /* most often the next one opened: it is anywhere in the queue */
            __builtin_prefetch(&s->queue[heap[0] & UINT32_MAX]);
#endif
        node_open(s, head, root, &o);
        if (o.n == NODE_MATE)
            return queue_mate(s, head);
        if (o.n == NODE_DEEP)
            return DEAD_UNDETERMINED;
        for (int i = 0; i < o.n; i++) {
            if (s->nodes >= until || tail == s->queue_cap)
                return DEAD_UNDETERMINED;
            s->nodes++;
            if (!queue_new(s, o.keys[i]))
                continue;
            dead_do_move(T, p, o.moves[i], &q);
            if (!queue_worth(s, p, o.moves[i], &q))
                continue;
            queue_put(s, tail, head, o.moves[i], &q);
            uint64_t f = (uint64_t)(BF_WEIGHT * bf_estimate(T, &q, w, pawn_plan) + s->queue[tail].ply);
            heap_push(heap, &hn, f << 32 | tail);
            tail++;
            if (!seen_room(s))
                return DEAD_UNDETERMINED;
        }
    }
    return DEAD_UNWINNABLE;
}

/* The best-first stage, in a room of its own and a heap (8 bytes a
 * position). */
enum dead_answer dead_best_first(dead_search_t *s, unsigned long until)
{
    size_t cap = stage_room(s, until);
    uint64_t *heap = cap ? dead_big_alloc(cap * sizeof *heap) : NULL;
    enum dead_answer a = heap ? bf_search(s, heap, until) : DEAD_UNDETERMINED;
    free(heap);
    stage_room_free(s);
    return a;
}


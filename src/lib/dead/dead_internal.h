/* dead_internal.h: what the files of src/lib/dead/ share, and only they:
 * the rest of the library sees dead.h.
 *
 * The analysis of dead.h, one file per part (verdict.c tells how the
 * stages follow one another, by the numbers dead_stats_t reports):
 *   position.c    the private bitboard position: attack tables, legal
 *                 moves, moves made by copy;
 *   material.c    material alone: dead_quick(), and the test every stage
 *                 makes at every node (stage 1);
 *   helpmate.c    the search handle, its transposition table and the
 *                 depth-first helpmate searches (stages 2, 3 and 5);
 *   semistatic.c  the semi-static pass (stages 4 and 7);
 *   exhaust.c     the breadth-first exhaustion and the best-first search
 *                 (stages 6 and 8);
 *   verdict.c     the stages in order: dead_can_win();
 *   probe.c       the cheap proofs only: dead_probe();
 *   bigalloc.c    the large tables of the searches, in huge pages.
 *
 * Here: bitboards and the attack tables, the position and its moves, the
 * handle (struct dead_search), and the small helpers the stages call at
 * every node, static inline so that the split costs no calls. */
#ifndef ARB_DEAD_INTERNAL_H
#define ARB_DEAD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "dead.h"
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
#define DIR_UP(d) ((d) <= D_E || (d) == D_NW)

/* Attack tables, built once per search handle (immutable afterwards). */
typedef struct tables {
    bb_t knight[64], king[64];
    bb_t pawn[2][64];   /* squares a pawn of colour c on s attacks */
    bb_t ray[8][64];    /* squares from s in direction d to the edge, s excluded */
    bb_t diag[64], orth[64]; /* a bishop's and a rook's squares from s on an empty board */
    int8_t dir[64][64]; /* direction from a to b, -1 if not on one line */
    uint8_t knight_dist[64][64];
} tables_t;

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
static inline bb_t piece_att(const tables_t *T, int type, int c, int s, bb_t occ)
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

/* Everything but the a file, the h file, the a and b files, the g and h
 * files: what may shift one or two files sideways without wrapping. */
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

/* King distance from s to the nearest of the pawns (99 if none): the pawn
 * mode of the helpmate search and the best-first estimate both use it. */
static inline int pawn_dist(bb_t pawns, int s)
{
    int d = 99;
    while (pawns) {
        int k = king_dist(s, pop_lsb(&pawns));
        if (k < d)
            d = k;
    }
    return d;
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

/* Pieces of colour `by` attacking s, for the occupancy occ. */
static inline bb_t attackers(const tables_t *T, const dpos_t *p, int s, bb_t occ, int by)
{
    const bb_t *P = p->pc[by];
    const bb_t diag = (P[BISHOP] | P[QUEEN]) & T->diag[s], orth = (P[ROOK] | P[QUEEN]) & T->orth[s];
    bb_t a = (T->pawn[!by][s] & P[PAWN]) | (T->knight[s] & P[KNIGHT]) | (T->king[s] & P[KING]);
    /* the rays are traced only towards a slider on one of s's lines */
    if (diag)
        a |= bishop_att(T, s, occ) & diag;
    if (orth)
        a |= rook_att(T, s, occ) & orth;
    return a;
}

static inline bool in_check(const tables_t *T, const dpos_t *p)
{
    return attackers(T, p, p->ksq[p->stm], p->occ, !p->stm) != 0;
}

/* position.c: the tables (knight distances apart, for the searches only),
 * a board as a dpos_t, the legal moves (out holds MAX_GEN; their count),
 * q = p after the legal move m, the key q would have (without making it),
 * m as the engine's move_t, and whether the side to move has any legal
 * move (scratch holds MAX_GEN). */
void dead_tables_init(tables_t *T);
void dead_tables_init_knight_dist(tables_t *T);
void dead_pos_from_board(const tables_t *T, const board_t *b, dpos_t *p);
int dead_gen_legal(const tables_t *T, const dpos_t *p, dmove_t *out);
void dead_do_move(const tables_t *T, const dpos_t *p, dmove_t m, dpos_t *q);
uint64_t dead_move_key(const tables_t *T, const dpos_t *p, dmove_t m);
move_t dead_to_move_t(dmove_t m);
bool dead_has_legal(const tables_t *T, const dpos_t *p, dmove_t *scratch);

/* ------------------------------------------------------------------------
 * Material (material.c). */

/* True if the side with the pieces W can never mate against the pieces L
 * (square sets by type, [0] all of them), whatever the position. */
bool dead_material_cannot_win_bb(const bb_t *W, const bb_t *L);

/* The same for w in p: every stage asks it of every position it meets. */
static inline bool material_cannot_win(const dpos_t *p, int w)
{
    return dead_material_cannot_win_bb(p->pc[w], p->pc[!w]);
}

/* ------------------------------------------------------------------------
 * The search handle (helpmate.c). */

#define MAX_PLY 512             /* longest line searched, plies */

typedef struct frame {
    dpos_t pos;
    dmove_t moves[MAX_GEN];
    uint64_t keys[MAX_GEN]; /* of the children by moves[], where a search made them */
} frame_t;

/* A position visited with `depth` plies of search left, in generation gen. */
typedef struct tt_entry {
    uint64_t key;
    uint32_t gen;
    int32_t depth;
} tt_entry_t;

#define SS_PROVED_SLOTS 16384

struct dead_search {
    tables_t T;
    bool tables_ready;       /* T is made but for knight_dist (dead_prepare()) */
    bool dist_ready;         /* T.knight_dist is made too */
    tt_entry_t *tt;          /* made by dead_prepare() at the first dead_can_win() call, */
    void *tt_mem;            /* in this block, at its first cache line */
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
    bool bishop_mode;        /* corner mode: bishops heading for the corner are rewarded too */
    bool offer_mode;         /* pawn play and the winner's offers to the loser's pawns first,
                                while the winner has no rook or queen */
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
    uint64_t *ss_proved;     /* SS_PROVED_SLOTS keys (winner folded in) of positions the pass
                                proved, made by the first long exhaustion (exhaust.c) */
    struct bfs_node *queue;  /* the breadth-first stage's queue and its hash set of keys */
    uint64_t *seen;          /* (0 = free), allocated by the stage and freed after it; */
    size_t queue_cap, seen_mask, seen_count; /* the set grows as it fills (exhaust.c) */
    int seen_shift;          /* 64 - log2 of its slots */
};

/* helpmate.c: makes the tables (and the transposition table if need_tt;
 * false if it cannot be allocated), empties the transposition table for a
 * search of about `nodes` positions, and runs one helpmate search from
 * frames[0] (true on a mate, its line in s->mate; s->interrupted false
 * after a search that cut nothing off: no mate exists). */
bool dead_prepare(dead_search_t *s, bool need_tt);
void dead_tt_new_generation(dead_search_t *s, unsigned long nodes);
bool dead_run_search(dead_search_t *s, int max_depth, unsigned long nodes, unsigned long until, bool use_tt,
                     bool local);

/* semistatic.c: the pass's proof that w cannot mate in p; the verdict at
 * frames[ply] after the forced moves; whether the pawns look locked (the
 * probe then tries the pass, the verdict the exhaustion first). */
bool dead_ss_proves(const tables_t *T, const dpos_t *p, int w);
enum dead_answer dead_semi_static(dead_search_t *s, int ply);
bool dead_looks_blocked(const dpos_t *p);

/* bigalloc.c: malloc() for the searches' large tables, asking the system
 * for huge pages where it has them (free() gives the block back). */
void *dead_big_alloc(size_t size);

/* exhaust.c: the breadth-first and the best-first stages from frames[0],
 * each until s->nodes reaches `until` (DEAD_UNDETERMINED then); whether the
 * pawns' play decides w's mate (the pawn plan of both searches). */
enum dead_answer dead_bfs_exhaust(dead_search_t *s, unsigned long until);
enum dead_answer dead_best_first(dead_search_t *s, unsigned long until);
bool dead_pawn_race(const dpos_t *p, int w);

#endif

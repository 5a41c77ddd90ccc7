/* rules.h: the rule facts of every position of a game, FIDE Laws 2023.
 *
 * A rules_t follows one game move by move.  Ply 0 is the start position,
 * ply k the position after k half-moves.  For each fact it records the first
 * ply where it holds.  Facts that need "the side to move has a legal move"
 * are settled for ply k when move k+1 is played (a legal move proves one
 * exists) or by rules_finish() for the last position, so the full legal move
 * generator runs only where a game ends or a claim is possible. */
#ifndef ARB_RULES_H
#define ARB_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "board.h"
#include "board_play.h"

enum rules_fact {
    FACT_CHECKMATE,    /* 5.1: in check, no legal move */
    FACT_STALEMATE,    /* 5.2.1: not in check, no legal move */
    FACT_INSUFFICIENT, /* neither side can mate, judged on material alone */
    FACT_DEAD,         /* 5.2.2 dead position: neither side can mate (dead.h) */
    FACT_FIVEFOLD,     /* 9.6.1: the position occurred five times */
    FACT_SEVENTYFIVE,  /* 9.6.2: clock >= 150 and a legal move exists */
    FACT_THREEFOLD,    /* 9.2: threefold claimable, by declared move too */
    FACT_FIFTY,        /* 9.3: fifty-move claimable, by declared move too */
    FACT_WHITE_CANNOT_WIN, /* 5.2.2 / 6.9: White cannot mate by any series of legal moves */
    FACT_BLACK_CANNOT_WIN, /* the same for Black */
    FACT_COUNT
};

/* Name of a fact as in the JSON report ("checkmate", ...). */
const char *rules_fact_name(enum rules_fact f);

/* The move that led to a ply, for reports: "34...Kg7", "41.Kf2"; "" at ply 0. */
#define RULES_MOVE_TEXT 24

/* Slots of the repetition filter: a key's top ten bits choose one. */
#define RULES_STAMPS 1024

typedef struct rules {
    board_t *pos;                /* the current position, ply `ply` (&board) */
    uint32_t ply;                /* half-moves played, 0.. */
    int32_t first[FACT_COUNT];   /* first ply where each fact holds, -1 if never */
    char first_move[FACT_COUNT][RULES_MOVE_TEXT]; /* the move that reached it */
    /* private: the reversible window, the positions since the last capture or
     * pawn move.  A change of castling rights or a lapsed en passant chance
     * needs no window of its own: the keys tell those positions apart. */
    uint64_t *keys;              /* keys[k]: the key of ply k of this game */
    uint32_t *chain;             /* chain[k]: the stamp of the sighting before ply k's in its
                                    slot, so that a count visits only keys of one slot */
    uint32_t cap;                /* room in keys and chain */
    uint32_t *stamps;            /* RULES_STAMPS entries: per hash of a key, the stamp (base +
                                    ply) of its last sighting; most plies need no scan */
    uint32_t base;               /* the stamp of ply 0, above every stamp of earlier games */
    uint32_t wlow;               /* the stamp of the window's first ply: a sighting in the
                                    window has a stamp of at least this */
    uint32_t seen;               /* occurrences of `pos` in the window, 1.. */
    uint64_t twice[2];           /* per side to move, bit (key >> 58) of each window key with
                                    that side to move that occurred twice or more: zero if
                                    none did; a move can make a third occurrence only where
                                    this filter lets it */
    bool pending;                /* rules_finish() has the last position to settle */
    bool remarkable;             /* the next rules_play() has more to settle than the proof */
    bool material_changed;       /* a capture or promotion led to `pos` */
    bool insufficient;           /* cached material verdict for `pos` */
    bool legality_only;          /* replay only: no facts (set after rules_init/restart) */
    struct dead_search *dead;    /* borrowed analysis for dead positions (set after
                                    rules_init/restart); NULL: material only */
    bool pawns_changed;          /* a pawn moved or was taken on the last move */
    bool thin;                   /* a side of `pos` has no pawn, rook or queen: material
                                    may decide (kept when material changes) */
    bool cannot_win[2];          /* cached per-side verdict for `pos`, proved */
    board_t board;               /* private: the position, moves made in place (no copy) */
    board_undo_t undo;           /* private: takes `last` back, for move text */
    move_t last;                 /* the last move */
} rules_t;

/* Starts following a game from start (ply 0).  Returns 0, -1 if out of memory. */
int rules_init(rules_t *r, const board_t *start);

/* Starts another game on r, which rules_init() made: its memory serves
 * again, until rules_free(). */
void rules_restart(rules_t *r, const board_t *start);

void rules_free(rules_t *r);

/* rules_play()'s parts out of line, for it alone. */
void rules_settle_before(rules_t *r);
int rules_keys_grow(rules_t *r);
int rules_after_zeroing(rules_t *r, uint32_t stamp);
int rules_after_sighting(rules_t *r, uint64_t key, int stm, uint32_t stamp, uint32_t before);

/* The repetition filter's slot for a key. */
static inline unsigned rules_stamp_slot(uint64_t key)
{
    return (unsigned)(key >> 54);
}

/* Plays m, a legal move in *r->pos (or a null move), and settles the facts
 * of the position it leaves.  Returns 0, -1 if out of memory. */
static inline ARB_ALWAYS_INLINE int rules_play(rules_t *r, move_t m)
{
    /* The common ply settles by the proof alone, without a call: see settle(). */
    if (r->remarkable)
        rules_settle_before(r);
    /* In place; r->undo keeps what the position before needs. */
    board_t *b = &r->board;
    board_play_inline(b, m, &r->undo);
    uint32_t ply = ++r->ply;
    if (r->legality_only)
        return 0;
    /* The facts' part: the common ply costs a few loads and stores, and
     * every call below is a tail call. */
    r->last = m;
    if (ply >= r->cap && rules_keys_grow(r) < 0)
        return -1;
    uint64_t key = b->key;
    r->keys[ply] = key;
    uint32_t stamp = r->base + ply, *slot = &r->stamps[rules_stamp_slot(key)];
    uint32_t before = *slot;
    *slot = stamp;
    r->chain[ply] = before;
    /* A zeroing move (the clock is 0 after a capture or pawn move, and
     * only then) starts a new window. */
    unsigned halfmove = b->halfmove;
    if (halfmove == 0)
        return rules_after_zeroing(r, stamp); /* m is r->last */
    if (halfmove >= 99)
        r->remarkable = true;
    if (before >= r->wlow)
        return rules_after_sighting(r, key, b->stm, stamp, before);
    return 0;
}

/* Settles the facts of the last position (call once, after the last move). */
void rules_finish(rules_t *r);

/* What the last position says of a threefold or fifty-move claim made
 * there (after rules_finish()); computed on demand, for the few games whose
 * recorded reason claims one. */
typedef struct rules_final {
    uint32_t occurrences;   /* times the last position occurred since the last capture or pawn
                               move, 1.. (counted afresh after a fivefold: see `fivefold`) */
    bool threefold;         /* 9.2: it occurred three times, or a move declared reaches a third */
    bool declared_threefold;/* the second: a move reaches a third occurrence */
    bool fivefold;          /* a fivefold repetition happened in the game (counts restart) */
    bool fifty;             /* 9.3: clock >= 100 and not mate, or clock 99 and a declared quiet
                               move reaches 100 without mate or stalemate */
    unsigned halfmove;      /* the halfmove clock, plies */
} rules_final_t;

void rules_final(const rules_t *r, rules_final_t *out);

/* FIDE 9.3.1(a): at clock 99 the player may declare a move that is neither
 * a capture nor a pawn move, after which the clock reaches 100 and the game
 * is not over by mate or stalemate.  True if b's side to move has one; the
 * move goes to *out (out may be NULL), the one leading to the position of
 * key *prefer if there is one (prefer may be NULL: the first found). */
bool rules_fifty_declarable(const board_t *b, const uint64_t *prefer, move_t *out);

/* True if color cannot mate by any series of legal moves, judged on
 * material alone (python-chess has_insufficient_material): no pawn, rook or
 * queen, and either a lone knight against nothing but a queen, or bishops
 * all on one colour with no pawn or knight on the board. */
bool rules_side_insufficient(const board_t *b, int color);

/* True if neither side can mate on material. */
bool rules_insufficient(const board_t *b);

#endif

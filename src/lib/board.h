/* board.h: the position: a 0x88 mailbox, FEN in and out, copy-make moves.
 *
 * Squares are 0x88 indices: sq = rank * 16 + file (file 0..7 = a..h,
 * rank 0..7 = 1..8); (sq & 0x88) != 0 means off the board.  A board_t is a
 * plain value: copy it to keep a position, board_make_move() writes the
 * successor into a second board and leaves the first intact. */
#ifndef ARB_BOARD_H
#define ARB_BOARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum { WHITE = 0, BLACK = 1 };
enum { EMPTY = 0, PAWN = 1, KNIGHT = 2, BISHOP = 3, ROOK = 4, QUEEN = 5, KING = 6 };

/* Keeps a rarely needed part out of its caller, so that the caller's common
 * path saves fewer registers; a plain function where the compiler lacks it
 * (configure.ac tests for it). */
#ifdef ARB_HAVE_NOINLINE
#define ARB_NOINLINE __attribute__((noinline))
#else
#define ARB_NOINLINE
#endif

/* The other way round: a fast path shared by two callers, each of which
 * would pay more for a call (and for its arguments in memory) than for the
 * copy.  Use with `static inline`. */
#ifdef ARB_HAVE_ALWAYS_INLINE
#define ARB_ALWAYS_INLINE __attribute__((always_inline))
#else
#define ARB_ALWAYS_INLINE
#endif

/* A piece code is its type with the colour in bit 3; 0 is an empty square. */
#define PIECE(color, type) ((uint8_t)((type) | ((color) << 3)))
#define PIECE_TYPE(p) ((p) & 7)
#define PIECE_COLOR(p) ((p) >> 3)

#define SQ(file, rank) ((uint8_t)((rank) * 16 + (file)))
#define SQ_FILE(sq) ((sq) & 7)
#define SQ_RANK(sq) ((sq) >> 4)
#define SQ_OFFBOARD(sq) (((sq) & 0x88) != 0)
#define SQ_NONE 0x7F /* off the board: "no square" */
/* 1 for a light square (h1 is light), 0 for a dark one. */
#define SQ_LIGHT(sq) ((SQ_FILE(sq) + SQ_RANK(sq)) & 1)

/* 0x88 square <-> 0..63 (a1 = 0, h8 = 63), for the bits of board_t.men. */
#define SQ64(sq) (((sq) + ((sq) & 7)) >> 1)
/* The dark squares (a1, c1, ..., b2, ...) as bits SQ64. */
#define BOARD_DARK_SQUARES 0xAA55AA55AA55AA55ULL
#define SQ88(i) ((i) + ((i) & ~7))
/* board_t.men index of a man's piece code (not EMPTY): knight, bishop, rook
 * and queen 0..3 white, 4..7 black; pawn 8 white, 9 black; king 10, 11.
 * One load, so that moving a man needs no test of its kind. */
#define MEN_INDEX(pc) (board_men_index[(pc)])
extern const uint8_t board_men_index[16];
/* The same by arithmetic, where the colour is not a constant: the index of
 * a colour's knights (its bishops, rooks and queens follow), and of its
 * pawns.  test_board holds them to the table. */
#define MEN_PIECES(color) ((color) * 4)
#define MEN_PAWNS(color) (8 + (color))
/* The knights, bishops, rooks and queens: men[0..7]. */
#define HAS_MEN(pc) ((unsigned)(((pc) & 7) - KNIGHT) < 4u)

/* Castling rights, one bit each in board_t.castle. */
enum { CASTLE_WK = 1, CASTLE_WQ = 2, CASTLE_BK = 4, CASTLE_BQ = 8 };
/* Index 0..3 of a right (WK, WQ, BK, BQ) in board_t.castle_rook. */
#define CASTLE_INDEX(color, queenside) ((color) * 2 + (queenside))

enum {
    MOVE_CAPTURE = 1, /* takes a piece (en passant included) */
    MOVE_EP = 2,      /* en passant capture */
    MOVE_CASTLE = 4,  /* castling; to is the castling rook's square */
    MOVE_DOUBLE = 8,  /* pawn double step */
    MOVE_NULL = 16    /* a pass: only when the caller allows null moves */
};

/* A move.  Castling is encoded king-takes-own-rook (from = king square,
 * to = rook square) so that Chess960 needs no special case. */
typedef struct move {
    uint8_t from, to; /* 0x88 squares */
    uint8_t promo;    /* piece type promoted to, EMPTY if none */
    uint8_t flags;    /* MOVE_* bits */
} move_t;

/* A move put together in a register.  Assembled field by field, a move
 * may be stored a byte at a time and read back as one word for a call,
 * which stalls the load until the bytes reach memory. */
static inline move_t board_move(unsigned from, unsigned to, unsigned promo, unsigned flags)
{
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    uint32_t word = (from & 0xFF) | (to & 0xFF) << 8 | (promo & 0xFF) << 16 | (flags & 0xFF) << 24;
    move_t m;
    memcpy(&m, &word, sizeof m);
    return m;
#else
    return (move_t){ (uint8_t)from, (uint8_t)to, (uint8_t)promo, (uint8_t)flags };
#endif
}

typedef struct board {
    uint8_t sq[128];        /* piece code per 0x88 square */
    uint64_t men[12];       /* squares of each kind of man by MEN_INDEX(piece code), bit
                               SQ64(sq); kept with sq[] so that the men of a kind are found
                               without a board scan */
    uint64_t occ;           /* every man's square (the union of men[]): lines tested in one AND */
    uint64_t key;           /* Zobrist key (zobrist.h): kept equal to zobrist_compute() */
    uint8_t king[2];        /* king square per colour */
    /* From castle_rook to fullmove: the block board_play() saves whole (keep them together). */
    uint8_t castle_rook[4]; /* rook origin per right (CASTLE_INDEX), SQ_NONE if gone */
    uint8_t castle;         /* remaining rights, CASTLE_* bits; bit set iff castle_rook set */
    uint8_t ep;             /* square skipped by a double step on the last move, SQ_NONE if none;
                               set whether or not a capture is possible */
    bool ep_legal;          /* a legal en passant capture exists now (FIDE 9.2.3) */
    bool in_check;          /* the side to move is in check */
    uint8_t checker;        /* square of the man giving check when exactly one does;
                               SQ_NONE out of check and in double check */
    uint8_t stm;            /* side to move: WHITE or BLACK */
    bool chess960;          /* castling by Chess960 rules, FEN castling in X-/Shredder form */
    uint16_t halfmove;      /* halfmove clock, plies since the last capture or pawn move, 0.. */
    uint16_t fullmove;      /* fullmove number, 1.. */
    uint8_t count[16];      /* pieces on the board, by piece code */
} board_t;

/* Why a FEN was refused; a fixed string, never NULL on error. */
typedef const char *board_error_t;

/* The standard starting position. */
void board_start(board_t *b);

/* Parses a FEN (four to six fields; missing clocks default to 0 and 1) and
 * checks that the position could occur: exactly one king per colour, no pawn
 * on the first or eighth rank, the side not to move not in check, at most
 * 16 pieces and 8 pawns per colour, castling rights backed by a king and
 * rook on their squares, an en passant square behind a pawn that could just
 * have made the double step.  Castling accepts KQkq (for Chess960: the
 * outermost rook, X-FEN) and file letters (Shredder-FEN).  Returns 0, or -1
 * with *why set; *b is undefined after an error. */
int board_from_fen(board_t *b, const char *fen, bool chess960, board_error_t *why);

/* Writes the FEN of b into out (NUL-terminated, at most 100 bytes needed);
 * the en passant field is shown only when a capture is legal, as python-chess
 * does.  Returns the length. */
size_t board_to_fen(const board_t *b, char *out, size_t cap);

/* Applies a legal move m to *from and writes the result to *to (to != from).
 * Updates clocks, castling rights, en passant, counts and the key. */
void board_make_move(const board_t *from, move_t m, board_t *to);

/* The fields of board_t from castle_rook to fullmove (castling, en passant,
 * check, side to move, clocks), which board_play() saves as one block. */
#define BOARD_STATE_FIRST offsetof(board_t, castle_rook)
#define BOARD_STATE_SIZE (offsetof(board_t, fullmove) + sizeof(uint16_t) - offsetof(board_t, castle_rook))

/* What board_play() changed besides the squares, to take a move back. */
typedef struct board_undo {
    uint64_t key;
    uint8_t victim;         /* piece code taken on m.to (en passant: EMPTY), EMPTY if none */
    unsigned char state[BOARD_STATE_SIZE]; /* the block of board_t before the move */
} board_undo_t;

/* The castling rights and the en passant legality before the move. */
static inline uint8_t board_undo_castle(const board_undo_t *u)
{
    return u->state[offsetof(board_t, castle) - BOARD_STATE_FIRST];
}
static inline bool board_undo_ep_legal(const board_undo_t *u)
{
    return u->state[offsetof(board_t, ep_legal) - BOARD_STATE_FIRST] != 0;
}

/* board_make_move() in place, for a caller that keeps one board: plays m
 * (a null move too) on *b and saves in *u what board_unplay() needs. */
void board_play(board_t *b, move_t m, board_undo_t *u);

/* Takes back m, the last move board_play() made on *b, with its *u. */
void board_unplay(board_t *b, move_t m, const board_undo_t *u);

/* Passes the turn (a null move): the clock advances, en passant is cleared. */
void board_make_null(const board_t *from, board_t *to);

/* Geometry of a pair of squares, indexed by BOARD_DELTA(from, to): the
 * difference of two 0x88 squares names their relation uniquely, so one
 * lookup replaces file and rank arithmetic. */
#define BOARD_DELTA(from, to) ((to) - (from) + 119)
extern const int8_t board_ray_step[240];  /* step from `from` towards `to` on a line, 0 if none */
extern const uint8_t board_ray_kinds[240]; /* bit (1 << type) for each of KNIGHT, BISHOP, ROOK,
                                              QUEEN, KING on `from` that reaches `to` on an
                                              empty board */

/* The 0x88 step from square a towards square b when they share a rank,
 * file or diagonal (16, 1, 17, 15 or their negatives), 0 otherwise. */
static inline int board_line_step(int a, int b)
{
    return board_ray_step[BOARD_DELTA(a, b)];
}

/* The eight directions of a line, by BOARD_DELTA(from, to): 0..3 for the
 * steps that raise the square's index (+1, +17, +16, +15), 4..7 for their
 * negatives in the same order (an odd direction is a diagonal); 8 when the
 * squares share no line. */
extern const uint8_t board_ray_dir[240];
#define BOARD_DIR_NONE 8
#define BOARD_DIR_DIAGONAL(d) ((d) & 1)
/* The squares (bits SQ64) from the 0x88 square sq, itself excluded, to the
 * edge of the board in direction d; row BOARD_DIR_NONE is empty. */
extern const uint64_t board_ray_bits[9][128];

/* Bit SQ64(sq) of board_t.men per 0x88 square sq, 0 off the board: one load
 * instead of the arithmetic. */
extern const uint64_t board_sq_bit[128];

/* The squares (bits SQ64) from which a knight, bishop, rook or queen
 * (row type - KNIGHT) reaches the 0x88 square sq on an empty board, by sq:
 * a square set of men narrowed to those in line with sq in one AND. */
extern const uint64_t board_reach_bits[4][128];

/* Index 0..63 of the lowest set bit of x (x != 0), by de Bruijn multiplication. */
extern const uint8_t board_lsb_table[64];
static inline int board_lsb(uint64_t x)
{
#ifdef ARB_HAVE_CTZLL
    return __builtin_ctzll(x); /* one instruction where the compiler has it (configure.ac) */
#else
    return board_lsb_table[((x & (0 - x)) * 0x03f79d71b4cb0a89ULL) >> 58];
#endif
}

/* Index 0..63 of the highest set bit of x (x != 0). */
static inline int board_msb(uint64_t x)
{
#ifdef ARB_HAVE_CLZLL
    return 63 - __builtin_clzll(x);
#else
    x |= x >> 1;
    x |= x >> 2;
    x |= x >> 4;
    x |= x >> 8;
    x |= x >> 16;
    x |= x >> 32;
    return board_lsb(x ^ (x >> 1));
#endif
}

/* The squares strictly between a and b, which share a line (bits SQ64):
 * the ray from a less the ray from b and b itself. */
static inline uint64_t board_between(int a, int b)
{
    int d = board_ray_dir[BOARD_DELTA(a, b)];
    return board_ray_bits[d][a] ^ board_ray_bits[d][b] ^ board_sq_bit[b];
}

/* The nearest to the ray's start of the squares x (x != 0) on a ray in
 * direction d, as a SQ64 index: a ray that raises the index meets its
 * lowest bit first. */
static inline int board_ray_nearest(int d, uint64_t x)
{
    return d < 4 ? board_lsb(x) : board_msb(x);
}

/* The first man met from sq in direction d (a direction of
 * board_ray_dir), given the squares occ taken; -1 if none. */
static inline int board_first_on_ray(int sq, int d, uint64_t occ)
{
    uint64_t x = board_ray_bits[d][sq] & occ;
    return x ? board_ray_nearest(d, x) : -1;
}

/* The men of `color` on the ray from sq in direction d that move along
 * it: queens, and bishops on a diagonal or rooks on a rank or file (none
 * for BOARD_DIR_NONE).  What a pin or a discovered check needs first. */
static inline uint64_t board_ray_sliders(const board_t *b, int color, int sq, int d)
{
    const uint64_t *men = b->men + MEN_PIECES(color);
    return board_ray_bits[d][sq] &
           (men[QUEEN - KNIGHT] | men[BOARD_DIR_DIAGONAL(d) ? BISHOP - KNIGHT : ROOK - KNIGHT]);
}

/* True if the side to move is in check (kept by every board function). */
static inline bool board_in_check(const board_t *b)
{
    return b->in_check;
}

#endif

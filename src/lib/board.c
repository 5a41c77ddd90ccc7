/* board.c: FEN in and out, copy-make move application. */
#include "board.h"

#include <stdio.h>
#include <string.h>

#include "board_play.h"
#include "movegen.h"
#include "zobrist.h"

static const char piece_letters[] = " PNBRQK  pnbrqk";

/* Drawn by walking every step from the centre of the 15x15 difference
 * grid: a knight's eight jumps, a king's eight steps, and each line out to
 * seven squares (the bishop on diagonals, the rook on ranks and files,
 * the queen on both).  Bits: KNIGHT 4, BISHOP 8, ROOK 16, QUEEN 32, KING 64. */
const int8_t board_ray_step[240] = {
    -17,   0,   0,   0,   0,   0,   0, -16,   0,   0,   0,   0,   0,   0, -15,   0,
      0, -17,   0,   0,   0,   0,   0, -16,   0,   0,   0,   0,   0, -15,   0,   0,
      0,   0, -17,   0,   0,   0,   0, -16,   0,   0,   0,   0, -15,   0,   0,   0,
      0,   0,   0, -17,   0,   0,   0, -16,   0,   0,   0, -15,   0,   0,   0,   0,
      0,   0,   0,   0, -17,   0,   0, -16,   0,   0, -15,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0, -17,   0, -16,   0, -15,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0, -17, -16, -15,   0,   0,   0,   0,   0,   0,   0,
     -1,  -1,  -1,  -1,  -1,  -1,  -1,   0,   1,   1,   1,   1,   1,   1,   1,   0,
      0,   0,   0,   0,   0,   0,  15,  16,  17,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,  15,   0,  16,   0,  17,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,  15,   0,   0,  16,   0,   0,  17,   0,   0,   0,   0,   0,
      0,   0,   0,  15,   0,   0,   0,  16,   0,   0,   0,  17,   0,   0,   0,   0,
      0,   0,  15,   0,   0,   0,   0,  16,   0,   0,   0,   0,  17,   0,   0,   0,
      0,  15,   0,   0,   0,   0,   0,  16,   0,   0,   0,   0,   0,  17,   0,   0,
     15,   0,   0,   0,   0,   0,   0,  16,   0,   0,   0,   0,   0,   0,  17,   0,
};

#define SQ_BIT(f, r) [SQ(f, r)] = 1ULL << ((r) * 8 + (f))
#define RANK_BITS(r)                                                                                      \
    SQ_BIT(0, r), SQ_BIT(1, r), SQ_BIT(2, r), SQ_BIT(3, r), SQ_BIT(4, r), SQ_BIT(5, r), SQ_BIT(6, r),     \
        SQ_BIT(7, r)
const uint64_t board_sq_bit[128] = {
    RANK_BITS(0), RANK_BITS(1), RANK_BITS(2), RANK_BITS(3),
    RANK_BITS(4), RANK_BITS(5), RANK_BITS(6), RANK_BITS(7),
};
#undef RANK_BITS
#undef SQ_BIT

/* board_reach_bits: a square's bit when on the board (wrapping shifts kept
 * in range, so that no operand is negative), the squares sharing a
 * diagonal (x - y, then x + y constant: the long diagonals shifted by whole
 * ranks), and a knight's jumps. */
#define BIT_AT(f, r) (((unsigned)(f) < 8u && (unsigned)(r) < 8u) ? 1ULL << ((((r) * 8 + (f)) & 63)) : 0)
#define DIAG_BITS(f, r)                                                                                   \
    (((f) >= (r) ? 0x8040201008040201ULL >> (8 * ((f) - (r)) & 63)                                     \
                 : 0x8040201008040201ULL << (8 * ((r) - (f)) & 63)) |                                   \
     ((f) + (r) >= 7 ? 0x0102040810204080ULL << (8 * ((f) + (r) - 7) & 63)                              \
                     : 0x0102040810204080ULL >> (8 * (7 - (f) - (r)) & 63)))
#define STRAIGHT_BITS(f, r) ((0x0101010101010101ULL << (f)) | (0xFFULL << 8 * (r)))
#define KNIGHT_BITS(f, r)                                                                                 \
    (BIT_AT((f) + 1, (r) + 2) | BIT_AT((f) + 2, (r) + 1) | BIT_AT((f) + 2, (r) - 1) | BIT_AT((f) + 1, (r) - 2) | \
     BIT_AT((f) - 1, (r) - 2) | BIT_AT((f) - 2, (r) - 1) | BIT_AT((f) - 2, (r) + 1) | BIT_AT((f) - 1, (r) + 2))
#define REACH_KNIGHT(f, r) KNIGHT_BITS(f, r)
#define REACH_BISHOP(f, r) (DIAG_BITS(f, r) & ~BIT_AT(f, r))
#define REACH_ROOK(f, r) (STRAIGHT_BITS(f, r) & ~BIT_AT(f, r))
#define REACH_QUEEN(f, r) ((DIAG_BITS(f, r) | STRAIGHT_BITS(f, r)) & ~BIT_AT(f, r))
#define REACH_RANK(kind, r)                                                                               \
    [SQ(0, r)] = kind(0, r), [SQ(1, r)] = kind(1, r), [SQ(2, r)] = kind(2, r), [SQ(3, r)] = kind(3, r),   \
    [SQ(4, r)] = kind(4, r), [SQ(5, r)] = kind(5, r), [SQ(6, r)] = kind(6, r), [SQ(7, r)] = kind(7, r)
#define REACH(kind)                                                                                       \
    { REACH_RANK(kind, 0), REACH_RANK(kind, 1), REACH_RANK(kind, 2), REACH_RANK(kind, 3),               \
      REACH_RANK(kind, 4), REACH_RANK(kind, 5), REACH_RANK(kind, 6), REACH_RANK(kind, 7) }
const uint64_t board_reach_bits[4][128] = {
    REACH(REACH_KNIGHT), REACH(REACH_BISHOP), REACH(REACH_ROOK), REACH(REACH_QUEEN),
};
#undef REACH
#undef REACH_RANK

/* board_ray_bits: seven steps from (f, r) by (df, dr), those off the board
 * dropped by BIT_AT. */
#define RAY_BITS(f, r, df, dr)                                                                            \
    (BIT_AT((f) + (df), (r) + (dr)) | BIT_AT((f) + 2 * (df), (r) + 2 * (dr)) |                            \
     BIT_AT((f) + 3 * (df), (r) + 3 * (dr)) | BIT_AT((f) + 4 * (df), (r) + 4 * (dr)) |                    \
     BIT_AT((f) + 5 * (df), (r) + 5 * (dr)) | BIT_AT((f) + 6 * (df), (r) + 6 * (dr)) |                    \
     BIT_AT((f) + 7 * (df), (r) + 7 * (dr)))
#define RAY_RANK(df, dr, r)                                                                               \
    [SQ(0, r)] = RAY_BITS(0, r, df, dr), [SQ(1, r)] = RAY_BITS(1, r, df, dr),                             \
    [SQ(2, r)] = RAY_BITS(2, r, df, dr), [SQ(3, r)] = RAY_BITS(3, r, df, dr),                             \
    [SQ(4, r)] = RAY_BITS(4, r, df, dr), [SQ(5, r)] = RAY_BITS(5, r, df, dr),                             \
    [SQ(6, r)] = RAY_BITS(6, r, df, dr), [SQ(7, r)] = RAY_BITS(7, r, df, dr)
#define RAY(df, dr)                                                                                       \
    { RAY_RANK(df, dr, 0), RAY_RANK(df, dr, 1), RAY_RANK(df, dr, 2), RAY_RANK(df, dr, 3),               \
      RAY_RANK(df, dr, 4), RAY_RANK(df, dr, 5), RAY_RANK(df, dr, 6), RAY_RANK(df, dr, 7) }
const uint64_t board_ray_bits[9][128] = {
    RAY(1, 0), RAY(1, 1), RAY(0, 1), RAY(-1, 1), RAY(-1, 0), RAY(-1, -1), RAY(0, -1), RAY(1, -1), { 0 },
};
#undef RAY
#undef RAY_RANK
#undef RAY_BITS

/* board_ray_dir: the direction of a file and rank difference (df, dr),
 * in the order of board_ray_bits' rows. */
#define DIR_OF(df, dr)                                                                                    \
    ((dr) == 0 && (df) > 0     ? 0                                                                       \
     : (df) == (dr) && (df) > 0  ? 1                                                                       \
     : (df) == 0 && (dr) > 0     ? 2                                                                       \
     : (df) == -(dr) && (dr) > 0 ? 3                                                                       \
     : (dr) == 0 && (df) < 0     ? 4                                                                       \
     : (df) == (dr) && (df) < 0  ? 5                                                                       \
     : (df) == 0 && (dr) < 0     ? 6                                                                       \
     : (df) == -(dr) && (dr) < 0 ? 7                                                                       \
                                 : BOARD_DIR_NONE)
#define DIR_AT(df, dr) [119 + (dr) * 16 + (df)] = DIR_OF(df, dr)
#define DIR_ROW(dr)                                                                                       \
    DIR_AT(-7, dr), DIR_AT(-6, dr), DIR_AT(-5, dr), DIR_AT(-4, dr), DIR_AT(-3, dr), DIR_AT(-2, dr),       \
        DIR_AT(-1, dr), DIR_AT(0, dr), DIR_AT(1, dr), DIR_AT(2, dr), DIR_AT(3, dr), DIR_AT(4, dr),         \
        DIR_AT(5, dr), DIR_AT(6, dr), DIR_AT(7, dr)
const uint8_t board_ray_dir[240] = {
    DIR_ROW(-7), DIR_ROW(-6), DIR_ROW(-5), DIR_ROW(-4), DIR_ROW(-3), DIR_ROW(-2), DIR_ROW(-1), DIR_ROW(0),
    DIR_ROW(1),  DIR_ROW(2),  DIR_ROW(3),  DIR_ROW(4),  DIR_ROW(5),  DIR_ROW(6),  DIR_ROW(7),
};
#undef DIR_ROW
#undef DIR_AT
#undef DIR_OF
#undef REACH_QUEEN
#undef REACH_ROOK
#undef REACH_BISHOP
#undef REACH_KNIGHT
#undef KNIGHT_BITS
#undef STRAIGHT_BITS
#undef DIAG_BITS
#undef BIT_AT

const uint8_t board_men_index[16] = {
    [PIECE(WHITE, KNIGHT)] = 0, [PIECE(WHITE, BISHOP)] = 1, [PIECE(WHITE, ROOK)] = 2, [PIECE(WHITE, QUEEN)] = 3,
    [PIECE(BLACK, KNIGHT)] = 4, [PIECE(BLACK, BISHOP)] = 5, [PIECE(BLACK, ROOK)] = 6, [PIECE(BLACK, QUEEN)] = 7,
    [PIECE(WHITE, PAWN)] = 8,   [PIECE(BLACK, PAWN)] = 9,   [PIECE(WHITE, KING)] = 10,  [PIECE(BLACK, KING)] = 11,
};

const uint8_t board_lsb_table[64] = {
    0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4,
    62, 55, 59, 36, 53, 51, 43, 22, 45, 39, 33, 30, 24, 18, 12, 5,
    63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44, 32, 23, 11,
    46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6,
};

const uint8_t board_ray_kinds[240] = {
     40,   0,   0,   0,   0,   0,   0,  48,   0,   0,   0,   0,   0,   0,  40,   0,
      0,  40,   0,   0,   0,   0,   0,  48,   0,   0,   0,   0,   0,  40,   0,   0,
      0,   0,  40,   0,   0,   0,   0,  48,   0,   0,   0,   0,  40,   0,   0,   0,
      0,   0,   0,  40,   0,   0,   0,  48,   0,   0,   0,  40,   0,   0,   0,   0,
      0,   0,   0,   0,  40,   0,   0,  48,   0,   0,  40,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,  40,   4,  48,   4,  40,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   4, 104, 112, 104,   4,   0,   0,   0,   0,   0,   0,
     48,  48,  48,  48,  48,  48, 112,   0, 112,  48,  48,  48,  48,  48,  48,   0,
      0,   0,   0,   0,   0,   4, 104, 112, 104,   4,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,  40,   4,  48,   4,  40,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,  40,   0,   0,  48,   0,   0,  40,   0,   0,   0,   0,   0,
      0,   0,   0,  40,   0,   0,   0,  48,   0,   0,   0,  40,   0,   0,   0,   0,
      0,   0,  40,   0,   0,   0,   0,  48,   0,   0,   0,   0,  40,   0,   0,   0,
      0,  40,   0,   0,   0,   0,   0,  48,   0,   0,   0,   0,   0,  40,   0,   0,
     40,   0,   0,   0,   0,   0,   0,  48,   0,   0,   0,   0,   0,   0,  40,   0,
};

static int piece_from_letter(char c)
{
    const char *p = strchr(piece_letters, c);
    if (c == ' ' || c == '\0' || p == NULL)
        return EMPTY;
    return (int)(p - piece_letters);
}

static void board_clear(board_t *b)
{
    memset(b, 0, sizeof *b);
    b->king[WHITE] = b->king[BLACK] = SQ_NONE;
    memset(b->castle_rook, SQ_NONE, sizeof b->castle_rook);
    b->ep = SQ_NONE;
    b->checker = SQ_NONE;
    b->fullmove = 1;
}

void board_start(board_t *b)
{
    board_error_t why;
    int rc = board_from_fen(b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false, &why);
    (void)rc;
}

/* The rook a castling letter names.  K/Q mean the outermost rook on that
 * side of the king (X-FEN); a file letter names the rook's file
 * (Shredder-FEN).  Returns the index (CASTLE_INDEX) or -1. */
static int castle_from_letter(board_t *b, char c, board_error_t *why)
{
    int color = (c >= 'a' && c <= 'z') ? BLACK : WHITE;
    char u = (char)(color == BLACK ? c - 'a' + 'A' : c);
    int rank = color == WHITE ? 0 : 7;
    int ksq = b->king[color];
    uint8_t rook = PIECE(color, ROOK);
    if (ksq == SQ_NONE || SQ_RANK(ksq) != rank) {
        *why = "castling rights without the king on its first rank";
        return -1;
    }
    int kf = SQ_FILE(ksq), rook_file = -1;
    if (u == 'K') {
        for (int f = 7; f > kf; f--)
            if (b->sq[SQ(f, rank)] == rook) { rook_file = f; break; }
    } else if (u == 'Q') {
        for (int f = 0; f < kf; f++)
            if (b->sq[SQ(f, rank)] == rook) { rook_file = f; break; }
    } else if (u >= 'A' && u <= 'H') {
        rook_file = u - 'A';
        if (b->sq[SQ(rook_file, rank)] != rook) {
            *why = "castling right names a file without a rook";
            return -1;
        }
    } else {
        *why = "bad character in the castling field";
        return -1;
    }
    if (rook_file < 0 || rook_file == kf) {
        *why = "castling rights without a rook to castle with";
        return -1;
    }
    /* Standard chess: king on e, rook on a or h. */
    if (!b->chess960 && (kf != 4 || (rook_file != 0 && rook_file != 7))) {
        *why = "castling rights without king and rook on their original squares";
        return -1;
    }
    int idx = CASTLE_INDEX(color, rook_file < kf);
    if (b->castle & (1 << idx)) {
        *why = "castling right given twice";
        return -1;
    }
    b->castle_rook[idx] = (uint8_t)SQ(rook_file, rank);
    b->castle |= (uint8_t)(1 << idx);
    return idx;
}

static int parse_uint(const char **p, unsigned max, unsigned *out)
{
    const char *s = *p;
    unsigned v = 0;
    if (*s < '0' || *s > '9')
        return -1;
    while (*s >= '0' && *s <= '9') {
        v = v * 10 + (unsigned)(*s - '0');
        if (v > max)
            return -1;
        s++;
    }
    *p = s;
    *out = v;
    return 0;
}

/* Pieces of the other side giving check to color's king: direct attacks
 * and the first piece along each line (a slider behind its own man does
 * not count). */
static int checkers_of(const board_t *b, int color, int *last)
{
    static const int knight[8] = { 33, 31, 18, 14, -14, -18, -31, -33 };
    static const int lines[8] = { 17, 15, -15, -17, 16, 1, -1, -16 };
    int ksq = b->king[color], them = !color, n = 0;
    int up = color == WHITE ? 16 : -16; /* enemy pawns attack from in front of the king */
    for (int side = -1; side <= 1; side += 2) {
        int sq = ksq + up + side;
        if (!SQ_OFFBOARD(sq) && b->sq[sq] == PIECE(them, PAWN)) {
            n++;
            *last = sq;
        }
    }
    for (int i = 0; i < 8; i++) {
        int sq = ksq + knight[i];
        if (!SQ_OFFBOARD(sq) && b->sq[sq] == PIECE(them, KNIGHT)) {
            n++;
            *last = sq;
        }
    }
    for (int i = 0; i < 8; i++) {
        uint8_t slider = PIECE(them, i < 4 ? BISHOP : ROOK), queen = PIECE(them, QUEEN);
        for (int sq = ksq + lines[i]; !SQ_OFFBOARD(sq); sq += lines[i]) {
            if (b->sq[sq] == EMPTY)
                continue;
            if (b->sq[sq] == slider || b->sq[sq] == queen) {
                n++;
                *last = sq;
            }
            break;
        }
    }
    return n;
}

int board_from_fen(board_t *b, const char *fen, bool chess960, board_error_t *why)
{
    board_clear(b);
    b->chess960 = chess960;
    const char *p = fen;
    while (*p == ' ' || *p == '\t')
        p++;

    /* Piece placement, rank 8 first. */
    int rank = 7, file = 0;
    for (;; p++) {
        char c = *p;
        if (c == '/') {
            if (file != 8 || rank == 0) { *why = "a rank of the FEN does not have 8 files"; return -1; }
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) { *why = "a rank of the FEN has more than 8 files"; return -1; }
        } else if (c == ' ' || c == '\0') {
            break;
        } else {
            int pc = piece_from_letter(c);
            if (pc == EMPTY) { *why = "bad character in the piece placement"; return -1; }
            if (file >= 8) { *why = "a rank of the FEN has more than 8 files"; return -1; }
            int sq = SQ(file, rank);
            b->sq[sq] = (uint8_t)pc;
            b->men[MEN_INDEX(pc)] |= 1ULL << SQ64(sq);
            b->occ |= 1ULL << SQ64(sq);
            b->count[pc]++;
            if (PIECE_TYPE(pc) == KING) {
                if (b->king[PIECE_COLOR(pc)] != SQ_NONE) { *why = "more than one king of a colour"; return -1; }
                b->king[PIECE_COLOR(pc)] = (uint8_t)sq;
            }
            file++;
        }
    }
    if (rank != 0 || file != 8) { *why = "the piece placement does not have 8 ranks of 8 files"; return -1; }
    if (b->king[WHITE] == SQ_NONE || b->king[BLACK] == SQ_NONE) { *why = "a king is missing"; return -1; }

    /* Side to move. */
    if (*p != ' ') { *why = "the FEN has no side to move"; return -1; }
    while (*p == ' ') p++;
    if (*p == 'w') b->stm = WHITE;
    else if (*p == 'b') b->stm = BLACK;
    else { *why = "the side to move is not w or b"; return -1; }
    p++;

    /* Castling. */
    if (*p != ' ') { *why = "the FEN has no castling field"; return -1; }
    while (*p == ' ') p++;
    if (*p == '-') {
        p++;
    } else {
        for (; *p && *p != ' '; p++)
            if (castle_from_letter(b, *p, why) < 0)
                return -1;
    }

    /* En passant. */
    if (*p != ' ') { *why = "the FEN has no en passant field"; return -1; }
    while (*p == ' ') p++;
    if (*p == '-') {
        p++;
    } else {
        if (p[0] < 'a' || p[0] > 'h' || p[1] < '1' || p[1] > '8') { *why = "bad en passant square"; return -1; }
        b->ep = SQ(p[0] - 'a', p[1] - '1');
        p += 2;
    }

    /* Clocks, optional. */
    while (*p == ' ') p++;
    if (*p) {
        unsigned v;
        if (parse_uint(&p, 65535, &v) < 0) { *why = "bad halfmove clock"; return -1; }
        b->halfmove = (uint16_t)v;
        while (*p == ' ') p++;
        if (*p) {
            if (parse_uint(&p, 65535, &v) < 0) { *why = "bad fullmove number"; return -1; }
            b->fullmove = (uint16_t)(v == 0 ? 1 : v);
            while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
            if (*p) { *why = "text after the FEN's last field"; return -1; }
        }
    }

    /* Could this position occur in a game? */
    for (int color = WHITE; color <= BLACK; color++) {
        int pieces = 0;
        for (int t = PAWN; t <= KING; t++)
            pieces += b->count[PIECE(color, t)];
        if (pieces > 16) { *why = "more than 16 pieces of a colour"; return -1; }
        if (b->count[PIECE(color, PAWN)] > 8) { *why = "more than 8 pawns of a colour"; return -1; }
    }
    for (int f = 0; f < 8; f++) {
        if (PIECE_TYPE(b->sq[SQ(f, 0)]) == PAWN || PIECE_TYPE(b->sq[SQ(f, 7)]) == PAWN) {
            *why = "a pawn on the first or eighth rank";
            return -1;
        }
    }
    if (movegen_attacked(b, b->king[!b->stm], b->stm)) { *why = "the side not to move is in check"; return -1; }
    int checker = SQ_NONE, checkers = checkers_of(b, b->stm, &checker);
    if (checkers > 2) { *why = "more than two pieces give check"; return -1; }
    if (b->ep != SQ_NONE) {
        int us = b->stm;
        int ep_rank = us == WHITE ? 5 : 2;
        int dir = us == WHITE ? -16 : 16;          /* from the ep square towards the pawn */
        if (SQ_RANK(b->ep) != ep_rank || b->sq[b->ep + dir] != PIECE(!us, PAWN) ||
            b->sq[b->ep] != EMPTY || b->sq[b->ep - dir] != EMPTY) {
            *why = "en passant square without a pawn that just made a double step";
            return -1;
        }
        /* The square says the last move was a pawn's double step, which
         * sets the halfmove clock to 0: a FEN cannot have both. */
        if (b->halfmove != 0) {
            *why = "en passant square after a double step, but a halfmove clock that is not 0";
            return -1;
        }
        b->ep_legal = movegen_ep_capture_legal(b);
    }
    b->in_check = movegen_attacked(b, b->king[b->stm], !b->stm);
    b->checker = (uint8_t)(checkers == 1 ? checker : SQ_NONE);
    b->key = zobrist_compute(b);
    return 0;
}

size_t board_to_fen(const board_t *b, char *out, size_t cap)
{
    char buf[128];
    size_t n = 0;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            uint8_t pc = b->sq[SQ(file, rank)];
            if (pc == EMPTY) {
                empty++;
                continue;
            }
            if (empty) buf[n++] = (char)('0' + empty);
            empty = 0;
            buf[n++] = piece_letters[pc];
        }
        if (empty) buf[n++] = (char)('0' + empty);
        if (rank) buf[n++] = '/';
    }
    buf[n++] = ' ';
    buf[n++] = b->stm == WHITE ? 'w' : 'b';
    buf[n++] = ' ';
    if (!b->castle) buf[n++] = '-';
    for (int idx = 0; idx < 4; idx++) {
        if (!(b->castle & (1 << idx)))
            continue;
        int color = idx / 2, queenside = idx % 2;
        int rf = SQ_FILE(b->castle_rook[idx]);
        char c = queenside ? 'Q' : 'K';
        if (b->chess960) {
            /* X-FEN: K/Q for the outermost rook, its file letter otherwise. */
            int kf = SQ_FILE(b->king[color]), rank = color == WHITE ? 0 : 7;
            for (int f = queenside ? 0 : 7; f != rf; f += queenside ? 1 : -1)
                if (b->sq[SQ(f, rank)] == PIECE(color, ROOK) && (queenside ? f < kf : f > kf))
                    c = (char)('A' + rf);
        }
        buf[n++] = color == WHITE ? c : (char)(c - 'A' + 'a');
    }
    buf[n++] = ' ';
    if (b->ep_legal) {
        buf[n++] = (char)('a' + SQ_FILE(b->ep));
        buf[n++] = (char)('1' + SQ_RANK(b->ep));
    } else {
        buf[n++] = '-';
    }
    n += (size_t)snprintf(buf + n, sizeof buf - n, " %u %u", (unsigned)b->halfmove, (unsigned)b->fullmove);
    if (cap) {
        size_t k = n < cap - 1 ? n : cap - 1;
        memcpy(out, buf, k);
        out[k] = '\0';
    }
    return n;
}

/* Piece placement helpers keeping key and counts in step. */
static inline void put(board_t *b, int sq, uint8_t pc, uint64_t *key)
{
    b->sq[sq] = pc;
    b->men[MEN_INDEX(pc)] ^= board_sq_bit[sq];
    b->occ ^= board_sq_bit[sq];
    *key ^= zobrist_piece[pc][sq];
}

static inline void lift(board_t *b, int sq, uint64_t *key)
{
    uint8_t pc = b->sq[sq];
    *key ^= zobrist_piece[pc][sq];
    b->men[MEN_INDEX(pc)] ^= board_sq_bit[sq];
    b->occ ^= board_sq_bit[sq];
    b->sq[sq] = EMPTY;
}

/* Drops the castling rights whose rook stood on sq (moved or captured). */
static inline void drop_rights_on(board_t *b, int sq)
{
    for (int i = 0; i < 4; i++) {
        if (b->castle_rook[i] == sq) {
            b->castle_rook[i] = SQ_NONE;
            b->castle &= (uint8_t)~(1 << i);
        }
    }
}

static void drop_rights_of(board_t *b, int color)
{
    for (int q = 0; q < 2; q++) {
        int i = CASTLE_INDEX(color, q);
        b->castle_rook[i] = SQ_NONE;
        b->castle &= (uint8_t)~(1 << i);
    }
}

/* The en passant part of a successor: after a double step, is the capture
 * legal (FIDE 9.2.3)?  Returns the key with the file added if so. */
static uint64_t settle_ep(board_t *to, uint64_t key)
{
    int them = to->stm;
    /* Only worth the full test when an enemy pawn stands beside the pawn. */
    int pawn_sq = to->ep + (them == WHITE ? -16 : 16);
    uint8_t theirs = PIECE(them, PAWN);
    if ((!SQ_OFFBOARD(pawn_sq - 1) && to->sq[pawn_sq - 1] == theirs) ||
        (!SQ_OFFBOARD(pawn_sq + 1) && to->sq[pawn_sq + 1] == theirs)) {
        to->ep_legal = movegen_ep_capture_legal(to);
        if (to->ep_legal)
            key ^= zobrist_ep[SQ_FILE(to->ep)];
    }
    return key;
}

/* board_make_null() in place. */
static void play_null(board_t *b)
{
    uint64_t key = b->key ^ zobrist_black;
    if (b->ep_legal)
        key ^= zobrist_ep[SQ_FILE(b->ep)];
    b->ep = SQ_NONE;
    b->ep_legal = false;
    b->halfmove = (uint16_t)(b->halfmove < UINT16_MAX ? b->halfmove + 1 : UINT16_MAX);
    if (b->stm == BLACK)
        b->fullmove++;
    b->stm = (uint8_t)!b->stm;
    b->in_check = false; /* a pass is allowed only out of check, and the other side was not in check */
    b->checker = SQ_NONE;
    b->key = key;
}

/* board_play() for any move but a null move: castling, en passant and
 * promotion too, in place. */
static void play_any(board_t *b, move_t m)
{
    int us = b->stm, them = !us;
    uint8_t castle = b->castle;
    /* The other side moves; an en passant chance lapses. */
    uint64_t key = b->key ^ zobrist_black;
    if (b->ep_legal)
        key ^= zobrist_ep[SQ_FILE(b->ep)];
    b->ep = SQ_NONE;
    b->halfmove = (uint16_t)(b->halfmove < UINT16_MAX ? b->halfmove + 1 : UINT16_MAX);
    int landed, v1, v2 = -1; /* where a checking man may stand, squares left empty */

    if (m.flags & MOVE_CASTLE) {
        int kfrom = m.from, rfrom = m.to, rank = SQ_RANK(kfrom);
        bool queenside = SQ_FILE(rfrom) < SQ_FILE(kfrom);
        int kto = SQ(queenside ? 2 : 6, rank), rto = SQ(queenside ? 3 : 5, rank);
        uint8_t king = b->sq[kfrom], rook = b->sq[rfrom];
        lift(b, kfrom, &key);
        lift(b, rfrom, &key);
        put(b, kto, king, &key);
        put(b, rto, rook, &key);
        b->king[us] = (uint8_t)kto;
        drop_rights_of(b, us);
        landed = rto;
        v1 = kfrom;
        v2 = rfrom;
    } else {
        uint8_t piece = b->sq[m.from];
        if (m.flags & MOVE_CAPTURE) {
            int cap = m.to;
            if (m.flags & MOVE_EP) {
                cap = SQ(SQ_FILE(m.to), SQ_RANK(m.from));
                v2 = cap;
            }
            b->count[b->sq[cap]]--;
            lift(b, cap, &key);
            b->halfmove = 0;
        }
        lift(b, m.from, &key);
        if (m.promo) {
            uint8_t np = PIECE(us, m.promo);
            b->count[piece]--;
            b->count[np]++;
            put(b, m.to, np, &key);
        } else {
            put(b, m.to, piece, &key);
        }
        switch (PIECE_TYPE(piece)) {
        case PAWN:
            b->halfmove = 0;
            if (m.flags & MOVE_DOUBLE)
                b->ep = (uint8_t)((m.from + m.to) / 2);
            break;
        case KING:
            b->king[us] = m.to;
            drop_rights_of(b, us);
            break;
        default:
            break;
        }
        /* Castling rooks stand on the first or last rank. */
        if (b->castle && (!(m.from & 0x70) || (m.from & 0x70) == 0x70 || !(m.to & 0x70) || (m.to & 0x70) == 0x70)) {
            drop_rights_on(b, m.from);
            drop_rights_on(b, m.to);
        }
        landed = m.to;
        v1 = m.from;
    }
    if (b->castle != castle)
        key ^= zobrist_castle[castle] ^ zobrist_castle[b->castle];

    /* Check, from the piece that landed and lines through vacated squares. */
    int ksq = b->king[them];
    int c1 = board_piece_attacks(b, landed, ksq) ? landed : -1;
    int c2 = board_discovered(b, ksq, v1, us), c3 = board_discovered(b, ksq, v2, us);
    b->in_check = c1 >= 0 || c2 >= 0 || c3 >= 0;
    b->checker = SQ_NONE;
    if (b->in_check) {
        /* The same man may be found twice (a rook moving along the line it
         * uncovers, en passant uncovering one rank twice). */
        if (c2 == c1 || c2 == c3)
            c2 = -1;
        if (c3 == c1)
            c3 = -1;
        int n = (c1 >= 0) + (c2 >= 0) + (c3 >= 0);
        if (n == 1)
            b->checker = (uint8_t)(c1 >= 0 ? c1 : c2 >= 0 ? c2 : c3);
    }
    b->stm = (uint8_t)them;
    if (us == BLACK)
        b->fullmove++;
    b->ep_legal = false;
    if (b->ep != SQ_NONE)
        key = settle_ep(b, key);
    b->key = key;
}

void board_make_move(const board_t *from, move_t m, board_t *to)
{
    board_undo_t u;
    *to = *from;
    board_play(to, m, &u);
}

/* board_play() for castling, en passant, promotion and null moves: kept
 * out of the plain path so that it needs no stack frame. */
ARB_NOINLINE void board_play_general(board_t *b, move_t m)
{
    if (m.flags & MOVE_NULL)
        play_null(b);
    else
        play_any(b, m);
}

/* The end of a plain move that was a double step: the en passant part of
 * the key, out of line. */
ARB_NOINLINE void board_play_ep(board_t *b)
{
    b->key = settle_ep(b, b->key);
}

/* The castling rights that a plain move of us from f to t takes away: all
 * of its own when the king moves, and each whose rook stood on f or t;
 * the key follows.  Out of line, as most moves change none. */
ARB_NOINLINE void board_play_rights(board_t *b, int us, int f, int t, bool king)
{
    uint8_t castle = b->castle;
    if (king)
        drop_rights_of(b, us);
    drop_rights_on(b, f);
    drop_rights_on(b, t);
    b->key ^= zobrist_castle[castle] ^ zobrist_castle[b->castle];
}

void board_play(board_t *b, move_t m, board_undo_t *u)
{
    board_play_inline(b, m, u);
}

/* Sets square sq to pc, keeping the square sets (not the counts or key). */
static void place(board_t *b, int sq, uint8_t pc)
{
    uint64_t bit = board_sq_bit[sq];
    if (b->sq[sq] != EMPTY)
        b->men[MEN_INDEX(b->sq[sq])] ^= bit;
    b->occ &= ~bit;
    if (pc != EMPTY) {
        b->men[MEN_INDEX(pc)] ^= bit;
        b->occ |= bit;
    }
    b->sq[sq] = pc;
}

void board_unplay(board_t *b, move_t m, const board_undo_t *u)
{
    int us = !b->stm, them = b->stm;
    if (m.flags & MOVE_CASTLE) {
        int kfrom = m.from, rfrom = m.to, rank = SQ_RANK(kfrom);
        bool queenside = SQ_FILE(rfrom) < SQ_FILE(kfrom);
        int kto = SQ(queenside ? 2 : 6, rank), rto = SQ(queenside ? 3 : 5, rank);
        place(b, kto, EMPTY);
        place(b, rto, EMPTY);
        place(b, kfrom, PIECE(us, KING));
        place(b, rfrom, PIECE(us, ROOK));
        b->king[us] = (uint8_t)kfrom;
    } else if (!(m.flags & MOVE_NULL)) {
        uint8_t pc = b->sq[m.to];
        if (m.promo) {
            b->count[pc]--;
            pc = PIECE(us, PAWN);
            b->count[pc]++;
        }
        place(b, m.to, u->victim);
        place(b, m.from, pc);
        if (u->victim != EMPTY)
            b->count[u->victim]++;
        if (m.flags & MOVE_EP) {
            uint8_t pawn = PIECE(them, PAWN);
            place(b, SQ(SQ_FILE(m.to), SQ_RANK(m.from)), pawn);
            b->count[pawn]++;
        }
        if (PIECE_TYPE(pc) == KING)
            b->king[us] = m.from;
    }
    b->key = u->key;
    memcpy((unsigned char *)b + BOARD_STATE_FIRST, u->state, BOARD_STATE_SIZE);
    b->stm = (uint8_t)us;
}

void board_make_null(const board_t *from, board_t *to)
{
    *to = *from;
    play_null(to);
}

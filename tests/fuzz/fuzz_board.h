/* fuzz_board.h: consistency checks of a position, for the board-level
 * harnesses (fuzz_fen, fuzz_san). */
#ifndef ARB_FUZZ_BOARD_H
#define ARB_FUZZ_BOARD_H

#include "board.h"
#include "fuzz.h"
#include "movegen.h"
#include "san.h"
#include "zobrist.h"

/* Whether the man on `from` attacks `to` on this board, from first
 * principles (0x88 steps and rays), independent of movegen. */
static inline bool fuzz_man_attacks(const board_t *b, int from, int to)
{
    static const int knight[8] = { 33, 31, 18, 14, -14, -18, -31, -33 };
    static const int king[8] = { 17, 16, 15, 1, -1, -15, -16, -17 };
    uint8_t pc = b->sq[from];
    int type = PIECE_TYPE(pc), d = to - from;
    if (type == PAWN)
        return PIECE_COLOR(pc) == WHITE ? (d == 15 || d == 17) : (d == -15 || d == -17);
    if (type == KNIGHT || type == KING) {
        const int *steps = type == KNIGHT ? knight : king;
        for (int i = 0; i < 8; i++)
            if (d == steps[i])
                return true;
        return false;
    }
    for (int i = 0; i < 8; i++) {
        bool diagonal = king[i] == 17 || king[i] == 15 || king[i] == -15 || king[i] == -17;
        if ((type == BISHOP && !diagonal) || (type == ROOK && diagonal))
            continue;
        for (int sq = from + king[i]; !SQ_OFFBOARD(sq); sq += king[i]) {
            if (sq == to)
                return true;
            if (b->sq[sq] != EMPTY)
                break;
        }
    }
    return false;
}

/* What board.h promises of every board it hands out. */
static inline void fuzz_check_board(const board_t *b)
{
    uint8_t count[16] = { 0 };
    for (int sq = 0; sq < 128; sq++) {
        if (SQ_OFFBOARD(sq))
            continue;
        uint8_t pc = b->sq[sq];
        FUZZ_CHECK(pc == EMPTY || (PIECE_TYPE(pc) >= PAWN && PIECE_TYPE(pc) <= KING && pc < 16), "piece code %u on %d",
                   (unsigned)pc, sq);
        count[pc]++;
    }
    for (int pc = 1; pc < 16; pc++)
        FUZZ_CHECK(count[pc] == b->count[pc], "count of piece %d: %u on the board, %u counted", pc,
                   (unsigned)count[pc], (unsigned)b->count[pc]);
    /* The square sets of the knights, bishops, rooks and queens are sq[]. */
    uint64_t men[8] = { 0 };
    for (int sq = 0; sq < 128; sq++)
        if (!SQ_OFFBOARD(sq) && b->sq[sq] != EMPTY && HAS_MEN(b->sq[sq]))
            men[MEN_INDEX(b->sq[sq])] |= 1ULL << SQ64(sq);
    for (int i = 0; i < 8; i++)
        FUZZ_CHECK(men[i] == b->men[i], "men[%d] is %llx, the board says %llx", i, (unsigned long long)b->men[i],
                   (unsigned long long)men[i]);
    FUZZ_CHECK(b->stm == WHITE || b->stm == BLACK, "stm %u", (unsigned)b->stm);
    for (int c = WHITE; c <= BLACK; c++)
        FUZZ_CHECK(!SQ_OFFBOARD(b->king[c]) && b->sq[b->king[c]] == PIECE(c, KING) && count[PIECE(c, KING)] == 1,
                   "king of colour %d", c);
    for (int i = 0; i < 4; i++) {
        bool has = b->castle & (1 << i);
        FUZZ_CHECK(has == (b->castle_rook[i] != SQ_NONE), "castling right %d and its rook disagree", i);
        if (has)
            FUZZ_CHECK(b->sq[b->castle_rook[i]] == PIECE(i / 2, ROOK) && SQ_RANK(b->castle_rook[i]) == (i / 2 ? 7 : 0) &&
                           SQ_RANK(b->king[i / 2]) == (i / 2 ? 7 : 0),
                       "castling right %d without its rook or king", i);
    }
    FUZZ_CHECK(b->castle < 16, "castle %u", (unsigned)b->castle);
    FUZZ_CHECK(b->in_check == movegen_attacked(b, b->king[b->stm], !b->stm), "in_check is stale");
    /* checker: the one man giving check, SQ_NONE out of check or in double check. */
    int checkers = 0;
    uint8_t one = SQ_NONE;
    for (int sq = 0; sq < 128; sq++) {
        if (SQ_OFFBOARD(sq) || b->sq[sq] == EMPTY || PIECE_COLOR(b->sq[sq]) == b->stm)
            continue;
        if (fuzz_man_attacks(b, sq, b->king[b->stm])) {
            checkers++;
            one = (uint8_t)sq;
        }
    }
    FUZZ_CHECK(b->checker == (checkers == 1 ? one : SQ_NONE), "checker %u, %d checkers (one on %u)",
               (unsigned)b->checker, checkers, (unsigned)one);
    FUZZ_CHECK(!movegen_attacked(b, b->king[!b->stm], b->stm), "the side not to move is in check");
    FUZZ_CHECK(b->ep == SQ_NONE || (!SQ_OFFBOARD(b->ep) && SQ_RANK(b->ep) == (b->stm == WHITE ? 5 : 2)),
               "en passant square %u", (unsigned)b->ep);
    FUZZ_CHECK(b->ep_legal == (b->ep != SQ_NONE && movegen_ep_capture_legal(b)), "ep_legal is stale");
    FUZZ_CHECK(b->key == zobrist_compute(b), "the key is not zobrist_compute()");
    FUZZ_CHECK(b->fullmove >= 1, "fullmove 0");
}

/* Whether m is in list[0..n). */
static inline bool fuzz_move_in(const move_t *list, int n, move_t m)
{
    for (int i = 0; i < n; i++)
        if (list[i].from == m.from && list[i].to == m.to && list[i].promo == m.promo && list[i].flags == m.flags)
            return true;
    return false;
}

/* The SAN of a legal move reads back as that move. */
static inline void fuzz_check_san_roundtrip(const board_t *b, move_t m)
{
    char *san = malloc(8); /* exactly what san.h asks for */
    if (!san)
        abort();
    size_t n = san_format(b, m, san);
    FUZZ_CHECK(n < 8 && strlen(san) == n, "san_format wrote %zu bytes", n);
    san_syntax_t s;
    FUZZ_CHECK(san_parse(san, n, &s) == 0, "san_parse refuses san_format's \"%s\"", san);
    move_t back;
    char why[160];
    enum san_status st = san_resolve(b, &s, &back, why, sizeof why);
    FUZZ_CHECK(st == SAN_OK, "\"%s\" does not resolve: %s", san, why);
    FUZZ_CHECK(back.from == m.from && back.to == m.to && back.promo == m.promo && back.flags == m.flags,
               "\"%s\" resolves to %d-%d=%d/%d, not %d-%d=%d/%d", san, back.from, back.to, back.promo, back.flags,
               m.from, m.to, m.promo, m.flags);
    /* + and # as the position says. */
    board_t next;
    board_make_move(b, m, &next);
    char last = san[n - 1];
    if (!next.in_check)
        FUZZ_CHECK(last != '+' && last != '#', "\"%s\" marks check where there is none", san);
    else
        FUZZ_CHECK(last == (movegen_has_legal(&next) ? '+' : '#'), "\"%s\" marks check or mate wrongly", san);
    free(san);
}

/* Every legal move: its SAN round-trips and its successor is consistent.
 * Returns the number of legal moves. */
static inline int fuzz_check_moves(const board_t *b, move_t moves[MAX_MOVES])
{
    int n = movegen_legal(b, moves);
    FUZZ_CHECK(n >= 0 && n <= 218, "%d legal moves", n);
    FUZZ_CHECK(movegen_has_legal(b) == (n > 0), "movegen_has_legal disagrees with movegen_legal (%d)", n);
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(movegen_is_legal(b, moves[i]), "movegen_is_legal refuses a legal move");
        for (int j = 0; j < i; j++)
            FUZZ_CHECK(moves[j].from != moves[i].from || moves[j].to != moves[i].to || moves[j].promo != moves[i].promo,
                       "move %d listed twice", i);
        board_t next;
        board_make_move(b, moves[i], &next);
        fuzz_check_board(&next);
        FUZZ_CHECK(next.stm != b->stm, "the side to move did not change");
        fuzz_check_san_roundtrip(b, moves[i]);
    }
    return n;
}

#endif

/* test_movegen.c: legal moves, attacks and perft (movegen.h).
 *
 * Perft values: chessprogramming.org "Perft Results" (positions 1..6), and
 * python-chess's examples/perft files (tricky.perft, chess960.perft) as
 * bundled in tests/data/. */
#include "testutil.h"

/* ---- perft -------------------------------------------------------------- */

typedef struct {
    const char *name, *fen;
    bool c960;
    uint64_t nodes[6]; /* depth 1.., 0 ends the list */
} perft_case_t;

static const perft_case_t perft_cases[] = {
    {"start", TU_START_FEN, false, {20, 400, 8902, 197281, 4865609}},
    {"kiwipete", TU_KIWIPETE_FEN, false,
     {48, 2039, 97862, 4085603}},
    {"pos3", TU_PERFT3_FEN, false, {14, 191, 2812, 43238, 674624}},
    {"pos4", TU_PERFT4_FEN, false, {6, 264, 9467, 422333}},
    {"pos4-mirrored", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", false, {6, 264, 9467, 422333}},
    {"pos5", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false, {44, 1486, 62379, 2103487}},
    {"pos6", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", false,
     {46, 2079, 89890, 3894594}},
    /* tricky.perft */
    {"gotta-love-perft-1", "8/ppp3p1/8/8/3p4/5Q2/1ppp2K1/brk4n w - - 0 1", false, {27, 390, 9354, 134167}},
    {"gotta-love-perft-2", "8/6kR/8/8/8/bq6/1rqqqqqq/K1nqnbrq b - - 0 1", false, {7, 52, 4593, 50268}},
    {"align-diag-1", "3R4/8/q4k2/2B5/1NK5/3b4/8/8 w - - 0 1", false, {4, 125, 2854}},
    {"align-diag-2", "2Nq4/2K5/1b6/8/7R/3k4/7P/8 w - - 0 1", false, {3, 81, 1217}},
    {"align-horizontal", "5R2/2P5/8/4k3/8/3rK2r/8/8 w - - 0 1", false, {2, 56, 1030}},
    {"align-ep", "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", false, {6, 121, 711}},
    {"align-ep-pinned", "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", false, {5, 100, 555}},
    {"ep-unrelated-check", "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1", false,
     {2, 92, 2528}},
    /* the right q with the king on h8 is Chess960 castling (python-chess's
     * perft reads every suite as Chess960); standard chess refuses the FEN */
    {"asymmetrical-and-king-on-h", "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1", true, {14, 206, 3672, 64639, 1320962}},
    /* Chess960, X-FEN (tricky.perft) */
    {"xfen-00", "r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true, {23, 522, 12333, 285754}},
    {"xfen-01", "r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1", true, {28, 738, 20218, 541480}},
    {"xfen-02", "8/8/8/4B2b/6nN/8/5P2/2R1K2k w Q - 0 1", true, {34, 318, 9002, 118388}},
    {"xfen-03", "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1", true, {17, 242, 3931, 57700}},
    {"xfen-04", "4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", true, {19, 628, 12858, 405636}},
    /* Chess960, Shredder-FEN (chess960.perft) */
    {"960-0", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", true, {21, 528, 12189, 326672}},
    {"960-1", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1", true, {21, 807, 18002}},
    {"960-2", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 0 1", true, {20, 479, 10471}},
    {"960-3", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 1", true, {22, 593, 13440}},
    {"960-4", "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 1", true, {28, 1120, 31058}},
    {"960-5", "qnbnr1kr/ppp1b1pp/4p3/3p1p2/8/2NPP3/PPP1BPPP/QNB1R1KR w HEhe - 0 1", true, {29, 899, 26578}},
    {"960-6", "q1bnrkr1/ppppp2p/2n2p2/4b1p1/2NP4/8/PPP1PPPP/QNB1RRKB w ge - 0 1", true, {30, 860, 24566}},
    {"960-9", "qn1rbbkr/ppp2p1p/1n1pp1p1/8/3P4/P6P/1PP1PPPK/QNNRBB1R w hd - 0 1", true, {28, 811, 23175}},
    {"960-10", "qnr1bkrb/pppp2pp/3np3/5p2/8/P2P2P1/NPP1PP1P/QN1RBKRB w GDg - 0 1", true, {33, 823, 26895}},
    {"960-11", "qb1nrkbr/1pppp1p1/1n3p2/p1B4p/8/3P1P1P/PPP1P1P1/QBNNRK1R w HEhe - 0 1", true, {31, 855, 25620}},
};

/* Perft by movegen_legal + board_make_move, to cross-check movegen_perft. */
static uint64_t slow_perft(const board_t *b, int depth)
{
    move_t list[MAX_MOVES];
    int n = movegen_legal(b, list);
    if (depth <= 1)
        return depth == 1 ? (uint64_t)n : 1;
    uint64_t sum = 0;
    for (int i = 0; i < n; i++) {
        board_t next;
        board_make_move(b, list[i], &next);
        sum += slow_perft(&next, depth - 1);
    }
    return sum;
}

START_TEST(test_perft_suite)
{
    const perft_case_t *c = &perft_cases[_i];
    board_t b;
    tu_fen_at(TU_WHERE, &b, c->fen, c->c960);
    for (int d = 1; d <= 6 && c->nodes[d - 1]; d++) {
        uint64_t got = movegen_perft(&b, d);
        ck_assert_msg(got == c->nodes[d - 1], "perft %s depth %d: expected %llu, got %llu (%s)", c->name, d,
                      (unsigned long long)c->nodes[d - 1], (unsigned long long)got, c->fen);
        if (d <= 3) {
            uint64_t slow = slow_perft(&b, d);
            ck_assert_msg(slow == got, "perft %s depth %d: movegen_perft %llu but move-by-move %llu", c->name, d,
                          (unsigned long long)got, (unsigned long long)slow);
        }
    }
    ck_assert_msg(movegen_perft(&b, 0) == 1, "perft depth 0 of %s is not 1", c->name);
}
END_TEST

/* ---- hand-checked move lists -------------------------------------------- */

typedef struct {
    const char *what, *fen;
    bool c960;
    int count;             /* number of legal moves, -1: not checked */
    const char *present;   /* moves that must be there ("e1h1" = castling) */
    const char *absent;    /* moves that must not */
} moves_case_t;

static const moves_case_t moves_cases[] = {
    /* en passant */
    {"ep legal", "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", false, 31, "e5d6", NULL},
    {"ep pinned on the rank", "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", false, 6, "e5e6 a5b6 a5a4", "e5d6"},
    {"ep pinned on the rank, mirrored", "8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 2", false, -1, "e5e6", "e5d6"},
    {"ep pinned on a diagonal", "4k3/8/5b2/3pP3/3K4/8/8/8 w - d6 0 2", false, -1, NULL, "e5d6"},
    {"ep along the pin line", "4k3/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2", false, -1, "e5d6", "e5e6"},
    {"ep answers the pawn's check", "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", false, -1, "e5d6 e4d5", "e5e6"},
    {"ep does not answer a knight check", "4k3/1n6/8/K2pP3/8/8/8/8 w - d6 0 2", false, -1, NULL, "e5d6 e5e6"},
    {"ep by black", "4k3/8/8/8/2PpP3/8/8/4K3 b - e3 0 1", false, 7, "d4e3 d4d3", "d4c3"},
    {"no ep across the board edge", "4k3/8/8/p6P/8/8/8/4K3 w - a6 0 2", false, -1, "h5h6", NULL},
    /* castling, standard */
    {"castling both ways", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, 26, "e1h1 e1a1", NULL},
    {"castling through check (f1)", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1", false, -1, "e1a1", "e1h1"},
    {"castling into check (g1)", "4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1", false, -1, "e1a1", "e1h1"},
    {"castling out of check", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1", false, -1, "e1d1 e1f1", "e1h1 e1a1"},
    {"castling with b1 attacked", "4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1", false, -1, "e1a1 e1h1", NULL},
    {"castling with the rook attacked", "4k3/8/8/8/8/8/7r/R3K2R w KQ - 0 1", false, -1, "e1h1", NULL},
    {"castling through d1", "4k3/8/8/8/8/8/3r4/R3K2R w KQ - 0 1", false, -1, "e1h1", "e1a1"},
    {"castling into c1", "4k3/8/8/8/8/8/2r5/R3K2R w KQ - 0 1", false, -1, "e1h1", "e1a1"},
    {"castling blocked by a knight on b1", "4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", false, -1, "e1h1", "e1a1"},
    {"castling without the right", "r3k2r/8/8/8/8/8/8/R3K2R w Kkq - 0 1", false, -1, "e1h1", "e1a1"},
    {"black castling, g8 attacked", "r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1", false, -1, "e8a8", "e8h8"},
    {"black castling, pawn covers f8", "r3k2r/6P1/8/8/8/8/8/4K3 b kq - 0 1", false, -1, "e8a8", "e8h8"},
    /* castling, Chess960 */
    {"960 king b1 rook c1", "1k6/8/8/8/8/8/8/1KR5 w K - 0 1", true, -1, "b1c1", NULL},
    {"960 destination g1 occupied", "1k6/8/8/8/8/8/8/1KR3N1 w K - 0 1", true, -1, NULL, "b1c1"},
    {"960 rook lands on an attacked d1", "1k1r4/8/8/8/8/8/8/RK6 w Q - 0 1", true, -1, "b1a1", NULL},
    {"960 rook was shielding c1", "4k3/8/8/8/8/8/8/rR1K4 w Q - 0 1", true, -1, NULL, "d1b1"},
    {"960 king already on g1", "4k3/8/8/8/8/8/8/6KR w K - 0 1", true, -1, "g1h1", NULL},
    {"960 king already on g1, in check", "4k3/6r1/8/8/8/8/8/6KR w K - 0 1", true, -1, NULL, "g1h1"},
    {"960 rook already on f1", "4k3/8/8/8/8/8/8/1K3R2 w K - 0 1", true, -1, "b1f1", NULL},
    {"960 rook already on f1, g1 attacked", "4k3/8/8/8/8/8/8/1K3R1r w K - 0 1", true, -1, NULL, "b1f1"},
    {"960 other rook in the king's path", "4k3/8/8/8/8/8/8/1K1R3R w K - 0 1", true, -1, NULL, "b1h1"},
    {"960 king f1 rook g1 swap", "4k3/8/8/8/8/8/8/5KR1 w K - 0 1", true, -1, "f1g1", NULL},
    {"960 king d1 rook c1 swap", "4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", true, -1, "d1c1", NULL},
    {"960 king passes an attacked square", "4k3/8/8/8/8/8/3r4/1K5R w K - 0 1", true, -1, NULL, "b1h1"},
    {"960 inner rook right", "1k6/8/8/8/8/8/8/1K2R2R w E - 0 1", true, -1, "b1e1", "b1h1"},
    /* promotions */
    {"promotion to four pieces", "8/4P3/8/8/8/8/k7/4K3 w - - 0 1", false, 9, "e7e8q e7e8r e7e8b e7e8n", "e7e8"},
    {"capture promotions", "3r2k1/4P3/8/8/8/8/8/K7 w - - 0 1", false, 11, "e7d8q e7d8r e7d8b e7d8n e7e8n", "e7f8q"},
    {"black promotions", "4k3/8/8/8/8/8/p7/4K3 b - - 0 1", false, 9, "a2a1q a2a1r a2a1b a2a1n", NULL},
    {"promotion blocked", "4n3/4P3/8/8/8/8/k7/2K5 w - - 0 1", false, -1, NULL, "e7e8q"},
    /* pins and checks */
    {"pinned knight", "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1", false, 4, "e1d1 e1f1", "e2c3 e2d4"},
    {"pinned bishop moves along the pin", "4k3/8/8/8/q7/8/2B5/3K4 w - - 0 1", false, -1, "c2b3", "c2d3"},
    {"double check: only the king", "4k3/8/8/8/8/3n4/2B5/r3K3 w - - 0 1", false, 2, "e1e2 e1d2", "c2d3 c2d1 e1f1"},
    {"king cannot step along the checking line", "4k3/8/8/8/8/8/8/r3K3 w - - 0 1", false, -1, "e1e2", "e1f1 e1d1"},
    {"king cannot take a protected piece", "4k3/8/8/8/8/8/3rr3/4K3 w - - 0 1", false, 1, "e1f1", "e1e2 e1d2"},
};

START_TEST(test_move_lists)
{
    const moves_case_t *c = &moves_cases[_i];
    board_t b;
    move_t list[MAX_MOVES];
    char tok[16];
    tu_fen_at(TU_WHERE, &b, c->fen, c->c960);
    int n = movegen_legal(&b, list);
    if (c->count >= 0)
        ck_assert_msg(n == c->count, "%s: %d legal moves, want %d (%s)", c->what, n, c->count, c->fen);
    for (const char *p = c->present; p && tu_next_token(&p, tok);)
        ck_assert_msg(tu_has_move(&b, tok), "%s: %s missing (%s)", c->what, tok, c->fen);
    for (const char *p = c->absent; p && tu_next_token(&p, tok);)
        ck_assert_msg(!tu_has_move(&b, tok), "%s: %s generated but illegal (%s)", c->what, tok, c->fen);
}
END_TEST

/* Flags: capture, en passant, castling and double step are marked. */
START_TEST(test_move_flags)
{
    board_t b;
    move_t m;
    TU_FEN(&b, "r3k2r/8/8/3pP3/8/8/P7/R3K2R w KQkq d6 0 1");
    m = TU_MOVE(&b, "e5d6");
    ck_assert_int_eq(m.flags & (MOVE_EP | MOVE_CAPTURE), MOVE_EP | MOVE_CAPTURE);
    m = TU_MOVE(&b, "a2a4");
    ck_assert_msg(m.flags & MOVE_DOUBLE, "a2a4 lacks MOVE_DOUBLE (%d)", m.flags);
    m = TU_MOVE(&b, "a2a3");
    ck_assert_int_eq(m.flags, 0);
    m = TU_MOVE(&b, "e1h1");
    ck_assert_msg(m.flags & MOVE_CASTLE, "e1h1 lacks MOVE_CASTLE (%d)", m.flags);
    ck_assert_msg(!(m.flags & MOVE_CAPTURE), "castling flagged as a capture (%d)", m.flags);
    m = TU_MOVE(&b, "h1h8");
    ck_assert_msg(m.flags & MOVE_CAPTURE, "Rxh8 lacks MOVE_CAPTURE (%d)", m.flags);
    ck_assert_int_eq(m.flags & (MOVE_EP | MOVE_CASTLE | MOVE_DOUBLE | MOVE_NULL), 0);
    ck_assert_int_eq(m.promo, EMPTY);
    m = TU_MOVE(&b, "a1b1");
    ck_assert_int_eq(m.flags, 0);
}
END_TEST

/* Each listed move is distinct and leaves the mover's king safe. */
START_TEST(test_moves_distinct_and_safe)
{
    uint64_t seed = 99;
    for (int walk = 0; walk < 60; walk++) {
        board_t b, next;
        board_start(&b);
        for (int ply = 0; ply < 120; ply++) {
            move_t list[MAX_MOVES];
            char fen[128], ms[32];
            int n = movegen_legal(&b, list);
            ck_assert_msg(movegen_has_legal(&b) == (n > 0), "movegen_has_legal %d but %d moves in %s",
                          movegen_has_legal(&b), n, tu_fen_out(&b, fen));
            /* The pseudo-legal list holds the legal one, and the known-check
             * test agrees with the full one on every entry. */
            move_t pseudo[MAX_MOVES];
            int np = movegen_pseudo(&b, pseudo), legal = 0;
            for (int i = 0; i < np; i++) {
                bool ok = movegen_is_legal(&b, pseudo[i]);
                ck_assert_msg(movegen_is_legal_known(&b, pseudo[i], b.in_check) == ok,
                              "movegen_is_legal_known disagrees on %s in %s", tu_move_str(pseudo[i], ms),
                              tu_fen_out(&b, fen));
                legal += ok;
            }
            ck_assert_msg(legal == n, "%d legal among the pseudo-legal moves, %d listed in %s", legal, n,
                          tu_fen_out(&b, fen));
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < i; j++)
                    ck_assert_msg(!tu_move_eq(list[i], list[j]), "%s listed twice in %s", tu_move_str(list[i], ms),
                                  tu_fen_out(&b, fen));
                ck_assert_msg(movegen_is_legal(&b, list[i]), "movegen_is_legal false for listed %s in %s",
                              tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                board_make_move(&b, list[i], &next);
                ck_assert_msg(!movegen_attacked(&next, next.king[b.stm], !b.stm),
                              "%s leaves the king attacked in %s", tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                ck_assert_msg(next.stm != b.stm, "side to move unchanged after %s", tu_move_str(list[i], ms));
            }
            if (n == 0)
                break;
            board_make_move(&b, list[tu_rand(&seed) % (uint64_t)n], &next);
            b = next;
        }
    }
}
END_TEST

/* Positions without a legal move: mate and stalemate. */
START_TEST(test_no_legal_moves)
{
    static const struct {
        const char *fen;
        bool check;
    } cases[] = {
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true},  /* fool's mate */
        {"r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", true}, /* scholar's */
        {"k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", true},
        {"6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1", true},                              /* smothered */
        {"k7/8/1Q6/8/8/8/8/7K b - - 0 1", false},                                 /* stalemate */
        {"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", false},
        {"5bnr/4p1pq/4Qpkr/7p/7P/4P3/PPPP1PP1/RNB1KBNR b KQ - 2 10", false},     /* Loyd */
        {"8/8/8/8/8/6k1/6p1/6K1 w - - 0 1", false},
        {"1R6/8/8/8/8/8/p7/k1K5 b - - 0 1", false},
        {"7k/5Kn1/6P1/8/8/8/8/B7 b - - 0 1", false},                             /* the knight is pinned */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        move_t list[MAX_MOVES];
        TU_FEN(&b, cases[i].fen);
        int n = movegen_legal(&b, list);
        ck_assert_msg(n == 0, "%d legal moves in %s, want none", n, cases[i].fen);
        ck_assert_msg(!movegen_has_legal(&b), "movegen_has_legal true in %s", cases[i].fen);
        ck_assert_msg(board_in_check(&b) == cases[i].check, "in check %d in %s", board_in_check(&b), cases[i].fen);
        ck_assert_msg(movegen_perft(&b, 1) == 0 && movegen_perft(&b, 3) == 0, "perft of a dead end in %s",
                      cases[i].fen);
    }
}
END_TEST

START_TEST(test_attacked)
{
    board_t b;
    board_start(&b);
    ck_assert(movegen_attacked(&b, SQ(4, 2), WHITE));  /* e3 by pawns */
    ck_assert(!movegen_attacked(&b, SQ(4, 3), WHITE)); /* e4 */
    ck_assert(movegen_attacked(&b, SQ(5, 5), BLACK));  /* f6 */
    ck_assert(movegen_attacked(&b, SQ(7, 2), WHITE));  /* h3 by the g1 knight and g2 pawn */
    ck_assert(!movegen_attacked(&b, SQ(0, 4), BLACK)); /* a5 */
    ck_assert(movegen_attacked(&b, SQ(3, 0), WHITE));  /* d1, own piece, defended by the king */

    /* pins are ignored: the pinned knight still attacks */
    TU_FEN(&b, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    ck_assert(movegen_attacked(&b, SQ(2, 2), WHITE)); /* c3 */
    ck_assert(movegen_attacked(&b, SQ(4, 1), BLACK)); /* e2 by the rook */
    ck_assert(!movegen_attacked(&b, SQ(4, 0), BLACK)); /* e1 shielded */

    /* pawns attack diagonally forward only */
    TU_FEN(&b, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    ck_assert(movegen_attacked(&b, SQ(3, 4), WHITE));  /* d5 by e4 */
    ck_assert(movegen_attacked(&b, SQ(5, 4), WHITE));  /* f5 by e4 */
    ck_assert(!movegen_attacked(&b, SQ(4, 4), WHITE)); /* e5 */
    ck_assert(!movegen_attacked(&b, SQ(3, 2), WHITE)); /* d3 */
    ck_assert(movegen_attacked(&b, SQ(4, 3), BLACK));  /* e4 by d5 */
    ck_assert(movegen_attacked(&b, SQ(2, 3), BLACK));  /* c4 by d5 */
    ck_assert(!movegen_attacked(&b, SQ(3, 3), BLACK)); /* d4 */

    /* sliders stop at the first piece; kings attack their neighbours */
    TU_FEN(&b, "4k3/8/8/8/8/8/8/R2nK3 w - - 0 1");
    ck_assert(movegen_attacked(&b, SQ(3, 0), WHITE));  /* d1 by the rook and the king */
    ck_assert(!movegen_attacked(&b, SQ(5, 3), WHITE)); /* f4 */
    ck_assert(movegen_attacked(&b, SQ(0, 7), WHITE));  /* a8 up the file */
    ck_assert(movegen_attacked(&b, SQ(3, 7), BLACK));  /* d8 by the king */
    ck_assert(movegen_attacked(&b, SQ(5, 1), BLACK));  /* f2 by the d1 knight */
    ck_assert(!movegen_attacked(&b, SQ(4, 1), BLACK)); /* e2 */
}
END_TEST

START_TEST(test_is_legal)
{
    board_t b;
    move_t m;
    TU_FEN(&b, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    m = (move_t){SQ(4, 1), SQ(2, 2), EMPTY, 0}; /* Nc3, pinned */
    ck_assert_msg(!movegen_is_legal(&b, m), "pinned knight may move");
    m = (move_t){SQ(4, 0), SQ(3, 0), EMPTY, 0}; /* Kd1 */
    ck_assert_msg(movegen_is_legal(&b, m), "Kd1 refused");
    TU_FEN(&b, "4k3/8/8/8/8/8/5r2/4K3 w - - 0 1");
    ck_assert(!movegen_is_legal(&b, (move_t){SQ(4, 0), SQ(5, 0), EMPTY, 0}));           /* Kf1 */
    ck_assert(!movegen_is_legal(&b, (move_t){SQ(4, 0), SQ(4, 1), EMPTY, 0}));           /* Ke2 */
    ck_assert(movegen_is_legal(&b, (move_t){SQ(4, 0), SQ(5, 1), EMPTY, MOVE_CAPTURE})); /* Kxf2 */
    ck_assert(movegen_is_legal(&b, (move_t){SQ(4, 0), SQ(3, 0), EMPTY, 0}));            /* Kd1 */
    /* en passant that exposes the king along the rank */
    TU_FEN(&b, "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2");
    ck_assert(!movegen_is_legal(&b, (move_t){SQ(4, 4), SQ(3, 5), EMPTY, MOVE_CAPTURE | MOVE_EP}));
    ck_assert(movegen_is_legal(&b, (move_t){SQ(4, 4), SQ(4, 5), EMPTY, 0}));
}
END_TEST

START_TEST(test_ep_capture_legal)
{
    static const struct {
        const char *fen;
        bool legal;
    } cases[] = {
        {"rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3", true},
        {"8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", false},
        {"4k3/8/5b2/3pP3/3K4/8/8/8 w - d6 0 2", false},
        {"4k3/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2", true},
        {"4k3/1n6/8/K2pP3/8/8/8/8 w - d6 0 2", false},
        {"4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", true},
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", false},
        {"1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", false},
        {"8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", true},
        {TU_START_FEN, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        TU_FEN(&b, cases[i].fen);
        ck_assert_msg(movegen_ep_capture_legal(&b) == cases[i].legal, "movegen_ep_capture_legal(%s) = %d, want %d",
                      cases[i].fen, movegen_ep_capture_legal(&b), cases[i].legal);
        ck_assert_msg(b.ep_legal == cases[i].legal, "ep_legal of %s = %d, want %d", cases[i].fen, b.ep_legal,
                      cases[i].legal);
    }
}
END_TEST

static Suite *movegen_suite(void)
{
    Suite *s = suite_create("movegen");
    TCase *tc = tcase_create("test_perft_suite");
    tcase_set_timeout(tc, 600);
    tcase_add_loop_test(tc, test_perft_suite, 0, (int)(sizeof perft_cases / sizeof *perft_cases));
    suite_add_tcase(s, tc);
    tc = tcase_create("test_move_lists");
    tcase_set_timeout(tc, 30);
    tcase_add_loop_test(tc, test_move_lists, 0, (int)(sizeof moves_cases / sizeof *moves_cases));
    suite_add_tcase(s, tc);
    TU_CASE(s, test_move_flags, 10);
    TU_CASE(s, test_moves_distinct_and_safe, 120);
    TU_CASE(s, test_no_legal_moves, 10);
    TU_CASE(s, test_attacked, 10);
    TU_CASE(s, test_is_legal, 10);
    TU_CASE(s, test_ep_capture_legal, 10);
    return s;
}

int main(void)
{
    return tu_run(movegen_suite());
}

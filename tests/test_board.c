/* test_board.c: FEN in and out, position checks, copy-make, castling rights,
 * clocks and piece counts (board.h). */
#include "testutil.h"

/* ---- FEN round trips ---------------------------------------------------- */

/* FENs that must come back unchanged from board_to_fen(board_from_fen(x)). */
static const char *const roundtrip_std[] = {
    TU_START_FEN,
    TU_KIWIPETE_FEN,
    TU_PERFT3_FEN,
    TU_PERFT4_FEN,
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    /* legal en passant: shown */
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b KQkq d3 0 2",
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 20",
    "r3k2r/8/8/8/8/8/8/R3K2R w Qk - 0 1",
    "8/8/8/8/8/8/8/K6k w - - 99 150",
    "4k3/8/8/8/8/8/8/4K3 b - - 123 456",
    "8/P7/8/8/8/8/p7/K6k w - - 0 70",
    "1r2k2r/8/8/8/8/8/8/R3K1R1 w - - 3 33",
};

START_TEST(test_fen_roundtrip_standard)
{
    for (size_t i = 0; i < sizeof roundtrip_std / sizeof *roundtrip_std; i++) {
        board_t b;
        char out[128];
        TU_FEN(&b, roundtrip_std[i]);
        size_t n = board_to_fen(&b, out, sizeof out);
        ck_assert_msg(strcmp(out, roundtrip_std[i]) == 0, "FEN round trip: in  \"%s\"\n out \"%s\"",
                      roundtrip_std[i], out);
        ck_assert_msg(n == strlen(out), "board_to_fen returned %zu for \"%s\" (length %zu)", n, out,
                      strlen(out));
    }
}
END_TEST

/* python-chess writes the en passant square only when a capture is legal. */
START_TEST(test_fen_ep_shown_only_when_legal)
{
    static const struct {
        const char *in, *out;
        bool legal;
    } cases[] = {
        /* after 1.e4: no black pawn can take */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false},
        /* capturer pinned along the fifth rank (FIDE 9.2.3: positions equal) */
        {"8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2", false},
        /* capturer pinned on a diagonal that d6 leaves */
        {"4k3/8/5b2/3pP3/3K4/8/8/8 w - d6 0 2", "4k3/8/5b2/3pP3/3K4/8/8/8 w - - 0 2", false},
        /* capture along the pin line stays legal */
        {"4k3/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2", "4k3/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2", true},
        /* in check from a knight: the capture does not help */
        {"4k3/1n6/8/K2pP3/8/8/8/8 w - d6 0 2", "4k3/1n6/8/K2pP3/8/8/8/8 w - - 0 2", false},
        /* the double step gave check; taking it en passant is an answer */
        {"4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2", true},
        /* black captures */
        {"4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", true},
        {"4k3/8/8/8/2PpP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/2PpP3/8/8/4K3 b - e3 0 1", true},
        /* a pawn beside, but on the wrong side of the board edge (h-file wrap) */
        {"4k3/8/8/p6P/8/8/8/4K3 w - a6 0 2", "4k3/8/8/p6P/8/8/8/4K3 w - - 0 2", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        char got[128];
        TU_FEN(&b, cases[i].in);
        tu_fen_out(&b, got);
        ck_assert_msg(strcmp(got, cases[i].out) == 0, "in \"%s\"\nwant \"%s\"\n got \"%s\"", cases[i].in,
                      cases[i].out, got);
        ck_assert_msg(b.ep_legal == cases[i].legal, "ep_legal %d for \"%s\"", b.ep_legal, cases[i].in);
        ck_assert_msg(movegen_ep_capture_legal(&b) == cases[i].legal, "movegen_ep_capture_legal %d for \"%s\"",
                      movegen_ep_capture_legal(&b), cases[i].in);
    }
}
END_TEST

/* Chess960 X-FEN (python-chess's default output): KQkq for the outermost
 * rook, the file letter for an inner one. */
static const char *const roundtrip_960[] = {
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9",
    "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1",
    "1k6/8/8/8/8/8/8/1K2R2R w E - 0 1",
    "1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1",
    "1k2r2r/8/8/8/8/8/8/1K2R2R w Ke - 0 1",
    "1k6/8/8/8/8/8/8/1KR5 w K - 0 1",
    "4k3/8/8/8/8/8/8/3RK3 w Q - 0 1",
    "rkr5/8/8/8/8/8/8/RKR5 b KQkq - 0 1",
    TU_START_FEN,
};

START_TEST(test_fen_roundtrip_chess960_xfen)
{
    for (size_t i = 0; i < sizeof roundtrip_960 / sizeof *roundtrip_960; i++) {
        board_t b;
        char out[128];
        TU_FEN960(&b, roundtrip_960[i]);
        ck_assert_msg(b.chess960, "chess960 flag not set for \"%s\"", roundtrip_960[i]);
        tu_fen_out(&b, out);
        ck_assert_msg(strcmp(out, roundtrip_960[i]) == 0, "X-FEN round trip: in  \"%s\"\n out \"%s\"",
                      roundtrip_960[i], out);
    }
}
END_TEST

/* Shredder-FEN names every right by file; it must give the same position as
 * the X-FEN spelling, and board_to_fen writes the X-FEN form (as python-chess
 * Board.fen() does). */
START_TEST(test_fen_shredder_equals_xfen)
{
    static const char *const pairs[][2] = {
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9",
         "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 9"},
        {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
         "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w KQkq - 1 9"},
        {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", TU_START_FEN},
        {"1k2r2r/8/8/8/8/8/8/1K2R2R w He - 0 1", "1k2r2r/8/8/8/8/8/8/1K2R2R w Ke - 0 1"},
        {"rk2r3/8/8/8/8/8/8/RK2R3 w EAea - 0 1", "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        board_t a, b;
        char out[128], diff[96];
        TU_FEN960(&a, pairs[i][0]);
        TU_FEN960(&b, pairs[i][1]);
        ck_assert_msg(tu_board_same(&a, &b, diff), "\"%s\" and \"%s\" differ: %s", pairs[i][0],
                      pairs[i][1], diff);
        tu_fen_out(&a, out);
        ck_assert_msg(strcmp(out, pairs[i][1]) == 0, "Shredder \"%s\"\n want \"%s\"\n  got \"%s\"",
                      pairs[i][0], pairs[i][1], out);
    }
}
END_TEST

/* In standard chess the file letters of the a- and h-rooks mean Q and K. */
START_TEST(test_fen_standard_accepts_file_letters)
{
    board_t a, b;
    char diff[96], out[128];
    TU_FEN(&a, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
    board_start(&b);
    ck_assert_msg(tu_board_same(&a, &b, diff), "HAha differs from the start position: %s", diff);
    ck_assert_str_eq(tu_fen_out(&a, out), TU_START_FEN);
}
END_TEST

/* python-chess reads FENs with any spacing and castling letters in any
 * order, and takes fullmove 0 as 1. */
START_TEST(test_fen_lenient_like_python_chess)
{
    board_t a, b;
    char out[128], diff[96];
    TU_FEN(&a, "  rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR  w  KQkq  -  0  1  ");
    ck_assert_str_eq(tu_fen_out(&a, out), TU_START_FEN);
    TU_FEN(&a, "r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1");
    TU_FEN(&b, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ck_assert_msg(tu_board_same(&a, &b, diff), "castling qkQK vs KQkq: %s", diff);
    TU_FEN(&a, "4k3/8/8/8/8/8/8/4K3 w - - 0 0");
    ck_assert_int_eq(a.fullmove, 1);
}
END_TEST

START_TEST(test_fen_four_and_five_fields)
{
    board_t b;
    char out[128];
    TU_FEN(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    ck_assert_int_eq(b.halfmove, 0);
    ck_assert_int_eq(b.fullmove, 1);
    ck_assert_str_eq(tu_fen_out(&b, out), TU_START_FEN);
    TU_FEN(&b, "4k3/8/8/8/8/8/8/4K2R w K -");
    ck_assert_str_eq(tu_fen_out(&b, out), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    TU_FEN(&b, "4k3/8/8/8/8/8/8/4K2R b K - 7");
    ck_assert_int_eq(b.halfmove, 7);
    ck_assert_int_eq(b.fullmove, 1);
}
END_TEST

START_TEST(test_board_start_matches_fen)
{
    board_t a, b;
    char diff[96], out[128];
    board_start(&a);
    TU_FEN(&b, TU_START_FEN);
    ck_assert_msg(tu_board_same(&a, &b, diff), "board_start vs FEN: %s", diff);
    ck_assert_str_eq(tu_fen_out(&a, out), TU_START_FEN);
    ck_assert_msg(!a.chess960, "board_start is standard chess");
}
END_TEST

START_TEST(test_fen_fields_start)
{
    board_t b;
    TU_FEN(&b, TU_START_FEN);
    ck_assert_int_eq(b.king[WHITE], SQ(4, 0));
    ck_assert_int_eq(b.king[BLACK], SQ(4, 7));
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ(7, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 1)], SQ(0, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 0)], SQ(7, 7));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 1)], SQ(0, 7));
    ck_assert_int_eq(b.ep_legal, false);
    ck_assert_int_eq(b.stm, WHITE);
    ck_assert_int_eq(b.halfmove, 0);
    ck_assert_int_eq(b.fullmove, 1);
    ck_assert_int_eq(b.sq[SQ(3, 0)], PIECE(WHITE, QUEEN));
    ck_assert_int_eq(b.sq[SQ(3, 7)], PIECE(BLACK, QUEEN));
    ck_assert_int_eq(b.sq[SQ(6, 7)], PIECE(BLACK, KNIGHT));
    ck_assert_int_eq(b.sq[SQ(4, 4)], EMPTY);
    static const int per_colour[7] = {0, 8, 2, 2, 2, 1, 1};
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= KING; t++)
            ck_assert_msg(b.count[PIECE(c, t)] == per_colour[t], "count[colour %d type %d] = %d, want %d",
                          c, t, b.count[PIECE(c, t)], per_colour[t]);
    ck_assert_msg(b.key == zobrist_compute(&b), "key of the start position is not zobrist_compute()");
}
END_TEST

START_TEST(test_fen_fields_misc)
{
    board_t b;
    TU_FEN(&b, "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 5 20");
    ck_assert_int_eq(b.stm, BLACK);
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_BQ);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ(7, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 1)], SQ_NONE);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 0)], SQ_NONE);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 1)], SQ(0, 7));
    ck_assert_int_eq(b.halfmove, 5);
    ck_assert_int_eq(b.fullmove, 20);
    ck_assert_int_eq(b.count[PIECE(WHITE, ROOK)], 2);
    ck_assert_int_eq(b.count[PIECE(BLACK, PAWN)], 0);

    /* Chess960: castle_rook holds the rook squares named by X-FEN letters */
    TU_FEN960(&b, "1k2r2r/8/8/8/8/8/8/1K2R2R w Ee - 0 1");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_BK);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ(4, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 0)], SQ(4, 7));
    ck_assert_int_eq(b.king[WHITE], SQ(1, 0));
    TU_FEN960(&b, "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 9");
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ(7, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 1)], SQ(5, 0));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 0)], SQ(7, 7));
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 1)], SQ(5, 7));
    ck_assert_int_eq(b.king[BLACK], SQ(6, 7));
}
END_TEST

/* ---- FEN rejections ------------------------------------------------------ */

static void expect_reject(const char *fen, bool c960)
{
    board_t b;
    board_error_t why = NULL;
    int rc = board_from_fen(&b, fen, c960, &why);
    ck_assert_msg(rc == -1, "board_from_fen accepted \"%s\"%s (rc %d)", fen, c960 ? " as chess960" : "", rc);
    ck_assert_msg(why != NULL && why[0] != '\0', "no reason given for refusing \"%s\"", fen);
}

START_TEST(test_reject_kings)
{
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", false);  /* no white king */
    expect_reject("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", false);  /* no black king */
    expect_reject("8/8/8/8/8/8/8/8 w - - 0 1", false);                               /* empty board */
    expect_reject("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", false);                          /* two white kings */
    expect_reject("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", false);                          /* two black kings */
}
END_TEST

START_TEST(test_reject_pawn_on_back_rank)
{
    expect_reject("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", false); /* white pawn on rank 1 */
    expect_reject("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", false); /* white pawn on rank 8 */
    expect_reject("p3k3/8/8/8/8/8/8/4K3 w - - 0 1", false); /* black pawn on rank 8 */
    expect_reject("4k3/8/8/8/8/8/8/4K2p w - - 0 1", false); /* black pawn on rank 1 */
}
END_TEST

START_TEST(test_reject_side_not_to_move_in_check)
{
    expect_reject("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", false);
    expect_reject("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1", false);
    expect_reject("rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 0 2", false);
}
END_TEST

/* Pieces behind their own men do not give check: only the real checkers
 * count (at most two, after a discovered double check). */
START_TEST(test_fen_accepts_xray_behind_own_pieces)
{
    static const struct {
        const char *fen;
        bool check;
    } ok[] = {
        {"4k3/8/3N4/1P6/B3P3/8/8/4QK2 b - - 0 1", true},  /* one checker, two x-rays */
        {"4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1", true},       /* a real double check */
        {"2r1k2r/1pp2ppp/2P2Nb1/nPbp4/BB1NP3/q7/P2P2PP/q3QRK1 b k - 0 7", true}, /* from a random game */
        /* final positions of lichess games (D3-Chess lichess-30K set) */
        {"1r4k1/p5pp/3pN3/3b2Q1/1q3P2/1r1P4/P5PP/1K1R3R w - - 0 31", true},
        {"2r5/p1qkb3/3P4/3Q2n1/8/4B3/PPPR3P/2KR4 b - - 0 28", false},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        board_t b;
        TU_FEN(&b, ok[i].fen);
        ck_assert_msg(board_in_check(&b) == ok[i].check, "%s: in check %d, want %d", ok[i].fen, board_in_check(&b),
                      ok[i].check);
    }
}
END_TEST

START_TEST(test_reject_castling_without_king_or_rook)
{
    expect_reject("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", false); /* white king on f1 */
    expect_reject("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", false);  /* no rook on h1 */
    expect_reject("r3k2r/8/8/8/8/8/8/4K2R w KQkq - 0 1", false);  /* no rook on a1 */
    expect_reject("r3k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false);  /* no rook on h8 */
    expect_reject("r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false); /* black king on d8 */
    expect_reject("4k3/8/8/8/8/8/8/R3K2N w K - 0 1", false);      /* knight, not rook, on h1 */
    expect_reject("4k3/8/8/8/8/8/8/4K2r w K - 0 1", false);       /* black rook on h1 */
    /* Chess960: no rook on the named file or on the king's side */
    expect_reject("4k3/8/8/8/8/8/8/R3K3 w H - 0 1", true);
    expect_reject("r3k3/8/8/8/8/8/8/R3K3 w K - 0 1", true);
    expect_reject("4k3/8/8/8/8/8/8/1R2K3 w K - 0 1", true);
    expect_reject("4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1", true); /* king off the back rank */
}
END_TEST

START_TEST(test_reject_ep_square)
{
    /* no pawn that could just have made the double step */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", false);
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", false);
    /* the pawn in front of the square is the mover's own */
    expect_reject("4k3/8/8/8/4p3/8/8/4K3 b - e3 0 1", false);
    /* the square itself is occupied */
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", false);
    /* the square the pawn came from is occupied */
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPPBPPP/RNBQK1NR b KQkq e3 0 1", false);
    expect_reject("4k3/3b4/8/3pP3/8/8/8/4K3 w - d6 0 2", false);
    /* wrong rank for the side to move */
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", false);
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", false);
    /* a double step sets the halfmove clock to 0: the FEN cannot say both */
    expect_reject("2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 100 60", false);
    expect_reject("2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 1 60", false);
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 1 1", false);
    board_t b;
    TU_FEN(&b, "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - b3 0 60");
    TU_FEN(&b, "2r3k1/1q1nbppp/r3p3/3pP3/pPpP4/P1Q2N2/2RN1PPP/2R4K b - - 100 60");
    /* not a square */
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e9 0 1", false);
    expect_reject("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq j3 0 1", false);
}
END_TEST

START_TEST(test_reject_too_many_pieces)
{
    expect_reject("rnbqkbnr/pppppppp/8/8/8/N7/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false); /* 17 white */
    expect_reject("rnbqkbnr/pppppppp/n7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false); /* 17 black */
    expect_reject("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", false);                     /* 9 white pawns */
    expect_reject("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", false);                     /* 9 black pawns */
    /* 16 pieces and 8 pawns are fine */
    board_t b;
    TU_FEN(&b, "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    TU_FEN(&b, "7k/6pp/8/8/QQQQQQQQ/8/8/RNBQKBNR w - - 0 1");
    ck_assert_int_eq(b.count[PIECE(WHITE, QUEEN)], 9);
}
END_TEST

START_TEST(test_reject_malformed)
{
    expect_reject("", false);
    expect_reject("not a fen at all", false);
    expect_reject("rnbqkbnr/pppppppp/8/8/8/4Z3/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false); /* bad letter */
    expect_reject("rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", false); /* 9 files */
    expect_reject("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false);   /* digit 9 */
    expect_reject("rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false);   /* 7 files */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false);     /* 7 ranks */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false); /* 9 ranks */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", false);                 /* 1 field */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w", false);               /* 2 fields */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", false);          /* 3 fields */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", false);    /* side */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", false);    /* castling */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", false);    /* clock */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", false);   /* clock */
    expect_reject("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", false);  /* 7 fields */
}
END_TEST

/* ---- copy-make ----------------------------------------------------------- */

static const char *const positions[] = {
    TU_START_FEN,
    TU_KIWIPETE_FEN,
    TU_PERFT3_FEN,
    TU_PERFT4_FEN,
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
};

START_TEST(test_copy_make_leaves_source)
{
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        board_t b, snap, to;
        move_t list[MAX_MOVES];
        TU_FEN(&b, positions[i]);
        memcpy(&snap, &b, sizeof b);
        int n = movegen_legal(&b, list);
        for (int k = 0; k < n; k++) {
            char ms[32];
            board_make_move(&b, list[k], &to);
            ck_assert_msg(memcmp(&snap, &b, sizeof b) == 0, "board_make_move(%s) changed the source %s",
                          tu_move_str(list[k], ms), positions[i]);
        }
        board_make_null(&b, &to);
        ck_assert_msg(memcmp(&snap, &b, sizeof b) == 0, "board_make_null changed the source %s", positions[i]);
    }
}
END_TEST

/* ---- castling rights ----------------------------------------------------- */

static board_t after(const char *fen, const char *moves)
{
    board_t b;
    TU_FEN(&b, fen);
    TU_PLAY(&b, moves);
    return b;
}

#define ALL_RIGHTS (CASTLE_WK | CASTLE_WQ | CASTLE_BK | CASTLE_BQ)
#define RR "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"

START_TEST(test_castling_lost_by_king_move)
{
    board_t b = after(RR, "Kd1");
    ck_assert_int_eq(b.castle, CASTLE_BK | CASTLE_BQ);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ_NONE);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 1)], SQ_NONE);
    b = after(RR, "Kf1 Kd8");
    ck_assert_int_eq(b.castle, 0);
}
END_TEST

START_TEST(test_castling_lost_by_rook_move)
{
    board_t b = after(RR, "Rb1");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_BK | CASTLE_BQ);
    b = after(RR, "Rh2");
    ck_assert_int_eq(b.castle, CASTLE_WQ | CASTLE_BK | CASTLE_BQ);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 0)], SQ_NONE);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(WHITE, 1)], SQ(0, 0));
    b = after(RR, "Rh2 Ra7");
    ck_assert_int_eq(b.castle, CASTLE_WQ | CASTLE_BK);
    /* the rook coming back does not bring the right back */
    b = after(RR, "Rh2 Ra7 Rh1 Ra8");
    ck_assert_int_eq(b.castle, CASTLE_WQ | CASTLE_BK);
}
END_TEST

/* A rook captured on its home square takes its right with it. */
START_TEST(test_castling_lost_by_rook_capture)
{
    board_t b = after("r3k2r/8/8/8/8/8/1B6/R3K2R w KQkq - 0 1", "Bxh8");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_WQ | CASTLE_BQ);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 0)], SQ_NONE);
    ck_assert_int_eq(b.castle_rook[CASTLE_INDEX(BLACK, 1)], SQ(0, 7));
    /* rook takes rook: both a-side rights go */
    b = after(RR, "Rxa8+");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_BK);
    /* black captures on h1 */
    b = after("r3k2r/6b1/8/8/8/8/8/R3K2R b KQkq - 0 1", "Bxa1");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_BK | CASTLE_BQ);
    /* a promotion capturing on a8 */
    b = after("r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1", "bxa8=Q+");
    ck_assert_int_eq(b.castle, CASTLE_WK | CASTLE_WQ | CASTLE_BK);
    /* a capture elsewhere keeps every right */
    b = after("r3k2r/8/8/8/3n4/8/1B6/R3K2R w KQkq - 0 1", "Bxd4");
    ck_assert_int_eq(b.castle, ALL_RIGHTS);
    ck_assert_int_eq(b.halfmove, 0);
}
END_TEST

START_TEST(test_castling_king_walk_keeps_rights_lost)
{
    board_t b = after(RR, "Ke2 Ke7 Ke1 Ke8");
    ck_assert_int_eq(b.castle, 0);
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(b.castle_rook[i], SQ_NONE);
    char out[128];
    ck_assert_str_eq(tu_fen_out(&b, out), "r3k2r/8/8/8/8/8/8/R3K2R w - - 4 3");
}
END_TEST

START_TEST(test_castling_moves_pieces_standard)
{
    board_t b = after(RR, "O-O");
    ck_assert_int_eq(b.sq[SQ(6, 0)], PIECE(WHITE, KING));
    ck_assert_int_eq(b.sq[SQ(5, 0)], PIECE(WHITE, ROOK));
    ck_assert_int_eq(b.sq[SQ(4, 0)], EMPTY);
    ck_assert_int_eq(b.sq[SQ(7, 0)], EMPTY);
    ck_assert_int_eq(b.king[WHITE], SQ(6, 0));
    ck_assert_int_eq(b.castle, CASTLE_BK | CASTLE_BQ);
    ck_assert_int_eq(b.halfmove, 1);
    b = after(RR, "O-O O-O-O");
    ck_assert_int_eq(b.sq[SQ(2, 7)], PIECE(BLACK, KING));
    ck_assert_int_eq(b.sq[SQ(3, 7)], PIECE(BLACK, ROOK));
    ck_assert_int_eq(b.sq[SQ(0, 7)], EMPTY);
    ck_assert_int_eq(b.sq[SQ(4, 7)], EMPTY);
    ck_assert_int_eq(b.sq[SQ(1, 7)], EMPTY);
    ck_assert_int_eq(b.castle, 0);
    char out[128];
    ck_assert_str_eq(tu_fen_out(&b, out), "2kr3r/8/8/8/8/8/8/R4RK1 w - - 2 2");
    /* the move is encoded king-takes-own-rook */
    TU_FEN(&b, RR);
    move_t m = TU_SAN(&b, "O-O-O");
    ck_assert_int_eq(m.from, SQ(4, 0));
    ck_assert_int_eq(m.to, SQ(0, 0));
    ck_assert_msg(m.flags & MOVE_CASTLE, "O-O-O lacks MOVE_CASTLE (flags %d)", m.flags);
}
END_TEST

/* Chess960 castling ends with the king and rook on the g/f or c/d files
 * whatever their start (FIDE Appendix C.9), including swaps and no-moves. */
START_TEST(test_castling_moves_pieces_chess960)
{
    static const struct {
        const char *fen, *uci, *fen_after;
    } cases[] = {
        {"1k6/8/8/8/8/8/8/1KR5 w K - 0 1", "b1c1", "1k6/8/8/8/8/8/8/5RK1 b - - 1 1"},
        {"1k6/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1", "1k6/8/8/8/8/8/8/2KR4 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/5KR1 w K - 0 1", "f1g1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", "d1c1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
        {"4k3/8/8/8/8/8/8/3RK3 w Q - 0 1", "e1d1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
        {"rk4r1/8/8/8/8/8/8/4K3 b kq - 3 9", "b8g8", "r4rk1/8/8/8/8/8/8/4K3 w - - 4 10"},
        {"rk4r1/8/8/8/8/8/8/4K3 b kq - 3 9", "b8a8", "2kr2r1/8/8/8/8/8/8/4K3 w - - 4 10"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b, to;
        char out[128];
        TU_FEN960(&b, cases[i].fen);
        move_t m = TU_MOVE(&b, cases[i].uci);
        ck_assert_msg(m.flags & MOVE_CASTLE, "%s in %s is not flagged castling", cases[i].uci, cases[i].fen);
        board_make_move(&b, m, &to);
        tu_fen_out(&to, out);
        ck_assert_msg(strcmp(out, cases[i].fen_after) == 0, "%s after %s:\n want %s\n  got %s", cases[i].fen,
                      cases[i].uci, cases[i].fen_after, out);
        ck_assert_msg(to.key == zobrist_compute(&to), "key after castling %s in %s", cases[i].uci, cases[i].fen);
    }
}
END_TEST

/* ---- clocks, en passant, counts ------------------------------------------ */

START_TEST(test_halfmove_and_fullmove)
{
    board_t b;
    TU_FEN(&b, "r3k2r/8/8/8/8/5p2/6P1/R3K2R w KQkq - 10 30");
    board_t q = b;
    TU_PLAY(&q, "Ra2");
    ck_assert_int_eq(q.halfmove, 11);
    ck_assert_int_eq(q.fullmove, 30);
    TU_PLAY(&q, "Ra7");
    ck_assert_int_eq(q.halfmove, 12);
    ck_assert_int_eq(q.fullmove, 31);
    q = b;
    TU_PLAY(&q, "gxf3"); /* capture */
    ck_assert_int_eq(q.halfmove, 0);
    q = b;
    TU_PLAY(&q, "g4"); /* pawn move */
    ck_assert_int_eq(q.halfmove, 0);
    q = b;
    TU_PLAY(&q, "O-O f2+"); /* castling counts, the pawn move resets */
    ck_assert_int_eq(q.halfmove, 0);
    ck_assert_int_eq(q.fullmove, 31);
    q = b;
    TU_PLAY(&q, "O-O Kd8");
    ck_assert_int_eq(q.halfmove, 12);
}
END_TEST

START_TEST(test_en_passant_square_and_capture)
{
    board_t b;
    board_start(&b);
    TU_PLAY(&b, "e4");
    ck_assert_int_eq(b.ep, SQ(4, 2));
    ck_assert_int_eq(b.ep_legal, false);
    TU_PLAY(&b, "a6 e5 d5");
    ck_assert_int_eq(b.ep, SQ(3, 5));
    ck_assert_int_eq(b.ep_legal, true);
    board_t q = b;
    TU_PLAY(&q, "exd6");
    ck_assert_int_eq(q.sq[SQ(3, 5)], PIECE(WHITE, PAWN));
    ck_assert_int_eq(q.sq[SQ(3, 4)], EMPTY);
    ck_assert_int_eq(q.sq[SQ(4, 4)], EMPTY);
    ck_assert_int_eq(q.count[PIECE(BLACK, PAWN)], 7);
    ck_assert_int_eq(q.halfmove, 0);
    ck_assert_int_eq(q.ep_legal, false);
    /* any other move clears the square */
    q = b;
    TU_PLAY(&q, "Nf3");
    ck_assert_int_eq(q.ep, SQ_NONE);
    ck_assert_int_eq(q.ep_legal, false);
}
END_TEST

START_TEST(test_counts_capture_and_promotion)
{
    board_t b;
    TU_FEN(&b, "3r4/4P3/8/8/8/8/k7/4K3 w - - 0 1");
    board_t q = b;
    TU_PLAY(&q, "e8=Q");
    ck_assert_int_eq(q.count[PIECE(WHITE, PAWN)], 0);
    ck_assert_int_eq(q.count[PIECE(WHITE, QUEEN)], 1);
    ck_assert_int_eq(q.count[PIECE(BLACK, ROOK)], 1);
    ck_assert_int_eq(q.sq[SQ(4, 7)], PIECE(WHITE, QUEEN));
    ck_assert_int_eq(q.halfmove, 0);
    q = b;
    TU_PLAY(&q, "exd8=N");
    ck_assert_int_eq(q.count[PIECE(WHITE, PAWN)], 0);
    ck_assert_int_eq(q.count[PIECE(WHITE, KNIGHT)], 1);
    ck_assert_int_eq(q.count[PIECE(BLACK, ROOK)], 0);
    ck_assert_int_eq(q.sq[SQ(3, 7)], PIECE(WHITE, KNIGHT));
    ck_assert_int_eq(q.sq[SQ(4, 6)], EMPTY);
    q = b;
    TU_PLAY(&q, "e8=R");
    ck_assert_int_eq(q.count[PIECE(WHITE, ROOK)], 1);
    ck_assert_int_eq(q.sq[SQ(4, 7)], PIECE(WHITE, ROOK));
    q = b;
    TU_PLAY(&q, "e8=B");
    ck_assert_int_eq(q.count[PIECE(WHITE, BISHOP)], 1);
    ck_assert_int_eq(q.sq[SQ(4, 7)], PIECE(WHITE, BISHOP));
    /* black promotes on the first rank capturing */
    TU_FEN(&b, "4k3/8/8/8/8/8/1p6/R3K3 b Q - 0 1");
    TU_PLAY(&b, "bxa1=Q+");
    ck_assert_int_eq(b.count[PIECE(WHITE, ROOK)], 0);
    ck_assert_int_eq(b.count[PIECE(BLACK, QUEEN)], 1);
    ck_assert_int_eq(b.count[PIECE(BLACK, PAWN)], 0);
    ck_assert_int_eq(b.castle, 0);
    ck_assert_msg(board_in_check(&b), "bxa1=Q should give check");
}
END_TEST

/* Counts and keys stay equal to a from-scratch recount over random games. */
START_TEST(test_counts_random_games)
{
    uint64_t seed = 12345;
    for (int game = 0; game < 40; game++) {
        board_t b, next;
        board_start(&b);
        for (int ply = 0; ply < 200; ply++) {
            move_t list[MAX_MOVES];
            int n = movegen_legal(&b, list);
            if (n == 0)
                break;
            board_make_move(&b, list[tu_rand(&seed) % (uint64_t)n], &next);
            b = next;
            int cnt[16] = {0};
            for (int sq = 0; sq < 128; sq++)
                if (!SQ_OFFBOARD(sq) && b.sq[sq])
                    cnt[b.sq[sq]]++;
            for (int p = 1; p < 16; p++) {
                char fen[128];
                ck_assert_msg(cnt[p] == b.count[p], "count[%d] = %d but %d on the board: %s", p, b.count[p],
                              cnt[p], tu_fen_out(&b, fen));
            }
            ck_assert_int_eq(b.sq[b.king[WHITE]], PIECE(WHITE, KING));
            ck_assert_int_eq(b.sq[b.king[BLACK]], PIECE(BLACK, KING));
            /* The square sets and the checker follow the board too. */
            uint64_t men[12] = {0};
            for (int sq = 0; sq < 128; sq++)
                if (!SQ_OFFBOARD(sq) && b.sq[sq] != EMPTY)
                    men[MEN_INDEX(b.sq[sq])] |= 1ULL << SQ64(sq);
            uint64_t occ = 0;
            for (int i = 0; i < 12; i++) {
                char fen[128];
                ck_assert_msg(men[i] == b.men[i], "men[%d] is stale: %s", i, tu_fen_out(&b, fen));
                occ |= men[i];
            }
            char occ_fen[128];
            ck_assert_msg(occ == b.occ, "occ is stale: %s", tu_fen_out(&b, occ_fen));
            board_t fresh;
            char fen[128];
            TU_FEN(&fresh, tu_fen_out(&b, fen));
            ck_assert_msg(fresh.in_check == b.in_check && fresh.checker == b.checker,
                          "check %d/%d, checker %d/%d after a move: %s", b.in_check, fresh.in_check, b.checker,
                          fresh.checker, fen);
        }
    }
}
END_TEST

/* board_play() gives what board_make_move() gives, and board_unplay()
 * brings back the board byte for byte, castling, en passant, promotion
 * and null moves included. */
START_TEST(test_play_unplay)
{
    static const tu_start_t starts[] = {
        TU_WALK_STARTS,
        {"r1k1r2q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K1R2Q w KQkq - 0 1", true},
        {"4r3/3k4/8/8/8/8/6PP/qR1K1R2 w KQ - 0 1", true},
    };
    uint64_t seed = 777;
    for (size_t st = 0; st < sizeof starts / sizeof *starts; st++) {
        for (int game = 0; game < 10; game++) {
            board_t b, made, played;
            tu_fen_at(TU_WHERE, &b, starts[st].fen, starts[st].c960);
            for (int ply = 0; ply < 150; ply++) {
                move_t list[MAX_MOVES + 1];
                int n = movegen_legal(&b, list);
                if (!b.in_check)
                    list[n++] = (move_t){ b.king[b.stm], b.king[b.stm], EMPTY, MOVE_NULL };
                if (n == 0)
                    break;
                for (int i = 0; i < n; i++) {
                    char fen[128], ms[32];
                    board_undo_t u;
                    if (list[i].flags & MOVE_NULL)
                        board_make_null(&b, &made);
                    else
                        board_make_move(&b, list[i], &made);
                    played = b;
                    board_play(&played, list[i], &u);
                    ck_assert_msg(memcmp(&played, &made, sizeof made) == 0, "board_play(%s) differs in %s",
                                  tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                    board_unplay(&played, list[i], &u);
                    ck_assert_msg(memcmp(&played, &b, sizeof b) == 0, "board_unplay(%s) differs in %s",
                                  tu_move_str(list[i], ms), tu_fen_out(&b, fen));
                }
                int pick = (int)(tu_rand(&seed) % (uint64_t)n);
                if (list[pick].flags & MOVE_NULL)
                    board_make_null(&b, &made);
                else
                    board_make_move(&b, list[pick], &made);
                b = made;
            }
        }
    }
}
END_TEST

/* The checker: the one man giving check, none in double check. */
START_TEST(test_checker)
{
    static const struct {
        const char *fen, *moves;
        int checker;
    } cases[] = {
        {"4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", "", SQ(5, 2)},
        {"4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", "", SQ(1, 3)},
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "", SQ_NONE},
        {"4k3/4r3/8/8/8/5n2/8/4K3 w - - 0 1", "", SQ_NONE}, /* double check */
        /* discovered double check: the knight checks and uncovers the rook */
        {"4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", "Nf6+", SQ_NONE},
        /* discovered check alone */
        {"4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1", "Nc3+", SQ(4, 0)},
        /* en passant uncovering one rank twice: one checker */
        {"8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 2", "exd6+", SQ(0, 4)},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        TU_FEN(&b, cases[i].fen);
        TU_PLAY(&b, cases[i].moves);
        ck_assert_msg(b.checker == cases[i].checker, "%s %s: checker %d, want %d", cases[i].fen, cases[i].moves,
                      b.checker, cases[i].checker);
    }
}
END_TEST

/* ---- null move, check ---------------------------------------------------- */

START_TEST(test_null_move)
{
    board_t b, n;
    board_start(&b);
    TU_PLAY(&b, "e4 a6 e5 d5");
    ck_assert_int_eq(b.ep_legal, true);
    board_make_null(&b, &n);
    ck_assert_int_eq(n.stm, BLACK);
    ck_assert_int_eq(n.ep_legal, false);
    ck_assert_int_eq(n.ep, SQ_NONE);
    ck_assert_int_eq(n.halfmove, b.halfmove + 1);
    ck_assert_int_eq(n.fullmove, b.fullmove);
    ck_assert_msg(n.key == zobrist_compute(&n), "key after a null move");
    ck_assert_msg(memcmp(n.sq, b.sq, sizeof b.sq) == 0, "a null move moved pieces");
    board_t n2;
    board_make_null(&n, &n2);
    ck_assert_int_eq(n2.stm, WHITE);
    ck_assert_int_eq(n2.fullmove, b.fullmove + 1);
}
END_TEST

START_TEST(test_in_check)
{
    static const struct {
        const char *fen;
        bool check;
    } cases[] = {
        {TU_START_FEN, false},
        {"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", true},
        {"4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", true},   /* pawn */
        {"4k3/8/8/8/8/8/4p3/4K3 w - - 0 1", false},  /* pawn straight ahead */
        {"4k3/8/8/8/8/5n2/8/4K3 w - - 0 1", true},   /* knight */
        {"4k3/8/8/8/1b6/8/8/4K3 w - - 0 1", true},   /* bishop */
        {"4k3/8/8/8/1b6/2P5/8/4K3 w - - 0 1", false},/* bishop blocked */
        {"4k3/4r3/8/8/8/8/8/4K3 w - - 0 1", true},   /* rook */
        {"4k3/8/8/8/8/8/8/r3K3 w - - 0 1", true},    /* rook on the rank */
        {"4k3/8/8/8/8/8/8/q2NK3 w - - 0 1", false},  /* queen blocked */
        {"8/8/8/8/8/8/5k2/3K4 b - - 0 1", false},
        {"4k3/3P4/8/8/8/8/8/4K3 b - - 0 1", true},   /* white pawn checks upwards */
        {"4k3/4P3/8/8/8/8/8/4K3 b - - 0 1", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        TU_FEN(&b, cases[i].fen);
        ck_assert_msg(board_in_check(&b) == cases[i].check, "board_in_check(%s) = %d, want %d", cases[i].fen,
                      board_in_check(&b), cases[i].check);
    }
}
END_TEST

/* board_to_fen never writes past cap and always terminates. */
START_TEST(test_to_fen_small_buffer)
{
    board_t b;
    char buf[16];
    memset(buf, 'X', sizeof buf);
    board_start(&b);
    board_to_fen(&b, buf, 10);
    ck_assert_msg(memchr(buf, '\0', 10) != NULL, "no NUL within cap");
    ck_assert_int_eq(buf[10], 'X');
}
END_TEST

/* The square bit table and the lowest-bit index agree with SQ64(); the
 * undo record's castling and en passant bytes are the board's before the move. */
START_TEST(test_square_bits_and_undo_bytes)
{
    for (int sq = 0; sq < 128; sq++) {
        uint64_t want = SQ_OFFBOARD(sq) ? 0 : 1ULL << SQ64(sq);
        ck_assert_msg(board_sq_bit[sq] == want, "board_sq_bit[0x%02x] wrong", sq);
        if (want)
            ck_assert_int_eq(board_lsb(want | (want << 1) | 0x8000000000000000ULL), SQ64(sq));
    }
    board_t b;
    board_undo_t u;
    tu_fen_at(TU_WHERE, &b, "4k3/8/8/3pP3/8/8/8/R3K2R w KQ d6 0 2", false);
    ck_assert(b.ep_legal);
    board_play(&b, (move_t){ SQ(4, 0), SQ(4, 1), EMPTY, 0 }, &u); /* Ke2: rights and e.p. go */
    ck_assert_int_eq(board_undo_castle(&u), CASTLE_WK | CASTLE_WQ);
    ck_assert(board_undo_ep_legal(&u));
    ck_assert_int_eq(b.castle, 0);
    ck_assert(!b.ep_legal);
}
END_TEST

/* The reach sets agree with the ray table square by square, and the men
 * index table keeps knights to queens of a colour together (rules.c and
 * movegen.c count on men[MEN_INDEX(knight) + 1..3]). */
START_TEST(test_reach_bits_and_men_index)
{
    for (int t = KNIGHT; t <= QUEEN; t++) {
        for (int to = 0; to < 128; to++) {
            uint64_t want = 0;
            for (int f = 0; f < 128 && !SQ_OFFBOARD(to); f++)
                if (!SQ_OFFBOARD(f) && f != to && (board_ray_kinds[BOARD_DELTA(f, to)] & (1 << t)))
                    want |= 1ULL << SQ64(f);
            ck_assert_msg(board_reach_bits[t - KNIGHT][to] == want, "board_reach_bits[%d][0x%02x] is %llx, want %llx",
                          t - KNIGHT, to, (unsigned long long)board_reach_bits[t - KNIGHT][to],
                          (unsigned long long)want);
        }
    }
    bool used[12] = { false };
    for (int c = WHITE; c <= BLACK; c++) {
        for (int t = PAWN; t <= KING; t++) {
            int i = MEN_INDEX(PIECE(c, t));
            ck_assert_msg(i >= 0 && i < 12 && !used[i], "MEN_INDEX of colour %d type %d: %d", c, t, i);
            used[i] = true;
            if (t >= KNIGHT && t <= QUEEN)
                ck_assert_int_eq(i, MEN_PIECES(c) + t - KNIGHT);
            if (t == PAWN)
                ck_assert_int_eq(i, MEN_PAWNS(c));
        }
    }
}
END_TEST

/* The ray tables against walks square by square: the direction of every
 * pair of squares, each ray to the edge, the squares between two squares
 * on a line, the first man met on a ray, and the highest bit. */
START_TEST(test_rays_and_between)
{
    static const int steps[8] = { 1, 17, 16, 15, -1, -17, -16, -15 };
    uint64_t seed = 12345;
    for (int a = 0; a < 128; a++) {
        if (SQ_OFFBOARD(a))
            continue;
        for (int d = 0; d < 8; d++) {
            uint64_t want = 0;
            for (int q = a + steps[d]; !SQ_OFFBOARD(q); q += steps[d])
                want |= board_sq_bit[q];
            ck_assert_msg(board_ray_bits[d][a] == want, "board_ray_bits[%d][0x%02x]", d, a);
            for (int k = 0; k < 8; k++) {
                uint64_t occ = tu_rand(&seed) & tu_rand(&seed), first = 0;
                for (int q = a + steps[d]; !SQ_OFFBOARD(q) && !first; q += steps[d])
                    first = occ & board_sq_bit[q];
                int got = board_first_on_ray(a, d, occ);
                ck_assert_msg(first ? got == board_lsb(first) : got == -1, "board_first_on_ray(0x%02x, %d)", a, d);
            }
        }
        ck_assert_int_eq(board_ray_bits[BOARD_DIR_NONE][a], 0);
        for (int b = 0; b < 128; b++) {
            if (SQ_OFFBOARD(b) || b == a)
                continue;
            int step = board_ray_step[BOARD_DELTA(a, b)], d = board_ray_dir[BOARD_DELTA(a, b)];
            if (!step) {
                ck_assert_msg(d == BOARD_DIR_NONE, "board_ray_dir 0x%02x 0x%02x", a, b);
                continue;
            }
            ck_assert_msg(d < 8 && steps[d] == step, "board_ray_dir 0x%02x 0x%02x: %d", a, b, d);
            ck_assert_int_eq(BOARD_DIR_DIAGONAL(d), step == 17 || step == 15 || step == -17 || step == -15);
            uint64_t between = 0;
            for (int q = a + step; q != b; q += step)
                between |= board_sq_bit[q];
            ck_assert_msg(board_between(a, b) == between, "board_between(0x%02x, 0x%02x)", a, b);
        }
    }
    for (int i = 0; i < 1000; i++) {
        uint64_t x = tu_rand(&seed) >> (tu_rand(&seed) % 64);
        if (!x)
            continue;
        int hi = 63;
        while (!((x >> hi) & 1))
            hi--;
        ck_assert_int_eq(board_msb(x), hi);
    }
}
END_TEST

/* board_move() gives the move that the fields name, on any byte order. */
START_TEST(test_board_move)
{
    for (unsigned from = 0; from < 128; from += 7)
        for (unsigned to = 0; to < 128; to += 5)
            for (unsigned promo = 0; promo <= KING; promo++)
                for (unsigned flags = 0; flags < 32; flags += 3) {
                    move_t m = board_move(from, to, promo, flags);
                    ck_assert(m.from == from && m.to == to && m.promo == promo && m.flags == flags);
                }
}
END_TEST

static Suite *board_suite(void)
{
    Suite *s = suite_create("board");
    TU_CASE(s, test_fen_roundtrip_standard, 10);
    TU_CASE(s, test_fen_ep_shown_only_when_legal, 10);
    TU_CASE(s, test_fen_roundtrip_chess960_xfen, 10);
    TU_CASE(s, test_fen_shredder_equals_xfen, 10);
    TU_CASE(s, test_fen_standard_accepts_file_letters, 10);
    TU_CASE(s, test_fen_lenient_like_python_chess, 10);
    TU_CASE(s, test_fen_four_and_five_fields, 10);
    TU_CASE(s, test_board_start_matches_fen, 10);
    TU_CASE(s, test_fen_fields_start, 10);
    TU_CASE(s, test_fen_fields_misc, 10);
    TU_CASE(s, test_reject_kings, 10);
    TU_CASE(s, test_reject_pawn_on_back_rank, 10);
    TU_CASE(s, test_reject_side_not_to_move_in_check, 10);
    TU_CASE(s, test_fen_accepts_xray_behind_own_pieces, 10);
    TU_CASE(s, test_reject_castling_without_king_or_rook, 10);
    TU_CASE(s, test_reject_ep_square, 10);
    TU_CASE(s, test_reject_too_many_pieces, 10);
    TU_CASE(s, test_reject_malformed, 10);
    TU_CASE(s, test_copy_make_leaves_source, 10);
    TU_CASE(s, test_castling_lost_by_king_move, 10);
    TU_CASE(s, test_castling_lost_by_rook_move, 10);
    TU_CASE(s, test_castling_lost_by_rook_capture, 10);
    TU_CASE(s, test_castling_king_walk_keeps_rights_lost, 10);
    TU_CASE(s, test_castling_moves_pieces_standard, 10);
    TU_CASE(s, test_castling_moves_pieces_chess960, 10);
    TU_CASE(s, test_halfmove_and_fullmove, 10);
    TU_CASE(s, test_en_passant_square_and_capture, 10);
    TU_CASE(s, test_counts_capture_and_promotion, 10);
    TU_CASE(s, test_counts_random_games, 60);
    TU_CASE(s, test_null_move, 10);
    TU_CASE(s, test_square_bits_and_undo_bytes, 10);
    TU_CASE(s, test_reach_bits_and_men_index, 10);
    TU_CASE(s, test_rays_and_between, 10);
    TU_CASE(s, test_board_move, 10);
    TU_CASE(s, test_in_check, 10);
    TU_CASE(s, test_checker, 10);
    TU_CASE(s, test_play_unplay, 60);
    TU_CASE(s, test_to_fen_small_buffer, 10);
    return s;
}

int main(void)
{
    return tu_run(board_suite());
}

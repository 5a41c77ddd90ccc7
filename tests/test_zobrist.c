/* test_zobrist.c: the key tables and the incremental key (zobrist.h).
 *
 * A key that misses a castling right or the side to move makes different
 * positions look equal and claims threefold draws that are not there
 * (STYLE.md: c-chess-cli shipped with castling keys never set). */
#include "testutil.h"

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* ---- tables ------------------------------------------------------------- */

START_TEST(test_tables_nonzero_and_distinct)
{
    uint64_t all[768 + 15 + 8 + 1];
    size_t n = 0;
    for (int c = 0; c < 2; c++)
        for (int t = PAWN; t <= KING; t++)
            for (int sq = 0; sq < 128; sq++) {
                if (SQ_OFFBOARD(sq))
                    continue;
                uint64_t k = zobrist_piece[PIECE(c, t)][sq];
                ck_assert_msg(k != 0, "zobrist_piece[%d][%d] (colour %d type %d) is zero", PIECE(c, t), sq, c, t);
                all[n++] = k;
            }
    ck_assert_int_eq(n, 768);
    for (int m = 1; m < 16; m++) {
        ck_assert_msg(zobrist_castle[m] != 0, "zobrist_castle[%d] is zero", m);
        all[n++] = zobrist_castle[m];
    }
    for (int f = 0; f < 8; f++) {
        ck_assert_msg(zobrist_ep[f] != 0, "zobrist_ep[%d] is zero", f);
        all[n++] = zobrist_ep[f];
    }
    ck_assert_msg(zobrist_black != 0, "zobrist_black is zero");
    all[n++] = zobrist_black;
    qsort(all, n, sizeof *all, cmp_u64);
    for (size_t i = 1; i < n; i++)
        ck_assert_msg(all[i] != all[i - 1], "two table entries share the value %016llx",
                      (unsigned long long)all[i]);
}
END_TEST

START_TEST(test_castle_table)
{
    ck_assert_msg(zobrist_castle[0] == 0, "zobrist_castle[0] must be 0 (no rights)");
    for (int a = 1; a < 16; a++)
        for (int b = a + 1; b < 16; b++)
            ck_assert_msg(zobrist_castle[a] != zobrist_castle[b], "zobrist_castle[%d] == zobrist_castle[%d]", a, b);
}
END_TEST

/* The key of a position is the XOR of the documented table entries. */
static uint64_t reference_key(const board_t *b)
{
    uint64_t k = 0;
    for (int sq = 0; sq < 128; sq++)
        if (!SQ_OFFBOARD(sq) && b->sq[sq])
            k ^= zobrist_piece[b->sq[sq]][sq];
    k ^= zobrist_castle[b->castle & 15];
    if (b->ep_legal)
        k ^= zobrist_ep[SQ_FILE(b->ep)];
    if (b->stm == BLACK)
        k ^= zobrist_black;
    return k;
}

START_TEST(test_compute_is_xor_of_tables)
{
    static const char *const fens[] = {
        TU_START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b Kq - 0 1",
        "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
        "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        board_t b;
        TU_FEN(&b, fens[i]);
        ck_assert_msg(zobrist_compute(&b) == reference_key(&b), "zobrist_compute(%s) = %016llx, tables give %016llx",
                      fens[i], (unsigned long long)zobrist_compute(&b), (unsigned long long)reference_key(&b));
        ck_assert_msg(b.key == zobrist_compute(&b), "key after board_from_fen(%s) differs from zobrist_compute", fens[i]);
    }
}
END_TEST

/* ---- the incremental key ------------------------------------------------ */

static void check_key(const board_t *b, const char *what, int ply)
{
    char fen[128];
    ck_assert_msg(b->key == zobrist_compute(b), "%s, ply %d: incremental key %016llx != zobrist_compute %016llx in %s",
                  what, ply, (unsigned long long)b->key, (unsigned long long)zobrist_compute(b), tu_fen_out(b, fen));
}

/* Real games, every move of them. */
static const char *const games[] = {
    /* Nepomniachtchi - Ding, WCC 2023 game 1 */
    "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Bxc6 dxc6 7. Re1 Nd7 8. d4 exd4 "
    "9. Qxd4 O-O 10. Bf4 Nc5 11. Qe3 Bg4 12. Nd4 Qd7 13. Nc3 Rad8 14. Nf5 Ne6 15. Nxe7+ Qxe7 "
    "16. Bg3 Bh5 17. f3 f6 18. h3 h6 19. Kh2 Bf7 20. Rad1 b6 21. a3 a5 22. Ne2 Rxd1 23. Rxd1 "
    "Rd8 24. Rd3 c5 25. Qd2 c6 26. Rxd8+ Nxd8 27. Qf4 b5 28. Qb8 Kh7 29. Bd6 Qd7 30. Ng3 Ne6 "
    "31. f4 h5 32. c3 c4 33. h4 Qd8 34. Qb7 Be8 35. Nf5 Qd7 36. Qb8 Qd8 37. Qxd8 Nxd8 38. Nd4 "
    "Nb7 39. e5 Kg8 40. Kg3 Bd7 41. Bc7 Nc5 42. Bxa5 Kf7 43. Bb4 Nd3 44. e6+ Bxe6 45. Nxc6 Bd7 "
    "46. Nd4 Nxb2 47. Kf3 Nd3 48. g3 Nc1 49. Ke3",
    /* Kasparov - Deep Blue 1997, game 1 */
    "1.Nf3 d5 2.g3 Bg4 3.b3 Nd7 4.Bb2 e6 5.Bg2 Ngf6 6.O-O c6 7.d3 Bd6 8.Nbd2 O-O 9.h3 Bh5 "
    "10.e3 h6 11.Qe1 Qa5 12.a3 Bc7 13.Nh4 g5 14.Nhf3 e5 15.e4 Rfe8 16.Nh2 Qb6 17.Qc1 a5 "
    "18.Re1 Bd6 19.Ndf1 dxe4 20.dxe4 Bc5 21.Ne3 Rad8 22.Nhf1 g4 23.hxg4 Nxg4 24.f3 Nxe3 "
    "25.Nxe3 Be7 26.Kh1 Bg5 27.Re2 a4 28.b4 f5 29.exf5 e4 30.f4 Bxe2 31.fxg5 Ne5 32.g6 Bf3 "
    "33.Bc3 Qb5 34.Qf1 Qxf1+ 35.Rxf1 h5 36.Kg1 Kf8 37.Bh3 b5 38.Kf2 Kg7 39.g4 Kh6 40.Rg1 "
    "hxg4 41.Bxg4 Bxg4 42.Nxg4+ Nxg4+ 43.Rxg4 Rd5 44.f6 Rd1 45.g7",
    /* Deep Blue - Kasparov 1997, game 2 */
    "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6 4.Ba4 Nf6 5.O-O Be7 6.Re1 b5 7.Bb3 d6 8.c3 O-O 9.h3 h6 "
    "10.d4 Re8 11.Nbd2 Bf8 12.Nf1 Bd7 13.Ng3 Na5 14.Bc2 c5 15.b3 Nc6 16.d5 Ne7 17.Be3 Ng6 "
    "18.Qd2 Nh7 19.a4 Nh4 20.Nxh4 Qxh4 21.Qe2 Qd8 22.b4 Qc7 23.Rec1 c4 24.Ra3 Rec8 25.Rca1 "
    "Qd8 26.f4 Nf6 27.fxe5 dxe5 28.Qf1 Ne8 29.Qf2 Nd6 30.Bb6 Qe8 31.R3a2 Be7 32.Bc5 Bf8 "
    "33.Nf5 Bxf5 34.exf5 f6 35.Bxd6 Bxd6 36.axb5 axb5 37.Be4 Rxa2 38.Qxa2 Qd7 39.Qa7 Rc7 "
    "40.Qb6 Rb7 41.Ra8+ Kf7 42.Qa6 Qc7 43.Qc6 Qb6+ 44.Kf1 Rb8 45.Ra6",
    /* a made-up game with both castlings, en passant and promotions of both sides */
    "1. e4 d5 2. e5 f5 3. exf6 Nxf6 4. d4 Bf5 5. Nc3 Nc6 6. Bb5 Qd7 7. Nf3 O-O-O 8. O-O e6 "
    "9. Bxc6 Qxc6 10. Ne5 Qb6 11. a4 g5 12. a5 Qxb2 13. a6 Qxc3 14. axb7+ Kb8 15. Bxg5 Qxd4 "
    "16. Bxf6 Qxe5 17. Bxh8 Qxh2+ 18. Kxh2 Bd6+ 19. Kg1 Bxc2 20. Qxc2 h5 21. Qxc7+ Bxc7 "
    "22. Rxa7 Kxa7 23. b8=Q+ Rxb8 24. Be5 Rb1 25. Rxb1 Bxe5 26. Rb4 Bc3 27. Rb3 d4 28. Rxc3 dxc3 "
    "29. f4 c2 30. f5 c1=Q+ 31. Kh2 exf5 32. g4 fxg4 33. Kg3 Qg5 34. Kh2 g3+ 35. Kg2 h4 36. Kf3",
};

START_TEST(test_key_incremental_real_games)
{
    for (size_t g = 0; g < sizeof games / sizeof *games; g++) {
        board_t b, next;
        const char *p = games[g];
        char tok[16], what[32];
        int ply = 0;
        board_start(&b);
        snprintf(what, sizeof what, "game %zu", g + 1);
        check_key(&b, what, 0);
        while (tu_next_token(&p, tok)) {
            move_t m = TU_SAN(&b, tok);
            board_make_move(&b, m, &next);
            b = next;
            check_key(&b, what, ++ply);
        }
        ck_assert_msg(ply > 40, "game %zu too short (%d plies)", g + 1, ply);
    }
}
END_TEST

/* Random walks: every move of every walk, null moves mixed in.  With
 * via_fen, also the key of the position read back from its FEN. */
static void random_walks(bool via_fen)
{
    static const tu_start_t starts[] = {
        TU_WALK_STARTS,
        {"2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", true},
        {"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1", true},
    };
    uint64_t seed = 0x5EED;
    for (size_t s = 0; s < sizeof starts / sizeof *starts; s++) {
        for (int walk = 0; walk < 30; walk++) {
            board_t b, next;
            char what[128];
            snprintf(what, sizeof what, "walk %d from %s", walk, starts[s].fen);
            tu_fen_at(TU_WHERE, &b, starts[s].fen, starts[s].c960);
            for (int ply = 1; ply <= 150; ply++) {
                move_t list[MAX_MOVES];
                int n = movegen_legal(&b, list);
                if (n == 0)
                    break;
                if (tu_rand(&seed) % 23 == 0 && !board_in_check(&b))
                    board_make_null(&b, &next);
                else
                    board_make_move(&b, list[tu_rand(&seed) % (uint64_t)n], &next);
                b = next;
                check_key(&b, what, ply);
                if (via_fen) {
                    board_t c;
                    char fen[128];
                    tu_fen_out(&b, fen);
                    tu_fen_at(TU_WHERE, &c, fen, starts[s].c960);
                    ck_assert_msg(c.key == b.key, "%s: key changes through FEN %s", what, fen);
                }
            }
        }
    }
}

START_TEST(test_key_incremental_random_walks)
{
    random_walks(false);
}
END_TEST

/* The key survives a trip through FEN text (positions from random walks). */
START_TEST(test_key_survives_fen_round_trip)
{
    random_walks(true);
}
END_TEST

/* ---- what the key must see ---------------------------------------------- */

static uint64_t key_of(const char *fen, bool c960)
{
    board_t b;
    tu_fen_at(TU_WHERE, &b, fen, c960);
    return b.key;
}

/* All 16 castling states of one placement give 16 different keys. */
START_TEST(test_key_each_castling_state)
{
    static const char *const rights[16] = {"-",   "K",   "Q",   "KQ",   "k",   "Kk",   "Qk",   "KQk",
                                           "q",   "Kq",  "Qq",  "KQq",  "kq",  "Kkq",  "Qkq",  "KQkq"};
    for (int c960 = 0; c960 < 2; c960++) {
        uint64_t keys[16];
        for (int m = 0; m < 16; m++) {
            char fen[100];
            snprintf(fen, sizeof fen, "r3k2r/8/8/8/8/8/8/R3K2R w %s - 0 1", rights[m]);
            board_t b;
            tu_fen_at(TU_WHERE, &b, fen, c960);
            ck_assert_msg(b.castle == m, "castling \"%s\" parsed as mask %d", rights[m], b.castle);
            keys[m] = b.key;
            for (int j = 0; j < m; j++)
                ck_assert_msg(keys[j] != keys[m], "castling \"%s\" and \"%s\" give the same key%s", rights[j],
                              rights[m], c960 ? " (chess960)" : "");
        }
    }
}
END_TEST

START_TEST(test_key_side_to_move)
{
    static const char *const pairs[][2] = {
        {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 b - - 0 1"},
        {TU_START_FEN, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"},
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        ck_assert_msg(key_of(pairs[i][0], false) != key_of(pairs[i][1], false), "same key for %s and %s",
                      pairs[i][0], pairs[i][1]);
}
END_TEST

/* The clocks are not part of the position (FIDE 9.2.2). */
START_TEST(test_key_ignores_clocks)
{
    ck_assert(key_of("4k3/8/8/8/8/8/8/4K2R w K - 0 1", false) == key_of("4k3/8/8/8/8/8/8/4K2R w K - 37 90", false));
}
END_TEST

/* A legal en passant capture makes the position different (FIDE 9.2.3). */
START_TEST(test_key_legal_ep_counts)
{
    static const char *const with_ep[] = {
        "rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3",
        "4k3/2b5/8/3pP3/5K2/8/8/8 w - d6 0 2",   /* capture along the pin line */
        "4k3/8/8/3pP3/4K3/8/8/8 w - d6 0 2",     /* capture removes the checker */
        "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1",
        "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1",
        "4k3/8/8/pP6/8/8/8/4K3 w - a6 0 2",
        "4k3/8/8/6Pp/8/8/8/4K3 w - h6 0 2",
    };
    for (size_t i = 0; i < sizeof with_ep / sizeof *with_ep; i++) {
        char without[100];
        const char *dash;
        snprintf(without, sizeof without, "%s", with_ep[i]);
        /* replace the ep field (fourth) with "-" */
        char *f = without;
        for (int sp = 0; sp < 3; sp++)
            f = strchr(f, ' ') + 1;
        memmove(f + 1, f + 2, strlen(f + 2) + 1);
        *f = '-';
        dash = without;
        ck_assert_msg(key_of(with_ep[i], false) != key_of(dash, false), "legal en passant ignored: %s vs %s",
                      with_ep[i], dash);
    }
}
END_TEST

/* An en passant square whose capture is illegal or impossible leaves the
 * key as if there were none (FIDE 9.2.3: the possible moves are the same). */
START_TEST(test_key_illegal_ep_ignored)
{
    static const char *const pairs[][2] = {
        {"8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 2", "8/8/8/K2pP2r/8/8/8/4k3 w - - 0 2"},       /* rank pin */
        {"8/8/8/r2pP2K/8/8/8/4k3 w - d6 0 2", "8/8/8/r2pP2K/8/8/8/4k3 w - - 0 2"},       /* rank pin, mirrored */
        {"4k3/8/5b2/3pP3/3K4/8/8/8 w - d6 0 2", "4k3/8/5b2/3pP3/3K4/8/8/8 w - - 0 2"},   /* diagonal pin */
        {"4k3/1n6/8/K2pP3/8/8/8/8 w - d6 0 2", "4k3/1n6/8/K2pP3/8/8/8/8 w - - 0 2"},     /* other check */
        {"4k3/8/8/3p4/8/8/8/4K3 w - d6 0 2", "4k3/8/8/3p4/8/8/8/4K3 w - - 0 2"},         /* no capturer */
        {"4k3/8/8/3p3P/8/8/8/4K3 w - d6 0 2", "4k3/8/8/3p3P/8/8/8/4K3 w - - 0 2"},       /* not adjacent */
        {"4k3/8/8/p6P/8/8/8/4K3 w - a6 0 2", "4k3/8/8/p6P/8/8/8/4K3 w - - 0 2"},         /* board edge */
        {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
         "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++) {
        ck_assert_msg(key_of(pairs[i][0], false) == key_of(pairs[i][1], false),
                      "illegal en passant changed the key: %s vs %s", pairs[i][0], pairs[i][1]);
    }
}
END_TEST

/* The same position reached by different move orders has one key, and it
 * equals the key of its FEN; a double step without a capturer is no
 * different from arriving some other way. */
START_TEST(test_key_transpositions)
{
    board_t a, b, c;
    board_start(&a);
    board_start(&b);
    TU_PLAY(&a, "Nf3 Nf6 Nc3 Nc6");
    TU_PLAY(&b, "Nc3 Nc6 Nf3 Nf6");
    ck_assert(a.key == b.key);
    TU_FEN(&c, "r1bqkb1r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R1BQKB1R w KQkq - 4 3");
    ck_assert(a.key == c.key);

    board_start(&a);
    board_start(&b);
    TU_PLAY(&a, "e4");
    TU_PLAY(&b, "e4 Nf6 Nf3 Ng8 Ng1");
    ck_assert_msg(a.key == b.key, "1.e4 (no capturer for e3) differs from the same position later");
    TU_FEN(&c, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
    ck_assert_msg(a.key != c.key, "1.e4 with white to move shares the key of 1.e4");

    /* legal en passant after 2...d5: the position differs from the same
     * placement reached with a quiet last move */
    board_start(&a);
    board_start(&b);
    TU_PLAY(&a, "e4 a6 e5 d5");
    TU_PLAY(&b, "e4 d5 e5 a6 Nf3 Nf6 Ng1 Ng8");
    ck_assert_msg(a.ep_legal && !b.ep_legal, "ep_legal %d / %d", a.ep_legal, b.ep_legal);
    ck_assert_msg(a.key != b.key, "legal en passant after 2...d5 not in the key");
    /* a pinned capturer: the double step leaves the key as a quiet move would */
    TU_FEN(&a, "4k3/3p4/8/K3P2r/8/8/8/8 b - - 0 1");
    TU_PLAY(&a, "d5");
    TU_FEN(&b, "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 2");
    ck_assert_msg(!a.ep_legal, "pinned en passant flagged legal");
    ck_assert_msg(a.key == b.key, "pinned en passant after a double step changed the key");
}
END_TEST

static Suite *zobrist_suite(void)
{
    Suite *s = suite_create("zobrist");
    TU_CASE(s, test_tables_nonzero_and_distinct, 10);
    TU_CASE(s, test_castle_table, 10);
    TU_CASE(s, test_compute_is_xor_of_tables, 10);
    TU_CASE(s, test_key_incremental_real_games, 30);
    TU_CASE(s, test_key_incremental_random_walks, 120);
    TU_CASE(s, test_key_survives_fen_round_trip, 120);
    TU_CASE(s, test_key_each_castling_state, 10);
    TU_CASE(s, test_key_side_to_move, 10);
    TU_CASE(s, test_key_ignores_clocks, 10);
    TU_CASE(s, test_key_legal_ep_counts, 10);
    TU_CASE(s, test_key_illegal_ep_ignored, 10);
    TU_CASE(s, test_key_transpositions, 10);
    return s;
}

int main(void)
{
    return tu_run(zobrist_suite());
}

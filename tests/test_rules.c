/* test_rules.c: rule facts per ply (rules.h), FIDE Laws 2023, python-chess
 * 1.11 as the executable reference.
 *
 * The games of shared/corpus/rules (PGN) are copied inline with the answers
 * of shared/golden/rules (JSON lines); the other games were made for these tests
 * and their answers checked by hand and with a re-implementation of
 * python-chess's can_claim_threefold_repetition / can_claim_fifty_moves. */
#include "dead.h"
#include "testutil.h"

/* Plays a game and compares every first[] value; facts not named are -1. */
#define GAME_TEST(name, fen, moves, expect)                                                        \
    START_TEST(name)                                                                               \
    {                                                                                              \
        rules_t r;                                                                                 \
        TU_GAME(&r, fen, moves);                                                                   \
        TU_EXPECT_FIRST(&r, #name, expect);                                                        \
        rules_free(&r);                                                                            \
    }                                                                                              \
    END_TEST

#define GAME_TEST960(name, fen, moves, expect)                                                     \
    START_TEST(name)                                                                               \
    {                                                                                              \
        rules_t r;                                                                                 \
        TU_GAME960(&r, fen, moves);                                                                \
        TU_EXPECT_FIRST(&r, #name, expect);                                                        \
        rules_free(&r);                                                                            \
    }                                                                                              \
    END_TEST

/* ---- shared/corpus/rules with shared/golden/rules ------------------------ */

/* threefold-declared.pgn: after 4.Ng1 Black declares 4...Ng8, the third
 * occurrence of the start position (plies 0, 4, 8): claimable at ply 7. */
GAME_TEST(corpus_threefold_declared_1, NULL, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8", "threefold=7")
/* the same position by different move orders (plies 4, 8, 12) */
GAME_TEST(corpus_threefold_declared_2, NULL,
          "1. Nf3 Nf6 2. Nc3 Nc6 3. Nb1 Nb8 4. Nc3 Nc6 5. Ng1 Ng8 6. Nf3 Nf6", "threefold=11")
/* Ke2/Ke7 lose castling rights, so plies 0-4 never repeat; plies 4, 8, 12 do */
GAME_TEST(corpus_threefold_declared_3, NULL,
          "1. e4 e5 2. Ke2 Ke7 3. Ke1 Ke8 4. Ke2 Ke7 5. Ke1 Ke8 6. Ke2 Ke7", "threefold=11")

/* Declared by a rook, a bishop, a queen on either line: at ply 7 Black's
 * move back to a8 makes the third occurrence of the start position. */
GAME_TEST(threefold_declared_rook, "r3k3/7p/8/8/8/8/P7/4K3 w - - 0 1", "1. Kd1 Ra7 2. Ke1 Ra8 3. Kd1 Ra7 4. Ke1",
          "threefold=7")
GAME_TEST(threefold_declared_bishop, "b3k3/p7/8/8/8/8/P7/4K3 w - - 0 1", "1. Kd1 Bb7 2. Ke1 Ba8 3. Kd1 Bb7 4. Ke1",
          "threefold=7")
GAME_TEST(threefold_declared_queen_diagonal, "q3k3/p7/8/8/8/8/P7/4K3 w - - 0 1",
          "1. Kd1 Qb7 2. Ke1 Qa8 3. Kd1 Qb7 4. Ke1", "threefold=7")
GAME_TEST(threefold_declared_queen_file, "q3k3/8/8/8/8/8/P7/4K3 w - - 0 1",
          "1. Kd1 Qa7 2. Ke1 Qa8 3. Kd1 Qa7 4. Ke1", "threefold=7")

/* fifty-claim-99.pgn: clock 99 at ply 2, the side to move declares a quiet move */
GAME_TEST(corpus_fifty_claim_99_1, "7k/8/8/8/8/8/R7/K7 w - - 97 80", "80. Ra3 Kg7 81. Ra4", "fifty=2")
/* clock 99 but the only legal reply is Kxg8 (a capture): no claim; then K+B v K */
GAME_TEST(corpus_fifty_claim_99_2, "7k/8/5K2/8/8/3B4/8/6R1 w - - 98 90", "90. Rg8+ Kxg8",
          "insufficient=2 dead=2")
/* Black has mated at ply 0 (a double check by two dark-squared bishops,
 * which no game can reach): K+B+B of one colour v K+R+R is no proof that
 * Black cannot win, since Black has won (--fen: black winnable). */
GAME_TEST(start_mated_by_same_coloured_bishops, "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", "",
          "checkmate=0 white_cannot_win=-1 black_cannot_win=-1")
/* clock 100 on the board at ply 0 */
GAME_TEST(corpus_fifty_claim_99_3, "7k/8/8/8/8/8/R7/K7 b - - 100 80", "80... Kg7", "fifty=0")

/* fivefold.pgn: the start position at plies 0, 4, 8, 12, 16 */
GAME_TEST(corpus_fivefold_1, NULL,
          "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 9. e4",
          "fivefold=16 threefold=7")

/* seventyfive.pgn: FEN clock 140, ten quiet plies later; fifty from ply 0 */
GAME_TEST(corpus_seventyfive_1, "4k3/8/8/8/8/8/8/R3K3 w - - 140 100",
          "100. Ra2 Kd8 101. Ra3 Ke8 102. Ra4 Kd8 103. Ra5 Ke8 104. Ra6 Kd8 105. Ra7 Ke8 106. Ra8+",
          "seventyfive=10 fifty=0")
/* the 150th quiet ply is mate: mate takes precedence (no legal move) */
GAME_TEST(corpus_seventyfive_2, "k7/8/1K6/8/8/8/8/7R w - - 149 120", "120. Rh8#", "checkmate=1 fifty=0")

/* stalemate.pgn: Loyd's ten-move stalemate */
GAME_TEST(corpus_stalemate_1, NULL,
          "1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6 6. Qxd7+ Kf7 7. Qxb7 Qd3 "
          "8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6",
          "stalemate=19")
/* stalemate and insufficient material on the same ply */
GAME_TEST(corpus_stalemate_2, "7k/5K2/8/6p1/4N3/8/8/8 w - - 0 1", "1. Nxg5",
          "stalemate=1 insufficient=1 dead=1")

/* checkmate.pgn */
GAME_TEST(corpus_checkmate_1, NULL, "1. f3 e5 2. g4 Qh4#", "checkmate=4")
GAME_TEST(corpus_checkmate_2, NULL, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#", "checkmate=7")

/* kbkb.pgn */
GAME_TEST(corpus_kbkb_1, "4k3/8/8/3b4/2B5/8/4n3/4K3 w - - 0 1", "1. Kxe2 Kd7", "insufficient=1 dead=1")
GAME_TEST(corpus_kbkb_2, "4k3/8/8/3b4/3B4/8/4n3/4K3 w - - 0 1", "1. Kxe2 Kd7", "")
GAME_TEST(corpus_kbkb_3, "4k3/8/8/8/2B5/3B4/8/4K3 w - - 0 1", "1. Bb5+ Kd8", "insufficient=0 dead=0")

/* ep-pinned.pgn: exd6 e.p. is pseudo-legal but illegal (rook h5 x-rays the
 * king on a5), so the position after d5 equals the later ones (plies 1, 5, 9) */
GAME_TEST(corpus_ep_pinned_1, "4k1n1/3p4/8/K3P2r/8/8/8/6N1 b - - 0 1",
          "1... d5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 Nf6 5. Ng1 Ng8 6. Nf3 Nf6 7. Ng1 Ng8", "threefold=8")
/* en passant legal: the position after d5 differs; repetition from ply 2 */
GAME_TEST(corpus_ep_pinned_2, "4k1n1/3p4/7r/K3P3/8/8/8/6N1 b - - 0 1",
          "1... d5 2. Nf3 Nf6 3. Ng1 Ng8 4. Nf3 Nf6 5. Ng1 Ng8 6. Nf3 Nf6 7. Ng1 Ng8", "threefold=9")

/* castling-loss.pgn: ply 0 never recurs once a right is gone */
GAME_TEST(corpus_castling_loss_1, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          "1. Rh2 Rh7 2. Rh1 Rh8 3. Rh2 Rh7 4. Rh1 Rh8 5. Rh2 Rh7 6. Rh1 Rh8", "threefold=9")
GAME_TEST(corpus_castling_loss_2, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          "1. Ke2 Ke7 2. Ke1 Ke8 3. Ke2 Ke7 4. Ke1 Ke8 5. Ke2 Ke7 6. Ke1 Ke8", "threefold=9")
/* the rook captured on h8 takes black's king-side right */
GAME_TEST(corpus_castling_loss_3, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
          "1. Rxh8+ Kd7 2. Rh7+ Ke8 3. Rh8+ Kd7 4. Rh7+ Ke8 5. Rh8+ Kd7", "threefold=9")

/* ---- more games ------------------------------------------------------------ */

/* 9.3: the move that reaches 100 plies is mate: mate, and at that ply no
 * claim (no legal move); one ply earlier Black could declare another rook
 * move and claim. */
GAME_TEST(mate_on_ply_100, "K7/8/1k6/8/8/8/8/7r w - - 98 60", "60. Kb8 Rh8#", "checkmate=2 fifty=1")
/* 9.6.2: mate on the 150th ply wins; seventyfive never holds */
GAME_TEST(mate_on_ply_150, "K7/8/1k6/8/8/8/8/7r w - - 148 120", "120. Kb8 Rh8#", "checkmate=2 fifty=0")
GAME_TEST(seventyfive_on_ply_150, "K7/8/1k6/8/8/8/8/7r w - - 148 120", "120. Kb8 Rh7", "seventyfive=2 fifty=0")
/* clock 99: the only non-zeroing move mates, every other move is a pawn
 * move, so no fifty-move claim at ply 0, and none at the mate */
GAME_TEST(fifty_only_quiet_move_mates, "3N2rk/1P4pp/2P1P3/8/8/8/PPP5/KB6 w - - 99 80", "80. Nf7#", "checkmate=1")
/* the same with a second quiet move (Nc6): the claim stands at ply 0 */
GAME_TEST(fifty_other_quiet_move_exists, "3N2rk/1P4pp/4P3/8/8/8/PPP5/KB6 w - - 99 80", "80. Nf7#",
          "checkmate=1 fifty=0")
/* clock 99: the only non-zeroing move stalemates: no claim */
GAME_TEST(fifty_only_quiet_move_stalemates, "k4N2/p6P/P3P1P1/8/8/8/5PPP/6BK w - - 99 80", "80. Nd7",
          "stalemate=1")
/* clock 99 reached with Black to move: Black claims by declaring a quiet move */
GAME_TEST(fifty_clock_99_on_board_later, "7k/8/8/8/8/8/R7/K7 w - - 98 80", "80. Ra3 Kg7 81. Ra4", "fifty=1")

/* the first position after an irreversible move is inside the window */
GAME_TEST(threefold_window_starts_after_king_move, "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
          "1. Kf1 Kd8 2. Ke1 Ke8 3. Kf1 Kd8 4. Ke1 Ke8", "threefold=8")
GAME_TEST(threefold_window_starts_after_rook_move, "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
          "1. Rh2 Kd8 2. Rh1 Ke8 3. Rh2 Kd8 4. Rh1 Ke8 5. Rh2", "threefold=8")
/* K v K: insufficient from the start, and repetitions still counted */
GAME_TEST(king_walk_kk, "8/8/8/4k3/8/8/8/4K3 w - - 0 1", "1. Kd2 Kd4 2. Ke1 Ke5 3. Kd2 Kd4 4. Ke1 Ke5 5. Kd2",
          "insufficient=0 dead=0 threefold=7")
/* a third light-squared bishop by promotion: still one colour */
GAME_TEST(third_same_colour_bishop_by_promotion, "4k3/P7/8/8/2B5/3B4/8/4K3 w - - 0 1", "1. a8=B Kd8",
          "insufficient=1 dead=1")
/* promoting to a dark-squared bishop: mate is possible */
GAME_TEST(promotion_to_other_colour_bishop, "4k3/1P6/8/8/2B5/3B4/8/4K3 w - - 0 1", "1. b8=B Kd7", "")
/* Chess960: a rook move loses the right, so ply 0 never recurs */
GAME_TEST960(chess960_castling_loss, "1r4k1/8/8/8/8/8/8/1R4K1 w Qq - 0 1",
             "1. Rb2 Rb7 2. Rb1 Rb8 3. Rb2 Rb7 4. Rb1 Rb8 5. Rb2 Rb7 6. Rb1 Rb8", "threefold=9")
/* ... and without rights ply 0 repeats */
GAME_TEST960(chess960_no_rights, "1r4k1/8/8/8/8/8/8/1R4K1 w - - 0 1",
             "1. Rb2 Rb7 2. Rb1 Rb8 3. Rb2 Rb7 4. Rb1 Rb8 5. Rb2 Rb7 6. Rb1 Rb8", "threefold=7")
/* Chess960 castling with the king already on g1 */
GAME_TEST960(chess960_castle_king_stays, "6kr/8/8/8/8/8/8/6KR w Kk - 0 1",
             "1. O-O O-O 2. Re1 Re8 3. Rf1 Rf8 4. Re1 Re8 5. Rf1 Rf8", "threefold=9")

/* null moves (allowed by rules_play) are reversible plies; a null move is
 * not a legal move, so it cannot be declared for a claim: the start
 * position occurs at plies 0, 4 and 8 and the claim comes at 8, not 7 */
GAME_TEST(null_moves_are_reversible, NULL, "1. Nf3 -- 2. Ng1 -- 3. Nf3 -- 4. Ng1 --", "threefold=8")

/* ---- ply-0 material verdicts as games ------------------------------------- */

GAME_TEST(insufficient_kn_v_k, "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", "1. Nf3 Kd5", "insufficient=0 dead=0")
GAME_TEST(sufficient_knn_v_k, "8/8/8/4k3/8/8/8/3NK1N1 w - - 0 1", "1. Nf3 Kd5", "")
GAME_TEST(sufficient_kn_v_kn, "8/8/3n4/4k3/8/8/8/4K1N1 w - - 0 1", "1. Nf3 Kd5", "")
GAME_TEST(insufficient_after_last_pawn_captured, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1", "1. Kxd2", "insufficient=1 dead=1")

/* ---- first_move texts ------------------------------------------------------ */

START_TEST(test_first_move_text)
{
    rules_t r;
    TU_GAME(&r, NULL, "1. f3 e5 2. g4 Qh4#");
    ck_assert_str_eq(r.first_move[FACT_CHECKMATE], "2...Qh4#");
    rules_free(&r);
    TU_GAME(&r, NULL, "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#");
    ck_assert_str_eq(r.first_move[FACT_CHECKMATE], "4.Qxf7#");
    rules_free(&r);
    TU_GAME(&r, NULL, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8");
    ck_assert_str_eq(r.first_move[FACT_THREEFOLD], "4.Ng1");
    ck_assert_str_eq(r.first_move[FACT_FIVEFOLD], "8...Ng8");
    rules_free(&r);
    TU_GAME(&r, "7k/8/8/8/8/8/R7/K7 w - - 97 80", "80. Ra3 Kg7 81. Ra4");
    ck_assert_str_eq(r.first_move[FACT_FIFTY], "80...Kg7");
    rules_free(&r);
    TU_GAME(&r, "4k3/8/8/8/2B5/3B4/8/4K3 w - - 0 1", "1. Bb5+ Kd8");
    ck_assert_str_eq(r.first_move[FACT_INSUFFICIENT], "");
    rules_free(&r);
}
END_TEST

START_TEST(test_fact_names)
{
    for (int f = 0; f < FACT_COUNT; f++) {
        const char *n = rules_fact_name((enum rules_fact)f);
        ck_assert_msg(n != NULL && strcmp(n, tu_fact(f)) == 0, "rules_fact_name(%d) = \"%s\", want \"%s\"", f,
                      n ? n : "(null)", tu_fact(f));
    }
}
END_TEST

START_TEST(test_follows_the_game)
{
    rules_t r;
    board_t want;
    TU_GAME(&r, NULL, "1. e4 c5 2. Nf3 d6 3. d4 cxd4");
    ck_assert_int_eq(r.ply, 6);
    board_start(&want);
    TU_PLAY(&want, "e4 c5 Nf3 d6 d4 cxd4");
    char diff[96];
    ck_assert_msg(tu_board_same(r.pos, &want, diff), "rules_t.pos after six plies: %s", diff);
    rules_free(&r);
}
END_TEST

/* ---- material on one side ---------------------------------------------------- */

START_TEST(test_side_insufficient)
{
    static const struct {
        const char *what, *fen;
        bool white, black;
    } cases[] = {
        {"K v K", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", true, true},
        {"KN v K", "8/8/8/4k3/8/8/8/4K1N1 w - - 0 1", true, true},
        {"KB v K", "4k3/8/8/8/8/8/8/4K1B1 w - - 0 1", true, true},
        {"K v KN", "4k3/8/8/8/8/8/8/1n2K3 b - - 0 1", true, true},
        {"KNN v K (not dead: mate exists)", "8/8/8/4k3/8/8/8/3NK1N1 w - - 0 1", false, true},
        {"K v KNN", "1n2k1n1/8/8/8/8/8/8/4K3 w - - 0 1", true, false},
        {"KN v KN", "8/8/3n4/4k3/8/8/8/4K1N1 w - - 0 1", false, false},
        {"KB v KN", "4k3/8/3n4/8/8/8/8/2B1K3 w - - 0 1", false, false},
        {"KN v KB", "4kb2/8/8/8/8/8/8/1N2K3 w - - 0 1", false, false},
        {"KN v KB (light)", "4k3/3b4/8/8/8/8/8/1N2K3 w - - 0 1", false, false},
        {"KB v KP", "4k3/4p3/8/8/8/8/8/2B1K3 w - - 0 1", false, false},
        {"KN v KQ: only the knight side", "4k3/q7/8/8/8/8/8/4K1N1 w - - 0 1", true, false},
        {"KNQ... v K", "4k3/8/8/8/8/8/8/1N2KQ2 w - - 0 1", false, true},
        {"KBQ v K", "4k3/8/8/8/8/8/8/1B2KQ2 w - - 0 1", false, true},
        {"KB v KB same colour", "4k3/8/8/3b4/2B5/8/8/4K3 w - - 0 1", true, true},
        {"KB v KB opposite colours", "4k3/8/8/3b4/3B4/8/8/4K3 w - - 0 1", false, false},
        {"KBB same colour v K", "4k3/8/8/8/2B5/3B4/8/4K3 w - - 0 1", true, true},
        {"KBB opposite colours v K", "4k3/8/8/8/2B5/2B5/8/4K3 w - - 0 1", false, true},
        {"KB v KR: only the bishop side", "4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1", true, false},
        {"KN v KR", "4k2r/8/8/8/8/8/8/4K1N1 w - - 0 1", false, false},
        {"KR v KB", "2b1k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, true},
        {"KP v K", "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false, true},
        {"KQ v K", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", false, true},
        {"KBN v K", "4k3/8/8/8/8/8/8/2B1KN2 w - - 0 1", false, true},
        {"KB v KB same colour plus a pawn", "4k3/p7/8/3b4/2B5/8/8/4K3 w - - 0 1", false, false},
        {"start position", TU_START_FEN, false, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        board_t b;
        TU_FEN(&b, cases[i].fen);
        bool w = rules_side_insufficient(&b, WHITE), k = rules_side_insufficient(&b, BLACK);
        ck_assert_msg(w == cases[i].white && k == cases[i].black,
                      "%s (%s): side_insufficient white %d black %d, want %d %d", cases[i].what, cases[i].fen, w, k,
                      cases[i].white, cases[i].black);
        bool both = rules_insufficient(&b);
        ck_assert_msg(both == (cases[i].white && cases[i].black), "%s: rules_insufficient %d", cases[i].what, both);
    }
}
END_TEST

/* ---- an independent oracle over random games -------------------------------- */

/* python-chess has_insufficient_material(color), written out again. */
static bool oracle_side_insufficient(const board_t *b, int color)
{
    int own = 0, own_knights = 0, own_bishops = 0, opp_other = 0, pawns = 0, knights = 0;
    bool light = false, dark = false;
    for (int sq = 0; sq < 128; sq++) {
        if (SQ_OFFBOARD(sq) || !b->sq[sq])
            continue;
        int p = b->sq[sq], t = PIECE_TYPE(p), c = PIECE_COLOR(p);
        if (t == PAWN)
            pawns++;
        if (t == KNIGHT)
            knights++;
        if (t == BISHOP) {
            if (SQ_LIGHT(sq))
                light = true;
            else
                dark = true;
        }
        if (c == color) {
            own++;
            if (t == PAWN || t == ROOK || t == QUEEN)
                return false;
            own_knights += t == KNIGHT;
            own_bishops += t == BISHOP;
        } else if (t != KING && t != QUEEN) {
            opp_other++;
        }
    }
    if (own_knights)
        return own <= 2 && opp_other == 0;
    if (own_bishops)
        return !(light && dark) && pawns == 0 && knights == 0;
    return true;
}

/* Same position for FIDE 9.2.2: placement, side, castling, legal en passant. */
static bool same_position(const board_t *a, const board_t *b)
{
    for (int sq = 0; sq < 128; sq++)
        if (!SQ_OFFBOARD(sq) && a->sq[sq] != b->sq[sq])
            return false;
    if (a->stm != b->stm || a->castle != b->castle || a->ep_legal != b->ep_legal)
        return false;
    return !a->ep_legal || a->ep == b->ep;
}

#define MAXPLY 160

/* Occurrences of p among the positions from `first` to `last`. */
static int occurrences(const board_t *pos, int first, int last, const board_t *p)
{
    int n = 0;
    for (int j = first; j <= last; j++)
        n += same_position(&pos[j], p);
    return n;
}

/* first[] as python-chess would compute it over pos[0..n]. */
static void oracle_first(const board_t *pos, const move_t *mv, int n, int first[FACT_COUNT])
{
    for (int f = 0; f < FACT_COUNT; f++)
        first[f] = -1;
    for (int k = 0; k <= n; k++) {
        const board_t *b = &pos[k];
        move_t list[MAX_MOVES];
        int nl = movegen_legal(b, list);
        bool check = board_in_check(b);
        /* the window: back to the position after the last irreversible move */
        int start = k;
        while (start > 0) {
            const board_t *prev = &pos[start - 1];
            move_t m = mv[start - 1];
            bool irreversible = (m.flags & MOVE_CAPTURE) || PIECE_TYPE(prev->sq[m.from]) == PAWN ||
                                pos[start].castle != prev->castle || prev->ep_legal;
            if (irreversible)
                break;
            start--;
        }
        int here = occurrences(pos, start, k, b);
        bool threefold = here >= 3, fifty = b->halfmove >= 100 && nl > 0;
        for (int i = 0; i < nl && !(threefold && fifty); i++) {
            board_t child;
            board_make_move(b, list[i], &child);
            if (!threefold && occurrences(pos, start, k, &child) >= 2)
                threefold = true;
            bool zeroing = (list[i].flags & MOVE_CAPTURE) || PIECE_TYPE(b->sq[list[i].from]) == PAWN;
            if (!fifty && b->halfmove >= 99 && !zeroing && movegen_has_legal(&child))
                fifty = true;
        }
        bool insufficient = oracle_side_insufficient(b, WHITE) && oracle_side_insufficient(b, BLACK);
        bool facts[FACT_COUNT] = {
            [FACT_CHECKMATE] = check && nl == 0,
            [FACT_STALEMATE] = !check && nl == 0,
            [FACT_INSUFFICIENT] = insufficient,
            [FACT_DEAD] = insufficient,
            [FACT_FIVEFOLD] = here >= 5,
            [FACT_SEVENTYFIVE] = b->halfmove >= 150 && nl > 0,
            [FACT_THREEFOLD] = threefold,
            [FACT_FIFTY] = fifty,
        };
        for (int f = 0; f < FACT_COUNT; f++)
            if (first[f] < 0 && facts[f])
                first[f] = k;
    }
}

/* Random games that like to undo their last move, so that repetitions,
 * clock claims and endings happen; rules_t must agree with the oracle. */
START_TEST(test_random_games_against_oracle)
{
    static const struct {
        const char *fen;
        bool c960;
    } starts[] = {
        {"r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false},
        {"4k3/8/8/8/8/8/8/4K2R w K - 90 50", false},
        {"8/8/3k4/8/8/3K4/8/8 w - - 0 1", false},
        {"4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", false},
        {"4k1n1/3p4/8/K3P2r/8/8/8/6N1 b - - 0 1", false},
        {"4k1n1/3p4/7r/K3P3/8/8/8/6N1 b - - 0 1", false},
        {"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 140 70", false},
        {"k7/8/1K6/8/8/8/8/7R w - - 97 80", false},
        {"4k3/8/8/8/8/8/8/2B1K1N1 w - - 0 1", false},
        {"4k3/8/8/3b4/8/2N5/8/2B1K3 w - - 0 1", false},
        {"rk5r/pp4pp/8/8/8/8/PP4PP/RK5R w KQkq - 0 1", true},
        {TU_START_FEN, false},
    };
    static board_t pos[MAXPLY + 1];
    static move_t mv[MAXPLY];
    uint64_t seed = 0xC0FFEE;
    int seen[FACT_COUNT] = {0};
    /* One rules_t follows every game, as the reader's does: what a game
     * leaves behind must not change the next one's facts.  Now and then
     * its stamps are made to run out, so that they start again. */
    rules_t r;
    bool made = false;
    for (size_t st = 0; st < sizeof starts / sizeof *starts; st++) {
        for (int game = 0; game < 10; game++) {
            int n = 0;
            tu_fen_at(TU_WHERE, &pos[0], starts[st].fen, starts[st].c960);
            if (made) {
                if (game == 5)
                    r.base = UINT32_MAX / 2 - 3; /* private: the next restart clears the stamps */
                rules_restart(&r, &pos[0]);
            } else {
                ck_assert_int_eq(rules_init(&r, &pos[0]), 0);
                made = true;
            }
            while (n < MAXPLY) {
                move_t list[MAX_MOVES];
                int nl = movegen_legal(&pos[n], list), pick = -1;
                if (nl == 0)
                    break;
                /* undo the same side's previous move when possible */
                if (n >= 2 && tu_rand(&seed) % 10 < 6)
                    for (int i = 0; i < nl; i++)
                        if (list[i].from == mv[n - 2].to && list[i].to == mv[n - 2].from &&
                            !(list[i].flags & MOVE_CAPTURE))
                            pick = i;
                if (pick < 0)
                    pick = (int)(tu_rand(&seed) % (uint64_t)nl);
                mv[n] = list[pick];
                board_make_move(&pos[n], mv[n], &pos[n + 1]);
                ck_assert_int_eq(rules_play(&r, mv[n]), 0);
                n++;
            }
            rules_finish(&r);
            int want[FACT_COUNT];
            oracle_first(pos, mv, n, want);
            /* The oracle knows the python-chess facts; the per-side
             * winnability facts come from the dead-position analysis. */
            for (int f = 0; f < FACT_WHITE_CANNOT_WIN; f++) {
                char fen[128];
                ck_assert_msg(r.first[f] == want[f],
                              "%s: first[%s] = %d, oracle %d (start %s, game %d, %d plies; position at the oracle's "
                              "ply: %s)",
                              starts[st].fen, tu_fact(f), (int)r.first[f], want[f], starts[st].fen, game, n,
                              want[f] >= 0 ? tu_fen_out(&pos[want[f]], fen) : "-");
                seen[f] += want[f] >= 0;
            }
        }
    }
    rules_free(&r);
    /* the walk must exercise the rules, or this test proves nothing */
    for (int f = 0; f < FACT_WHITE_CANNOT_WIN; f++)
        if (f != FACT_CHECKMATE && f != FACT_STALEMATE)
            ck_assert_msg(seen[f] >= 3, "only %d random games reached %s", seen[f], tu_fact(f));
}
END_TEST

/* ---- ply 0 of a FEN start against --fen ---------------------------------- */

/* The facts of a game's ply 0 must never contradict what --fen says of the
 * same position (report_position(): movegen_legal(), board_in_check(),
 * rules_insufficient(), dead_can_win()).  A per-side "cannot win" at ply 0
 * is checked against the D3-Chess label where the set has one (who can still
 * mate: an independent answer), else against dead_can_win(), which must not
 * find a helpmate.  The replay's analysis is the reader's, with a small
 * budget. */
static int ply0_checked;

static void ply0_check(const char *where, const char *fen, const char *label, dead_search_t *probe,
                       dead_search_t *full)
{
    board_t b;
    board_error_t err;
    if (board_from_fen(&b, fen, false, &err) < 0 && board_from_fen(&b, fen, true, &err) < 0)
        ck_abort_msg("%s: %s: %s", where, fen, err);
    rules_t r;
    ck_assert_int_eq(rules_init(&r, &b), 0);
    r.dead = probe; /* as the reader sets it */
    rules_finish(&r);
    move_t moves[MAX_MOVES];
    int legal = movegen_legal(&b, moves);
    bool check = board_in_check(&b);
    ck_assert_msg((r.first[FACT_CHECKMATE] == 0) == (!legal && check), "%s: %s: checkmate", where, fen);
    ck_assert_msg((r.first[FACT_STALEMATE] == 0) == (!legal && !check), "%s: %s: stalemate", where, fen);
    ck_assert_msg((r.first[FACT_INSUFFICIENT] == 0) == rules_insufficient(&b), "%s: %s: insufficient", where, fen);
    bool cannot[2];
    for (int c = WHITE; c <= BLACK; c++) {
        cannot[c] = r.first[c == WHITE ? FACT_WHITE_CANNOT_WIN : FACT_BLACK_CANNOT_WIN] == 0;
        if (!cannot[c])
            continue;
        /* The side that has just mated has won. */
        ck_assert_msg(!(!legal && check && c != b.stm), "%s: %s: the mating side cannot win", where, fen);
        if (label) {
            ck_assert_msg(label[c] == '-', "%s: %s: %s cannot win at ply 0, label %.2s", where, fen,
                          c == WHITE ? "white" : "black", label);
        } else {
            move_t line[256];
            int len = 0;
            ck_assert_msg(dead_can_win(full, &b, c, line, 256, &len) != DEAD_WINNABLE,
                          "%s: %s: %s cannot win at ply 0, --fen finds a helpmate", where, fen,
                          c == WHITE ? "white" : "black");
        }
    }
    ck_assert_msg((r.first[FACT_DEAD] == 0) == (rules_insufficient(&b) || (cannot[WHITE] && cannot[BLACK])),
                  "%s: %s: dead", where, fen);
    rules_free(&r);
    ply0_checked++;
}

/* Each line of a set: "LL FEN" (D3-Chess), "epd FEN" (perft), or
 * "FEN ; ..." (draw perft). */
static void ply0_file(const char *name, dead_search_t *probe, dead_search_t *full)
{
    const char *top = getenv("abs_top_srcdir");
    char path[4096], buf[512], where[4200];
    snprintf(path, sizeof path, "%s/tests/data/%s", top && *top ? top : ".", name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot open %s", path);
    int lineno = 0;
    while (fgets(buf, sizeof buf, f)) {
        lineno++;
        buf[strcspn(buf, "\r\n;")] = '\0';
        if (buf[0] == '#' || !buf[0] || !strncmp(buf, "id ", 3) || !strncmp(buf, "perft ", 6))
            continue;
        snprintf(where, sizeof where, "%s:%d", name, lineno);
        if (!strncmp(buf, "epd ", 4)) {
            ply0_check(where, buf + 4, NULL, probe, full);
        } else if (buf[2] == ' ' && strchr("W-", buf[0]) && strchr("B-", buf[1])) {
            char fen[600];
            snprintf(fen, sizeof fen, "%s%s", buf + 3, strchr(strchr(buf + 3, ' ') + 1, ' ') ? "" : " - -");
            ply0_check(where, fen, buf, probe, full);
        } else {
            ply0_check(where, buf, NULL, probe, full);
        }
    }
    fclose(f);
}

START_TEST(test_ply0_against_fen)
{
    dead_search_t *probe = dead_search_new(100), *full = dead_search_new(20000);
    ck_assert(probe && full);
    ply0_checked = 0;
    /* Black has mated (two dark-squared bishops); White has mated. */
    ply0_check("mated start", "8/8/8/8/8/2b1k1b1/8/3RKR2 w - - 0 1", NULL, probe, full);
    ply0_check("mated start", "8/8/8/8/8/8/1Q6/k1K5 b - - 0 1", NULL, probe, full);
    ply0_file("d3chess-unwinnability-subset.txt", probe, full);
    ply0_file("perft-tricky.perft", probe, full);
    ply0_file("perft-random.perft", probe, full);
    ply0_file("draw-perft.txt", probe, full);
    ck_assert_int_ge(ply0_checked, 450);
    dead_search_free(probe);
    dead_search_free(full);
}
END_TEST

static Suite *rules_suite(void)
{
    Suite *s = suite_create("rules");
    TU_CASE(s, corpus_threefold_declared_1, 10);
    TU_CASE(s, corpus_threefold_declared_2, 10);
    TU_CASE(s, corpus_threefold_declared_3, 10);
    TU_CASE(s, threefold_declared_rook, 10);
    TU_CASE(s, threefold_declared_bishop, 10);
    TU_CASE(s, threefold_declared_queen_diagonal, 10);
    TU_CASE(s, threefold_declared_queen_file, 10);
    TU_CASE(s, corpus_fifty_claim_99_1, 10);
    TU_CASE(s, corpus_fifty_claim_99_2, 10);
    TU_CASE(s, corpus_fifty_claim_99_3, 10);
    TU_CASE(s, start_mated_by_same_coloured_bishops, 10);
    TU_CASE(s, test_ply0_against_fen, 120);
    TU_CASE(s, corpus_fivefold_1, 10);
    TU_CASE(s, corpus_seventyfive_1, 10);
    TU_CASE(s, corpus_seventyfive_2, 10);
    TU_CASE(s, corpus_stalemate_1, 10);
    TU_CASE(s, corpus_stalemate_2, 10);
    TU_CASE(s, corpus_checkmate_1, 10);
    TU_CASE(s, corpus_checkmate_2, 10);
    TU_CASE(s, corpus_kbkb_1, 10);
    TU_CASE(s, corpus_kbkb_2, 10);
    TU_CASE(s, corpus_kbkb_3, 10);
    TU_CASE(s, corpus_ep_pinned_1, 10);
    TU_CASE(s, corpus_ep_pinned_2, 10);
    TU_CASE(s, corpus_castling_loss_1, 10);
    TU_CASE(s, corpus_castling_loss_2, 10);
    TU_CASE(s, corpus_castling_loss_3, 10);
    TU_CASE(s, mate_on_ply_100, 10);
    TU_CASE(s, mate_on_ply_150, 10);
    TU_CASE(s, seventyfive_on_ply_150, 10);
    TU_CASE(s, fifty_only_quiet_move_mates, 10);
    TU_CASE(s, fifty_other_quiet_move_exists, 10);
    TU_CASE(s, fifty_only_quiet_move_stalemates, 10);
    TU_CASE(s, fifty_clock_99_on_board_later, 10);
    TU_CASE(s, threefold_window_starts_after_king_move, 10);
    TU_CASE(s, threefold_window_starts_after_rook_move, 10);
    TU_CASE(s, king_walk_kk, 10);
    TU_CASE(s, third_same_colour_bishop_by_promotion, 10);
    TU_CASE(s, promotion_to_other_colour_bishop, 10);
    TU_CASE(s, chess960_castling_loss, 10);
    TU_CASE(s, chess960_no_rights, 10);
    TU_CASE(s, chess960_castle_king_stays, 10);
    TU_CASE(s, null_moves_are_reversible, 10);
    TU_CASE(s, insufficient_kn_v_k, 10);
    TU_CASE(s, sufficient_knn_v_k, 10);
    TU_CASE(s, sufficient_kn_v_kn, 10);
    TU_CASE(s, insufficient_after_last_pawn_captured, 10);
    TU_CASE(s, test_first_move_text, 10);
    TU_CASE(s, test_fact_names, 10);
    TU_CASE(s, test_follows_the_game, 10);
    TU_CASE(s, test_side_insufficient, 10);
    TU_CASE(s, test_random_games_against_oracle, 300);
    return s;
}

int main(void)
{
    return tu_run(rules_suite());
}

/* test_explain.c: the --explain account (explain.h) of a few games: a
 * threefold claim by a declared move (played or not), a fivefold
 * repetition, checkmate with Unicode and ASCII diagrams, the
 * seventy-five-move rule from a FEN with a high clock, a fifty-move claim
 * at clock 99, an illegal move, and bytes without a game.  Each test checks
 * key lines of the text and prints the whole account when one is missing. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "testutil.h"

/* The account of the first game of pgn, NUL-terminated; fails the test if
 * explain_game() does not return want_rc.  Free with free(). */
static char *explain_at(const char *file, int line, const char *pgn, const char *name, bool ascii, int want_rc)
{
    strbuf_t out = { 0 };
    int rc = explain_game(pgn, strlen(pgn), name, ascii, &out);
    strbuf_append(&out, "", 1);
    if (out.oom)
        ck_abort_msg("%s:%d: out of memory", file, line);
    if (rc != want_rc)
        ck_abort_msg("%s:%d: explain_game returned %d, expected %d; text:\n%s", file, line, rc, want_rc, out.data);
    return out.data;
}
#define EXPLAIN(pgn, name, ascii) explain_at(TU_WHERE, (pgn), (name), (ascii), 0)

/* Fails unless text has line as a whole line. */
static void has_line_at(const char *file, int line, const char *text, const char *want)
{
    size_t n = strlen(want);
    for (const char *p = text; (p = strstr(p, want)) != NULL; p++)
        if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
            return;
    ck_abort_msg("%s:%d: no line \"%s\" in the account:\n%s", file, line, want, text);
}
#define HAS_LINE(text, want) has_line_at(TU_WHERE, (text), (want))

/* Fails if text contains s anywhere. */
static void lacks_at(const char *file, int line, const char *text, const char *s)
{
    if (strstr(text, s))
        ck_abort_msg("%s:%d: \"%s\" should not be in the account:\n%s", file, line, s, text);
}
#define LACKS(text, s) lacks_at(TU_WHERE, (text), (s))

static const char threefold_pgn[] =
    "[Event \"threefold claimed by declaring the move\"]\n"
    "[White \"Ann\"]\n[Black \"Bob\"]\n[Result \"*\"]\n\n"
    "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 *\n";

START_TEST(threefold_declared_and_played)
{
    char *t = EXPLAIN(threefold_pgn, "games.pgn:1: game 1", false);
    HAS_LINE(t, "== games.pgn:1: game 1 ==");
    HAS_LINE(t, "  Event        threefold claimed by declaring the move");
    HAS_LINE(t, "  White        Ann");
    HAS_LINE(t, "  Black        Bob");
    HAS_LINE(t, "  Recorded     Result tag \"*\", termination marker *");
    HAS_LINE(t, "  Verdict      unfinished: no result was recorded and the game did not end by rule");
    HAS_LINE(t, "  Replayed     8 plies, status ok");
    HAS_LINE(t, "Ply 7, after 4.Ng1 (Black to move, halfmove clock 7)");
    HAS_LINE(t, "  Threefold repetition claimable (FIDE 9.2.1.1): Black may declare 4...Ng8,");
    /* every occurrence of the start position, the declared one last */
    HAS_LINE(t, "      ply 0    the start position");
    HAS_LINE(t, "      ply 4    2...Ng8");
    HAS_LINE(t, "      ply 8    4...Ng8 (declared, and played)");
    /* the diagram of ply 7: Black's knight still on f6 */
    HAS_LINE(t, "    8 \u265C \u265E \u265D \u265B \u265A \u265D \u00B7 \u265C");
    HAS_LINE(t, "    6 \u00B7 \u00B7 \u00B7 \u00B7 \u00B7 \u265E \u00B7 \u00B7");
    HAS_LINE(t, "    1 \u2656 \u2658 \u2657 \u2655 \u2654 \u2657 \u2658 \u2656");
    HAS_LINE(t, "      a b c d e f g h");
    LACKS(t, "Fivefold");
    free(t);
}
END_TEST

/* Black could declare 4...Ng8 but plays 4...e6: the claim was there all the same. */
START_TEST(threefold_declared_not_played)
{
    char *t = EXPLAIN("[Event \"x\"]\n[Result \"*\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 e6 *\n", NULL, true);
    HAS_LINE(t, "== game ==");
    HAS_LINE(t, "  Threefold repetition claimable (FIDE 9.2.1.1): Black may declare 4...Ng8,");
    HAS_LINE(t, "      ply 8    4...Ng8 (declared)");
    LACKS(t, "and played");
    free(t);
}
END_TEST

START_TEST(fivefold)
{
    char *t = EXPLAIN("[Event \"fivefold\"]\n[Result \"*\"]\n\n"
                      "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 "
                      "8. Ng1 Ng8 9. e4 *\n",
                      "fivefold", true);
    HAS_LINE(t, "  Adjudicated  1/2-1/2: fivefold repetition at 8...Ng8; recorded * (--rules=fide)");
    HAS_LINE(t, "  Verdict      wrong-result: the rules decided the game and the Result tag says otherwise");
    HAS_LINE(t, "  Ended        by fivefold repetition at ply 16 (8...Ng8); 1 ply recorded after the end");
    HAS_LINE(t, "Ply 16, after 8...Ng8 (White to move, halfmove clock 16)");
    HAS_LINE(t, "  Fivefold repetition (FIDE 9.6.1): the game is drawn.");
    static const char *const plies[] = { "      ply 0    the start position", "      ply 4    2...Ng8",
                                         "      ply 8    4...Ng8", "      ply 12   6...Ng8",
                                         "      ply 16   8...Ng8" };
    for (size_t i = 0; i < 5; i++)
        HAS_LINE(t, plies[i]);
    /* the threefold claim came first, at ply 7 */
    HAS_LINE(t, "Ply 7, after 4.Ng1 (Black to move, halfmove clock 7)");
    ck_assert_msg(strstr(t, "Ply 7,") < strstr(t, "Ply 16,"), "ply 7 should come before ply 16:\n%s", t);
    HAS_LINE(t, "    8 r n b q k b n r");
    HAS_LINE(t, "    1 R N B Q K B N R");
    free(t);
}
END_TEST

static const char scholar_pgn[] = "[Event \"scholar's mate\"]\n[Result \"1/2-1/2\"]\n\n"
                                  "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1/2-1/2\n";

START_TEST(checkmate_unicode)
{
    char *t = EXPLAIN(scholar_pgn, "mate", false);
    HAS_LINE(t, "  Adjudicated  1-0: checkmate at 4.Qxf7#; recorded 1/2-1/2 (--rules=fide)");
    HAS_LINE(t, "  Ended        by checkmate at ply 7 (4.Qxf7#)");
    HAS_LINE(t, "Ply 7, after 4.Qxf7# (Black to move, halfmove clock 0)");
    HAS_LINE(t, "  Checkmate (FIDE 5.1.1): Black is in check and has no legal move;");
    HAS_LINE(t, "    White wins, 1-0.");
    HAS_LINE(t, "    8 \u265C \u00B7 \u265D \u265B \u265A \u265D \u00B7 \u265C");
    HAS_LINE(t, "    7 \u265F \u265F \u265F \u265F \u00B7 \u2655 \u265F \u265F");
    HAS_LINE(t, "    4 \u00B7 \u00B7 \u2657 \u00B7 \u2659 \u00B7 \u00B7 \u00B7");
    LACKS(t, "seventy-five");
    free(t);
}
END_TEST

START_TEST(checkmate_ascii)
{
    char *t = EXPLAIN(scholar_pgn, "mate", true);
    HAS_LINE(t, "    8 r . b q k b . r");
    HAS_LINE(t, "    7 p p p p . Q p p");
    HAS_LINE(t, "    6 . . n . . n . .");
    HAS_LINE(t, "    5 . . . . p . . .");
    HAS_LINE(t, "    4 . . B . P . . .");
    HAS_LINE(t, "    1 R N B . K . N R");
    HAS_LINE(t, "      a b c d e f g h");
    LACKS(t, "\u265A");
    free(t);
}
END_TEST

/* FEN clock 140: the clock is past 100 from the start (a fifty-move claim
 * at ply 0) and reaches 150 ten plies later (FIDE 9.6.2). */
START_TEST(seventyfive_from_fen)
{
    char *t = EXPLAIN("[Event \"seventy-five\"]\n[Result \"1-0\"]\n[SetUp \"1\"]\n"
                      "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 140 100\"]\n\n"
                      "100. Ra2 Kd8 101. Ra3 Ke8 102. Ra4 Kd8 103. Ra5 Ke8 104. Ra6 Kd8 105. Ra7 Ke8 "
                      "106. Ra8+ Kd7 107. Ra7+ 1-0\n",
                      "75", true);
    HAS_LINE(t, "  FEN          4k3/8/8/8/8/8/8/R3K3 w - - 140 100");
    HAS_LINE(t, "  Clock        100 already at the start (140); 150 at ply 10 (104...Kd8)");
    HAS_LINE(t, "  Ended        by seventy-five-move rule at ply 10 (104...Kd8); 5 plies recorded after the end");
    HAS_LINE(t, "  Verdict      wrong-result: the rules decided the game and the Result tag says otherwise");
    HAS_LINE(t, "Ply 0, the start position (White to move, halfmove clock 140)");
    HAS_LINE(t, "  Fifty-move rule claimable (FIDE 9.3.2): White, to move, may claim a draw.");
    HAS_LINE(t, "Ply 10, after 104...Kd8 (White to move, halfmove clock 150)");
    HAS_LINE(t, "  Seventy-five-move rule (FIDE 9.6.2): the halfmove clock is 150: 75 moves");
    HAS_LINE(t, "    8 . . . k . . . .");
    HAS_LINE(t, "    6 R . . . . . . .");
    HAS_LINE(t, "    1 . . . . K . . .");
    free(t);
}
END_TEST

/* Mate on the move that reaches 150 is mate (FIDE 9.6.2). */
START_TEST(mate_at_clock_150)
{
    char *t = EXPLAIN("[Event \"mate at 150\"]\n[Result \"1-0\"]\n[FEN \"k7/8/1K6/8/8/8/8/7R w - - 149 120\"]\n\n"
                      "120. Rh8# 1-0\n",
                      "150", true);
    HAS_LINE(t, "  Verdict      consistent: the recorded result stands");
    HAS_LINE(t, "  Clock        100 already at the start (149); 150 at ply 1 (120.Rh8#)");
    HAS_LINE(t, "    The halfmove clock reached 150 with this move: checkmate");
    LACKS(t, "Seventy-five-move rule (");
    free(t);
}
END_TEST

/* Clock 99: the claim is by declaring the move that makes it 100 (FIDE 9.3.1). */
START_TEST(fifty_declared)
{
    char *t = EXPLAIN("[Event \"fifty\"]\n[Result \"*\"]\n[FEN \"7k/8/8/8/8/8/R7/K7 w - - 97 80\"]\n\n"
                      "80. Ra3 Kg7 81. Ra4 *\n",
                      "50", true);
    HAS_LINE(t, "Ply 2, after 80...Kg7 (White to move, halfmove clock 99)");
    HAS_LINE(t, "  Fifty-move rule claimable (FIDE 9.3.1): White may declare 81.Ra4, which");
    HAS_LINE(t, "  Clock        100 at ply 3 (81.Ra4)");
    free(t);
}
END_TEST

START_TEST(illegal_move)
{
    char *t = EXPLAIN("[Event \"illegal\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Ke3 1-0\n", "bad", true);
    HAS_LINE(t, "  Verdict      unreadable: the game could not be replayed");
    HAS_LINE(t, "  Replayed     2 plies, status illegal");
    HAS_LINE(t, "Error at ply 3, move \"Ke3\":");
    HAS_LINE(t, "  The position at ply 2, White to move:");
    HAS_LINE(t, "    4 . . . . P . . .");
    free(t);
}
END_TEST

START_TEST(quiet_game)
{
    char *t = EXPLAIN("[Event \"short\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 1-0\n", "short", true);
    HAS_LINE(t, "  Verdict      consistent: the recorded result stands");
    HAS_LINE(t, "No rule of the Laws ended the game or allowed a claim.");
    LACKS(t, "Ply ");
    LACKS(t, "a b c d e f g h");
    free(t);
}
END_TEST

/* Only the first game is explained; bytes without a game give 1 and no text. */
START_TEST(first_game_only_and_no_game)
{
    char pgn[sizeof scholar_pgn + sizeof threefold_pgn];
    snprintf(pgn, sizeof pgn, "%s\n%s", scholar_pgn, threefold_pgn);
    char *t = EXPLAIN(pgn, "two", true);
    HAS_LINE(t, "  Event        scholar's mate");
    LACKS(t, "threefold");
    free(t);
    t = explain_at(TU_WHERE, "", "empty", true, 1);
    ck_assert_str_eq(t, "");
    free(t);
    t = explain_at(TU_WHERE, "\n{ a comment and nothing else }\n", "comment", true, 1);
    ck_assert_str_eq(t, "");
    free(t);
}
END_TEST

/* The options reach the reader: a null move is a pass with allow_null_moves,
 * and the claim policy ends a game at its first claim. */
START_TEST(options_null_moves)
{
    const char *pgn = "[Event \"null\"]\n[Result \"*\"]\n\n1. e4 -- 2. d4 *\n";
    arb_options opt = { .allow_null_moves = true, .policy = ARB_RULES_CLAIM };
    strbuf_t out = { 0 };
    ck_assert_int_eq(explain_game_opt(pgn, strlen(pgn), "null", true, &opt, &out), 0);
    strbuf_append(&out, "", 1);
    HAS_LINE(out.data, "  Replayed     3 plies, status ok");
    HAS_LINE(out.data, "  Adjudicated  * (--rules=claim)");
    strbuf_free(&out);

    /* Under the claim policy the first threefold claim ends the game. */
    opt.allow_null_moves = false;
    out = (strbuf_t){ 0 };
    ck_assert_int_eq(explain_game_opt(threefold_pgn, strlen(threefold_pgn), "claim", true, &opt, &out), 0);
    strbuf_append(&out, "", 1);
    HAS_LINE(out.data, "  Adjudicated  1/2-1/2: threefold repetition claimed at 4.Ng1; recorded * (--rules=claim)");
    HAS_LINE(out.data, "  Ended        by a threefold repetition claim at ply 7 (4.Ng1); 1 ply recorded after the end");
    strbuf_free(&out);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("explain");
    TU_CASE(s, threefold_declared_and_played, 30);
    TU_CASE(s, threefold_declared_not_played, 30);
    TU_CASE(s, fivefold, 30);
    TU_CASE(s, checkmate_unicode, 30);
    TU_CASE(s, checkmate_ascii, 30);
    TU_CASE(s, seventyfive_from_fen, 30);
    TU_CASE(s, mate_at_clock_150, 30);
    TU_CASE(s, fifty_declared, 30);
    TU_CASE(s, illegal_move, 30);
    TU_CASE(s, quiet_game, 30);
    TU_CASE(s, first_game_only_and_no_game, 30);
    TU_CASE(s, options_null_moves, 30);
    return tu_run(s);
}

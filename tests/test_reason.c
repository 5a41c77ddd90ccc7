/* test_reason.c: recorded reasons, read (src/lib/reason.c) and weighed
 * against the board (src/lib/reason_check.c through the reader).
 *
 * Part one is the vocabulary: one row per string of every convention in the
 * research note behind issue 21 (cutechess, fastchess, TCEC, c-chess-cli,
 * Banksia, lichess, chess.com, XBoard/FICS, the PGN standard), with the
 * claim, the winner and the result each implies, as the source's code or
 * help pages define them.  Part two replays hand-made games whose final
 * positions were set up by hand to give each claim each check it can have,
 * the traps of the issue included; the expected checks follow from the
 * FIDE Laws (5.1, 5.2, 6.9, 9.2, 9.3) and the sites' published rules. */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgnarbiter.h"
#include "reason.h"
#include "testutil.h"

/* ---- part one: the vocabulary ---- */

enum { T = ARB_FROM_TERMINATION, D = ARB_FROM_TERMINATION_DETAILS, C = ARB_FROM_COMMENT };
#define NO (-1)

typedef struct {
    const char *text;
    int from;
    const char *recorded;
    bool ok;
    arb_claim claim;
    int winner;
    enum reason_implies implies;
    enum reason_site site;
    bool tablebase;
} row_t;

static const row_t rows[] = {
    /* cutechess Result::description() and fastchess match.hpp, in comments */
    { "-8.11/24 5.0s, White mates", C, "1-0", true, ARB_CLAIM_CHECKMATE, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Black mates", C, "0-1", true, ARB_CLAIM_CHECKMATE, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "+0.00/1 0s, Draw by stalemate", C, NULL, true, ARB_CLAIM_STALEMATE, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by 3-fold repetition ", C, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by fifty moves rule", C, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by insufficient mating material", C, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "White loses on time", C, NULL, true, ARB_CLAIM_TIME, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Black loses on time (35ms overrun)", C, NULL, true, ARB_CLAIM_TIME, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Draw by timeout", C, NULL, true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "White resigns", C, NULL, true, ARB_CLAIM_RESIGNATION, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Draw by adjudication", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by adjudication: SyzygyTB", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, true },
    { "1.2/3 4s, White wins by adjudication", C, NULL, true, ARB_CLAIM_ADJUDICATION, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Black wins by adjudication: SyzygyTB", C, NULL, true, ARB_CLAIM_ADJUDICATION, 1, IMPLIES_BLACK, SITE_FIDE, true },
    { "White wins by adjudication: trusted mate score", C, NULL, true, ARB_CLAIM_ADJUDICATION, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "White makes an illegal move", C, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Black makes an illegal move: e7e9", C, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "White disconnects", C, NULL, true, ARB_CLAIM_ABANDONED, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Black's connection stalls", C, NULL, true, ARB_CLAIM_ABANDONED, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Draw by disconnection", C, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by stalled connection", C, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw by agreement", C, NULL, true, ARB_CLAIM_AGREEMENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "White wins by agreement", C, NULL, true, ARB_CLAIM_AGREEMENT, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "No result", C, NULL, true, ARB_CLAIM_UNTERMINATED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Result error", C, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Black wins", C, NULL, true, ARB_CLAIM_OTHER, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Drawn game", C, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_DRAW, SITE_FIDE, false },
    /* the fastchess book comment and ordinary comments are no reason */
    { "book", C, NULL, false, 0, NO, 0, 0, false },
    { "+0.31/20 1.2s", C, NULL, false, 0, NO, 0, 0, false },
    { "white mates", C, NULL, false, 0, NO, 0, 0, false },
    { "normal", C, NULL, false, 0, NO, 0, 0, false },
    { "", C, NULL, false, 0, NO, 0, 0, false },
    /* TCEC: TerminationDetails, and the same text closing the comment */
    { "3-Fold repetition", D, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "3-fold repetition", D, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Fifty moves rule", D, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "d=30, Fifty moves rule", C, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "White mates", D, NULL, true, ARB_CLAIM_CHECKMATE, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Stalemate", D, NULL, true, ARB_CLAIM_STALEMATE, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Insufficient material", D, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Black loses on time", D, NULL, true, ARB_CLAIM_TIME, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Black resigns", D, NULL, true, ARB_CLAIM_RESIGNATION, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "SyzygyTB", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, true },
    { "TB position", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, true },
    { "TCEC win rule", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DECISIVE, SITE_FIDE, false },
    { "TCEC draw rule", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "x, Adjudication: TCEC draw rule", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "x, Adjudication: SyzygyTB", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, true },
    { "x, Draw by adjudication: TB position ", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, true },
    { "White disconnects", D, NULL, true, ARB_CLAIM_ABANDONED, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "White's connection stalls", D, NULL, true, ARB_CLAIM_ABANDONED, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "Manual adjudication", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "manual adjudication", T, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "TCEC Adjudication", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Manual draw adjudication", D, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "illegal move: c7f7", D, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "D7c7", D, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "0000", D, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "White in infinite loop", D, NULL, true, ARB_CLAIM_ABANDONED, 1, IMPLIES_BLACK, SITE_FIDE, false },
    { "No result", D, NULL, true, ARB_CLAIM_UNTERMINATED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    /* TCEC 2010 Termination */
    { "3-fold rep", T, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "50-move rule", T, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "insufficient material", T, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "GUI adjudication", T, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "User adjudication", T, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "User adjudication - GUI crash", T, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    /* lichess (PgnDump.scala) */
    { "Normal", T, "1-0", true, ARB_CLAIM_NORMAL, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Time forfeit", T, "0-1", true, ARB_CLAIM_TIME, NO, IMPLIES_NOTHING, SITE_LICHESS, false },
    { "Time forfeit", T, "1/2-1/2", true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_NOTHING, SITE_LICHESS, false },
    { "Insufficient material", T, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_LICHESS, false },
    { "Abandoned", T, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Rules infraction", T, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Unterminated", T, NULL, true, ARB_CLAIM_UNTERMINATED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Unknown", T, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    /* chess.com: the name is the caller's to resolve */
    { "Hikaru won by checkmate", T, NULL, true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_NOTHING, SITE_CHESSCOM, false },
    { "Hikaru won by resignation", T, NULL, true, ARB_CLAIM_RESIGNATION, NO, IMPLIES_NOTHING, SITE_CHESSCOM, false },
    { "Hikaru won on time", T, NULL, true, ARB_CLAIM_TIME, NO, IMPLIES_NOTHING, SITE_CHESSCOM, false },
    { "Hikaru won - game abandoned", T, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_NOTHING, SITE_CHESSCOM, false },
    { "Game drawn by agreement", T, NULL, true, ARB_CLAIM_AGREEMENT, NO, IMPLIES_DRAW, SITE_CHESSCOM, false },
    { "Game drawn by repetition", T, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_CHESSCOM, false },
    { "Game drawn by stalemate", T, NULL, true, ARB_CLAIM_STALEMATE, NO, IMPLIES_DRAW, SITE_CHESSCOM, false },
    { "Game drawn by insufficient material", T, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_CHESSCOM, false },
    { "Game drawn by 50-move rule", T, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_CHESSCOM, false },
    { "Game drawn by timeout vs insufficient material", T, NULL, true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_DRAW,
      SITE_CHESSCOM, false },
    /* c-chess-cli game_decode_state() */
    { "checkmate", T, NULL, true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "stalemate", T, NULL, true, ARB_CLAIM_STALEMATE, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "3-fold repetition", T, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "50 moves rule", T, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "time forfeit", T, "1-0", true, ARB_CLAIM_TIME, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "adjudication", T, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "rules infraction", T, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "unterminated", T, NULL, true, ARB_CLAIM_UNTERMINATED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    /* Banksia reasonStrings */
    { "mate", T, NULL, true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "repetition", T, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "resign", T, NULL, true, ARB_CLAIM_RESIGNATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "fifty moves", T, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "illegal move", T, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "timeout", T, "1/2-1/2", true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "crash", T, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "*", T, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    /* cutechess and the PGN standard 9.8.1 tag words, any case */
    { "stalled connection", T, NULL, true, ARB_CLAIM_ABANDONED, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "death", T, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Emergency", T, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "NORMAL", T, NULL, true, ARB_CLAIM_NORMAL, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Something else", T, NULL, true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "  ", T, NULL, false, 0, NO, 0, 0, false },
    /* XBoard and FICS */
    { "Draw agreed", C, NULL, true, ARB_CLAIM_AGREEMENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw claim: 3-fold repetition", C, NULL, true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw claim: 50-move rule", C, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Draw claim: insufficient mating material", C, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Xboard adjudication: engine crash", C, NULL, true, ARB_CLAIM_ADJUDICATION, NO, IMPLIES_NOTHING, SITE_FIDE, false },
    { "Black forfeits on time", C, NULL, true, ARB_CLAIM_TIME, 0, IMPLIES_WHITE, SITE_FIDE, false },
    { "Game drawn by the 50 move rule", C, NULL, true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW, SITE_FIDE, false },
    { "Neither player has mating material", C, NULL, true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW, SITE_FIDE, false },
};

START_TEST(vocabulary)
{
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const row_t *w = &rows[i];
        reason_parsed_t p;
        bool ok = reason_parse(w->text, strlen(w->text), (arb_reason_from)w->from, w->recorded, &p);
        CHECK(ok == w->ok, "\"%s\" from %d: recognised %d, want %d", w->text, w->from, ok, w->ok);
        if (!ok)
            continue;
        CHECK(p.claim == w->claim, "\"%s\": claim %s, want %s", w->text, arb_claim_name(p.claim),
              arb_claim_name(w->claim));
        CHECK(p.winner == w->winner, "\"%s\": winner %d, want %d", w->text, p.winner, w->winner);
        CHECK(p.implies == w->implies, "\"%s\": implies %d, want %d", w->text, (int)p.implies, (int)w->implies);
        CHECK(p.site == w->site, "\"%s\": site %d, want %d", w->text, (int)p.site, (int)w->site);
        CHECK(p.tablebase == w->tablebase, "\"%s\": tablebase %d", w->text, p.tablebase);
    }
}
END_TEST

START_TEST(sentence_and_user)
{
    reason_parsed_t p;
    const char *c = "-8.11/24 5.0s, White wins by adjudication  ";
    CHECK(reason_parse(c, strlen(c), ARB_FROM_COMMENT, NULL, &p), "comment");
    CHECK(p.start == 15 && p.len == 26, "sentence at %zu, %zu bytes", p.start, p.len);
    const char *u = "Magnus Carlsen won on time";
    CHECK(reason_parse(u, strlen(u), ARB_FROM_TERMINATION, NULL, &p), "chess.com");
    CHECK(p.user_start == 0 && p.user_len == 14, "user at %zu, %zu bytes", p.user_start, p.user_len);
    /* Sentences that are the engines' are not taken from a tag for chess.com's. */
    CHECK(!reason_parse(" won on time", 12, ARB_FROM_TERMINATION, NULL, &p) || p.user_len == 0 ||
              p.claim == ARB_CLAIM_OTHER,
          "a name is needed");
    /* chess.com sentences count only in the Termination tag. */
    CHECK(!reason_parse("Game drawn by repetition", 24, ARB_FROM_COMMENT, NULL, &p), "not in a comment");
}
END_TEST

/* ---- part two: through the reader ---- */

typedef struct {
    arb_reader *r;
    const arb_game *g;
} one_t;

static const arb_game *read_one(one_t *o, const char *pgn)
{
    o->r = arb_reader_new(NULL);
    CHECK(o->r != NULL, "arb_reader_new");
    arb_reader_feed(o->r, pgn, strlen(pgn));
    o->g = arb_reader_next(o->r, NULL);
    if (!o->g) {
        arb_reader_finish(o->r);
        o->g = arb_reader_next(o->r, NULL);
    }
    CHECK(o->g != NULL, "no game in %s", pgn);
    return o->g;
}

#define FOOLS "1. f3 e5 2. g4 Qh4#"

/* Expects reasons[0] of the game in pgn to be claim/check, with the
 * verdict given (-1: any) and message containing msg (NULL: any). */
static void expect_at(const char *file, int line, const char *pgn, arb_claim claim, arb_check check,
                      int verdict, const char *msg)
{
    one_t o;
    const arb_game *g = read_one(&o, pgn);
    CHECK(g->nreasons >= 1, "%s:%d: no reason in\n%s", file, line, pgn);
    const arb_reason *r = &g->reasons[0];
    CHECK(r->claim == claim && r->check == check,
          "%s:%d: reason \"%s\": %s %s (\"%s\"), want %s %s\n%s", file, line, r->text, arb_claim_name(r->claim),
          arb_check_name(r->check), r->message, arb_claim_name(claim), arb_check_name(check), pgn);
    CHECK(verdict < 0 || g->verdict == (arb_verdict)verdict, "%s:%d: verdict %s, want %s", file, line,
          arb_verdict_name(g->verdict), arb_verdict_name((arb_verdict)verdict));
    CHECK(!msg || strstr(r->message, msg), "%s:%d: message \"%s\" lacks \"%s\"", file, line, r->message, msg);
    arb_reader_free(o.r);
}
#define EXPECT(pgn, claim, check, verdict, msg) expect_at(__FILE__, __LINE__, pgn, claim, check, verdict, msg)

START_TEST(checkmate_and_stalemate)
{
    EXPECT("[Result \"0-1\"]\n" FOOLS " {Black mates} 0-1\n", ARB_CLAIM_CHECKMATE, ARB_CHECK_CONFIRMED,
           ARB_CONSISTENT, "checkmate by Black");
    /* "White mates" where Black mated: the text implies 1-0 against 0-1. */
    EXPECT("[Result \"0-1\"]\n" FOOLS " {White mates} 0-1\n", ARB_CLAIM_CHECKMATE, ARB_CHECK_CONTRADICTED,
           ARB_WRONG_REASON, "recorded is 0-1");
    /* c-chess-cli's bare "checkmate": the Result names the winner. */
    EXPECT("[Result \"0-1\"]\n[Termination \"checkmate\"]\n" FOOLS " 0-1\n", ARB_CLAIM_CHECKMATE,
           ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL);
    EXPECT("[Result \"1-0\"]\n[Termination \"checkmate\"]\n1. e4 e5 1-0\n", ARB_CLAIM_CHECKMATE,
           ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "not checkmate");
    /* Stalemate: a known position, Black to move with no move and no check. */
    EXPECT("[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n[Termination \"stalemate\"]\n"
           "1. Qf7 1/2-1/2\n",
           ARB_CLAIM_STALEMATE, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "stalemate");
    EXPECT("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by stalemate\"]\n1. e4 e5 1/2-1/2\n",
           ARB_CLAIM_STALEMATE, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "not stalemate");
}
END_TEST

START_TEST(repetition_and_fifty)
{
    /* The start position occurs a third time after 4...Ng8 (9.2.1.2). */
    EXPECT("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by repetition\"]\n"
           "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
           ARB_CLAIM_THREEFOLD, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "occurred 3 times");
    /* Twice only, but 4...Ng8 would make the start position's third occurrence (9.2.1.1). */
    EXPECT("[Result \"1/2-1/2\"]\n[Termination \"3-fold repetition\"]\n"
           "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 1/2-1/2\n",
           ARB_CLAIM_THREEFOLD, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "2 times and a move reaches a third");
    /* Twice, and no move reaches a third: the TCEC 2010 case. */
    EXPECT("[Result \"1/2-1/2\"]\n[Termination \"3-fold rep\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. e4 1/2-1/2\n",
           ARB_CLAIM_THREEFOLD, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "occurred 1 time and no move");
    /* Fifty: the clock reaches 100 with the last move (9.3.2). */
    EXPECT("[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 99 80\"]\n[Result \"1/2-1/2\"]\n{Draw by fifty moves rule}"
           "\n80. Ra2 {Draw by fifty moves rule} 1/2-1/2\n",
           ARB_CLAIM_FIFTY, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "clock is 100");
    /* At 99 with a quiet move declared (9.3.1). */
    EXPECT("[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 98 80\"]\n[Result \"1/2-1/2\"]\n"
           "80. Ra2 {Draw by fifty moves rule} 1/2-1/2\n",
           ARB_CLAIM_FIFTY, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "quiet move reaches 100");
    EXPECT("[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 10 80\"]\n[Result \"1/2-1/2\"]\n[Termination \"50 moves rule\"]\n"
           "80. Ra2 1/2-1/2\n",
           ARB_CLAIM_FIFTY, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "clock is 11");
}
END_TEST

START_TEST(insufficient_material)
{
    /* K+B v K: dead (5.2.2). */
    EXPECT("[FEN \"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "1. Kd2 {Draw by insufficient mating material} 1/2-1/2\n",
           ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONFIRMED, -1, "dead");
    /* K+N v K+N: chess.com draws it, mate is possible (helpmate). */
    EXPECT("[FEN \"8/8/3nk3/8/8/3N4/8/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "[Termination \"Game drawn by insufficient material\"]\n1. Kd2 1/2-1/2\n",
           ARB_CLAIM_INSUFFICIENT, ARB_CHECK_SITE_RULE, ARB_CONSISTENT, NULL);
    /* The same from TCEC, whose Site names tcec-chess.com: FIDE's rule. */
    EXPECT("[Site \"https://tcec-chess.com\"]\n[FEN \"8/8/3nk3/8/8/3N4/8/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "[TerminationDetails \"Insufficient material\"]\n1. Kd2 1/2-1/2\n",
           ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "can checkmate");
    /* lichess's claim: the claimer's opponent (here White, a lone king) cannot win. */
    EXPECT("[FEN \"8/8/4k3/8/8/3p4/8/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "[Termination \"Insufficient material\"]\n1. Kd2 1/2-1/2\n",
           ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "White cannot checkmate");
}
END_TEST

START_TEST(time)
{
    /* chess.com "won on time" by a bare king: Article 6.9 makes it a draw. */
    EXPECT("[White \"ann\"]\n[Black \"bob\"]\n[FEN \"8/8/4k3/8/8/3P4/8/4K3 w - - 0 1\"]\n[Result \"0-1\"]\n"
           "[Termination \"bob won on time\"]\n1. Kd2 0-1\n",
           ARB_CLAIM_TIME, ARB_CHECK_CONTRADICTED, ARB_WRONG_RESULT, "Article 6.9");
    /* A winner with K+N against pawns can mate under FIDE; chess.com would draw. */
    EXPECT("[White \"ann\"]\n[Black \"bob\"]\n[FEN \"8/8/4k3/8/2n5/3P4/8/4K3 w - - 0 1\"]\n[Result \"0-1\"]\n"
           "[Termination \"bob won on time\"]\n1. Kf2 0-1\n",
           ARB_CLAIM_TIME, ARB_CHECK_SITE_RULE, ARB_CONSISTENT, "chess.com");
    EXPECT("[White \"ann\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Termination \"ann won on time\"]\n1. e4 e5 1-0\n",
           ARB_CLAIM_TIME, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL);
    /* A name that is neither player. */
    EXPECT("[White \"ann\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Termination \"carl won on time\"]\n1. e4 e5 1-0\n",
           ARB_CLAIM_TIME, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "neither");
    /* fastchess records the late move: White moved last and lost on time. */
    EXPECT("[Result \"0-1\"]\n[Termination \"time forfeit\"]\n1. e4 e5 2. Nf3 {+0.2/12 1.0s, White loses on time "
           "(35ms overrun)} 0-1\n",
           ARB_CLAIM_TIME, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL);
    /* A comment-only loss on time triggers Article 6.9 too (bare black king). */
    EXPECT("[FEN \"8/8/4k3/8/8/3P4/8/4K3 w - - 0 1\"]\n[Result \"0-1\"]\n1. Kd2 {White loses on time} 0-1\n",
           ARB_CLAIM_TIME, ARB_CHECK_CONTRADICTED, ARB_WRONG_RESULT, NULL);
    /* Timeout draws: Black flagged (to move); White's lone king cannot mate. */
    EXPECT("[FEN \"8/8/4k3/8/8/3p4/8/4K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "[Termination \"Game drawn by timeout vs insufficient material\"]\n1. Kd2 1/2-1/2\n",
           ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL);
    /* White has K+N against K+P: chess.com's rule, not FIDE's (a helpmate exists). */
    EXPECT("[FEN \"8/8/4k3/8/8/3p4/8/3NK3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n"
           "[Termination \"Game drawn by timeout vs insufficient material\"]\n1. Nc3 1/2-1/2\n",
           ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_SITE_RULE, ARB_CONSISTENT, "1-0");
    /* cutechess "Draw by timeout" where White has a queen. */
    EXPECT("[FEN \"8/8/4k3/8/8/8/8/3QK3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. Ke2 {Draw by timeout} 1/2-1/2\n",
           ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "can checkmate");
}
END_TEST

START_TEST(adjudication_and_the_rest)
{
    EXPECT("[Result \"1/2-1/2\"]\n[TerminationDetails \"SyzygyTB\"]\n1. e4 e5 1/2-1/2\n", ARB_CLAIM_ADJUDICATION,
           ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "32 men");
    EXPECT("[FEN \"8/8/4k3/8/8/8/8/3QK3 w - - 0 1\"]\n[Result \"1-0\"]\n[TerminationDetails \"SyzygyTB\"]\n"
           "1. Ke2 1-0\n",
           ARB_CLAIM_ADJUDICATION, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL);
    /* A win adjudicated to a bare king. */
    EXPECT("[FEN \"8/8/4k3/8/8/3q4/8/4K3 w - - 0 1\"]\n[Result \"1-0\"]\n"
           "1. Kf2 {White wins by adjudication} 1-0\n",
           ARB_CLAIM_ADJUDICATION, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "White cannot checkmate");
    /* Resigned after the mate: superseded. */
    EXPECT("[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Termination \"bob won by resignation\"]\n" FOOLS
           " 0-1\n",
           ARB_CLAIM_RESIGNATION, ARB_CHECK_SUPERSEDED, ARB_CONSISTENT, "checkmate at 2...Qh4#");
    EXPECT("[Result \"1/2-1/2\"]\n[Termination \"Game drawn by agreement\"]\n1. e4 e5 1/2-1/2\n",
           ARB_CLAIM_AGREEMENT, ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, NULL);
    EXPECT("[Result \"1-0\"]\n[Termination \"Abandoned\"]\n1. e4 1-0\n", ARB_CLAIM_ABANDONED,
           ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, NULL);
    EXPECT("[Result \"1-0\"]\n[Termination \"rules infraction\"]\n1. e4 1-0\n", ARB_CLAIM_ILLEGAL_MOVE,
           ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, NULL);
    EXPECT("[Result \"*\"]\n[Termination \"unterminated\"]\n1. e4 *\n", ARB_CLAIM_UNTERMINATED,
           ARB_CHECK_UNVERIFIABLE, ARB_UNFINISHED, NULL);
    EXPECT("[Result \"1-0\"]\n[Termination \"death\"]\n1. e4 1-0\n", ARB_CLAIM_OTHER, ARB_CHECK_UNVERIFIABLE,
           ARB_CONSISTENT, NULL);
    /* lichess Normal after a mate with moves after it is superseded. */
    EXPECT("[Result \"0-1\"]\n[Termination \"Normal\"]\n" FOOLS " 0-1\n", ARB_CLAIM_NORMAL, ARB_CHECK_UNVERIFIABLE,
           ARB_CONSISTENT, NULL);
    /* A draw claim against a decisive result. */
    EXPECT("[Result \"1-0\"]\n1. e4 e5 {Draw by agreement} 1-0\n", ARB_CLAIM_AGREEMENT, ARB_CHECK_CONTRADICTED,
           ARB_WRONG_REASON, "recorded is 1-0");
}
END_TEST

START_TEST(which_text_and_where)
{
    one_t o;
    /* No reason: a book comment, a comment before the last move, a
     * variation's comment. */
    const arb_game *g = read_one(&o, "[Result \"1-0\"]\n1. e4 {book} 1-0\n");
    CHECK(g->nreasons == 0, "book: %zu reasons", g->nreasons);
    arb_reader_free(o.r);
    g = read_one(&o, "[Result \"1-0\"]\n1. e4 {White mates} e5 1-0\n");
    CHECK(g->nreasons == 0, "an earlier comment: %zu reasons", g->nreasons);
    arb_reader_free(o.r);
    g = read_one(&o, "[Result \"1-0\"]\n1. e4 e5 (1... c5 {White mates}) 1-0\n");
    CHECK(g->nreasons == 0, "a variation's comment: %zu reasons", g->nreasons);
    arb_reader_free(o.r);
    g = read_one(&o, "[Result \"1-0\"]\n1. e4 e5 {x, Draw by agreement} (1... c5 {White mates}) 1-0\n");
    CHECK(g->nreasons == 1 && g->reasons[0].claim == ARB_CLAIM_AGREEMENT, "the mainline's comment");
    arb_reader_free(o.r);

    /* Position of the sentence, CRLF line ends and a comment over lines. */
    g = read_one(&o, "[Result \"0-1\"]\r\n[Termination \"abandoned\"]\r\n1. f3 e5 2. g4 Qh4# {-9.9/1 0.1s,\r\n"
                     "  Black\r\n mates} 0-1\r\n");
    CHECK(g->nreasons == 2, "%zu reasons", g->nreasons);
    const arb_reason *r = &g->reasons[0];
    CHECK(r->from == ARB_FROM_COMMENT && strcmp(r->text, "Black mates") == 0 && r->line == 4 && r->col == 3,
          "comment reason \"%s\" at %llu:%u", r->text, (unsigned long long)r->line, (unsigned)r->col);
    r = &g->reasons[1];
    CHECK(r->from == ARB_FROM_TERMINATION && r->line == 2 && r->col == 1 && r->disagrees,
          "Termination at %llu:%u, disagrees %d", (unsigned long long)r->line, (unsigned)r->col, r->disagrees);
    arb_reader_free(o.r);

    /* The TCEC S6 FRC case: tags say manual adjudication 1-0, the GUI's
     * comment "White loses on time": the tag is the reason, the comment
     * disagrees and contradicts the Result, the verdict stands. */
    g = read_one(&o, "[Result \"1-0\"]\n[TerminationDetails \"manual adjudication\"]\n"
                     "1. e4 e5 2. Qh5 {+9.9/20 1s, White loses on time} 1-0\n");
    CHECK(g->nreasons == 2 && g->reasons[0].from == ARB_FROM_TERMINATION_DETAILS &&
              g->reasons[0].check == ARB_CHECK_CONFIRMED && g->reasons[1].check == ARB_CHECK_CONTRADICTED &&
              g->reasons[1].disagrees && g->verdict == ARB_CONSISTENT,
          "S6 FRC: %zu reasons, first from %d check %d, verdict %s", g->nreasons, (int)g->reasons[0].from,
          (int)g->reasons[0].check, arb_verdict_name(g->verdict));
    arb_reader_free(o.r);

    /* A long comment: only its end is kept, and the sentence is found. */
    char long_pgn[1200];
    char filler[700];
    memset(filler, 'x', sizeof filler - 1);
    filler[sizeof filler - 1] = '\0';
    snprintf(long_pgn, sizeof long_pgn, "[Result \"0-1\"]\n" FOOLS " {%s, Black mates} 0-1\n", filler);
    g = read_one(&o, long_pgn);
    CHECK(g->nreasons == 1 && g->reasons[0].claim == ARB_CLAIM_CHECKMATE && g->reasons[0].col == 21 + 1 + 699 + 2,
          "long comment: %zu reasons, col %u", g->nreasons, g->nreasons ? (unsigned)g->reasons[0].col : 0);
    arb_reader_free(o.r);
    /* ... but a cut comment without ", " is no reason. */
    snprintf(long_pgn, sizeof long_pgn, "[Result \"0-1\"]\n" FOOLS " {%s Black mates} 0-1\n", filler);
    g = read_one(&o, long_pgn);
    CHECK(g->nreasons == 0, "cut comment: %zu reasons", g->nreasons);
    arb_reader_free(o.r);
}
END_TEST

/* Fed one byte at a time, the comment spans every chunk boundary: the
 * same reason, at the same place. */
/* ---- part three: texts read by their words (reason_words.c) ---- */

typedef struct {
    const char *text;
    int from;
    const char *recorded;
    bool ok;
    arb_claim claim;
    int winner;
    enum reason_implies implies;
} wrow_t;

/* Each row is what the text says to a reader of English, whatever the
 * source: the issue's wordings (python-chess's Termination names, club and
 * study exports) and the traps where the words are not sure. */
static const wrow_t wrows[] = {
    /* python-chess's Termination enum, as names and in words */
    { "THREEFOLD_REPETITION", T, "1/2-1/2", true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW },
    { "Termination.FIVEFOLD_REPETITION", T, "1/2-1/2", true, ARB_CLAIM_FIVEFOLD, NO, IMPLIES_DRAW },
    { "fivefold repetition", T, "1/2-1/2", true, ARB_CLAIM_FIVEFOLD, NO, IMPLIES_DRAW },
    { "SEVENTYFIVE_MOVES", T, "1/2-1/2", true, ARB_CLAIM_SEVENTYFIVE, NO, IMPLIES_DRAW },
    { "seventy-five moves", T, "1/2-1/2", true, ARB_CLAIM_SEVENTYFIVE, NO, IMPLIES_DRAW },
    { "75-move rule", T, "1/2-1/2", true, ARB_CLAIM_SEVENTYFIVE, NO, IMPLIES_DRAW },
    { "FIFTY_MOVES", T, "1/2-1/2", true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW },
    { "fifty-move draw rule", T, "1/2-1/2", true, ARB_CLAIM_FIFTY, NO, IMPLIES_DRAW },
    { "INSUFFICIENT_MATERIAL", T, "1/2-1/2", true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW },
    { "Dead position", T, "1/2-1/2", true, ARB_CLAIM_INSUFFICIENT, NO, IMPLIES_DRAW },
    { "Termination.CHECKMATE", T, "1-0", true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_NOTHING },
    { "STALEMATE.", T, "1/2-1/2", true, ARB_CLAIM_STALEMATE, NO, IMPLIES_DRAW },
    { "Threefold   repetition.", T, "1/2-1/2", true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW },
    { "repetition, threefold", T, "1/2-1/2", true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW },
    /* club and study exports: win and loss name no side */
    { "win by checkmate", T, "0-1", true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_DECISIVE },
    { "loss by checkmate", T, "0-1", true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_DECISIVE },
    { "loss by resignation", T, "1-0", true, ARB_CLAIM_RESIGNATION, NO, IMPLIES_DECISIVE },
    { "draw by repetition", T, "1/2-1/2", true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW },
    { "draw by agreement", T, "1/2-1/2", true, ARB_CLAIM_AGREEMENT, NO, IMPLIES_DRAW },
    { "Draw by time and insufficient material.", T, "1/2-1/2", true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_DRAW },
    /* sides, and their part in the end */
    { "White wins by checkmate", T, NULL, true, ARB_CLAIM_CHECKMATE, 0, IMPLIES_WHITE },
    { "Checkmate by Black", T, NULL, true, ARB_CLAIM_CHECKMATE, 1, IMPLIES_BLACK },
    { "White was checkmated", T, NULL, true, ARB_CLAIM_CHECKMATE, 1, IMPLIES_BLACK },
    { "Black checkmated", T, NULL, true, ARB_CLAIM_CHECKMATE, NO, IMPLIES_NOTHING },
    { "White flagged", T, NULL, true, ARB_CLAIM_TIME, 1, IMPLIES_BLACK },
    { "Black's flag fell", T, NULL, true, ARB_CLAIM_TIME, 0, IMPLIES_WHITE },
    { "Black wins on time against White", T, NULL, true, ARB_CLAIM_TIME, 1, IMPLIES_BLACK },
    { "Black resigned, White wins", T, NULL, true, ARB_CLAIM_RESIGNATION, 0, IMPLIES_WHITE },
    { "Resignation by White", T, NULL, true, ARB_CLAIM_RESIGNATION, 1, IMPLIES_BLACK },
    { "white_disconnected", T, NULL, true, ARB_CLAIM_ABANDONED, 1, IMPLIES_BLACK },
    { "Syzygy tablebase win for White", T, NULL, true, ARB_CLAIM_ADJUDICATION, 0, IMPLIES_WHITE },
    { "Black made an illegal move", T, NULL, true, ARB_CLAIM_ILLEGAL_MOVE, 0, IMPLIES_WHITE },
    /* a flag drawn by the recorded result, as "time forfeit" is */
    { "lost on time", T, "1/2-1/2", true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_DECISIVE },
    { "draw on time", T, "1/2-1/2", true, ARB_CLAIM_TIME_INSUFFICIENT, NO, IMPLIES_DRAW },
    /* not sure: two ends, a denial, a variant's end, a win in a draw */
    { "Insufficient Material / Stalemate", T, "1/2-1/2", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "checkmate or resignation", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "no checkmate", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "checking the opponent king for the 3rd time", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "King in the centre of the hill", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "White wins by stalemate", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "White mates, Black mates", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "move limit", T, "1/2-1/2", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "dead", T, "1-0", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "50", T, "1/2-1/2", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    { "partie nulle par r\xc3\xa9p\xc3\xa9tition", T, "1/2-1/2", true, ARB_CLAIM_OTHER, NO, IMPLIES_NOTHING },
    /* a comment's sentence: only the vocabulary, opening with a capital */
    { "Black resigns.", C, "1-0", true, ARB_CLAIM_RESIGNATION, 0, IMPLIES_WHITE },
    { "White wins on time.", C, "1-0", true, ARB_CLAIM_TIME, 0, IMPLIES_WHITE },
    { "+0.2/12 1.0s, Threefold repetition", C, "1/2-1/2", true, ARB_CLAIM_THREEFOLD, NO, IMPLIES_DRAW },
    { "white resigns", C, "1-0", false, 0, NO, 0 },
    { "1-0 White wins.", C, "1-0", false, 0, NO, 0 },
    { "Black resigns here, as Kasparov said", C, "1-0", false, 0, NO, 0 },
    { "Kasparov resigned", C, "1-0", false, 0, NO, 0 },
    { "Game drawn by repetition", C, "1/2-1/2", false, 0, NO, 0 },
};

START_TEST(words)
{
    for (size_t i = 0; i < sizeof wrows / sizeof wrows[0]; i++) {
        const wrow_t *w = &wrows[i];
        reason_parsed_t p;
        bool ok = reason_parse(w->text, strlen(w->text), (arb_reason_from)w->from, w->recorded, &p);
        CHECK(ok == w->ok, "\"%s\" from %d: recognised %d, want %d", w->text, w->from, ok, w->ok);
        if (!ok)
            continue;
        CHECK(p.words, "\"%s\": not read by its words", w->text);
        CHECK(p.claim == w->claim, "\"%s\": claim %s, want %s", w->text, arb_claim_name(p.claim),
              arb_claim_name(w->claim));
        CHECK(p.winner == w->winner, "\"%s\": winner %d, want %d", w->text, p.winner, w->winner);
        CHECK(p.implies == w->implies, "\"%s\": implies %d, want %d", w->text, (int)p.implies, (int)w->implies);
        CHECK(p.claim != ARB_CLAIM_OTHER || p.rank == 0, "\"%s\": other with rank %d", w->text, p.rank);
    }
    /* The known sentences keep their exact reading. */
    reason_parsed_t p;
    CHECK(reason_parse("White mates", 11, ARB_FROM_COMMENT, "1-0", &p) && !p.words, "exact");
    CHECK(reason_parse("Game drawn - insufficient material", 34, ARB_FROM_TERMINATION, NULL, &p) && !p.words &&
              p.claim == ARB_CLAIM_INSUFFICIENT && p.site == SITE_CHESSCOM,
          "chess.com's dash");
    const char *tv = "Game drawn - timeout vs insufficient material";
    CHECK(reason_parse(tv, strlen(tv), ARB_FROM_TERMINATION, NULL, &p) && !p.words &&
              p.claim == ARB_CLAIM_TIME_INSUFFICIENT && p.site == SITE_CHESSCOM,
          "chess.com's dash, timeout");
}
END_TEST

/* Through the reader: the readings' checks and the names of the players,
 * fivefold repetition and the seventy-five-move rule (9.6) weighed as the
 * replay's facts are, chess.com by era, and a timeout draw against a queen. */
typedef struct {
    const char *pgn;
    arb_claim claim;
    arb_check check;
    int verdict;
    const char *msg;
} case_t;

/* A drawn game from position fen, one move, its Termination tag saying t. */
#define DRAWN(fen, t, move) "[FEN \"" fen "\"]\n[Result \"1/2-1/2\"]\n[Termination \"" t "\"]\n1. " move " 1/2-1/2\n"

static const case_t cases[] = {
    /* A player's name read by the words, whatever its case; the loser named. */
    { "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Termination \"Bob wins by checkmate\"]\n" FOOLS " 0-1\n",
      ARB_CLAIM_CHECKMATE, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "checkmate by Black" },
    { "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Termination \"ann resigned\"]\n1. e4 e5 0-1\n",
      ARB_CLAIM_RESIGNATION, ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, NULL },
    { "[White \"ann\"]\n[Black \"bob\"]\n[Result \"1-0\"]\n[Termination \"ann resigned\"]\n1. e4 e5 1-0\n",
      ARB_CLAIM_RESIGNATION, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "recorded is 1-0" },
    /* A name that is no player's is no contradiction when read by the words. */
    { "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Termination \"carl won by checkmate\"]\n" FOOLS
      " 0-1\n",
      ARB_CLAIM_CHECKMATE, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "neither" },
    { "[White \"ann\"]\n[Black \"bob\"]\n[Result \"0-1\"]\n[Termination \"carl wins by checkmate\"]\n" FOOLS
      " 0-1\n",
      ARB_CLAIM_CHECKMATE, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, NULL },
    /* "loss" names no side: the recorded result decides who mated. */
    { "[Result \"0-1\"]\n[Termination \"loss by checkmate\"]\n" FOOLS " 0-1\n", ARB_CLAIM_CHECKMATE,
      ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "checkmate by Black" },
    { "[Result \"1/2-1/2\"]\n[Termination \"win by checkmate\"]\n1. e4 e5 1/2-1/2\n", ARB_CLAIM_CHECKMATE,
      ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "recorded is 1/2-1/2" },
    { "[Result \"1/2-1/2\"]\n[Termination \"THREEFOLD_REPETITION\"]\n"
      "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 1/2-1/2\n",
      ARB_CLAIM_THREEFOLD, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "occurred 3 times" },
    /* The words that are not sure make no claim, and no contradiction. */
    { "[Result \"1-0\"]\n[Variant \"Three-check\"]\n[Termination \"checking the opponent king for the 3rd time\"]\n"
      "1. e4 e5 1-0\n",
      ARB_CLAIM_OTHER, ARB_CHECK_UNVERIFIABLE, -1, NULL },
    /* Fivefold repetition (9.6.1): the start position a fifth time after 8...Ng8. */
    { "[Result \"1/2-1/2\"]\n[Termination \"FIVEFOLD_REPETITION\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 "
      "Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 Nf6 8. Ng1 Ng8 1/2-1/2\n",
      ARB_CLAIM_FIVEFOLD, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "fivefold repetition at 8...Ng8" },
    /* Three times only. */
    { "[Result \"1/2-1/2\"]\n[Termination \"fivefold repetition\"]\n1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 "
      "Ng8 1/2-1/2\n",
      ARB_CLAIM_FIVEFOLD, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "occurred 3 times" },
    /* The clock from 149 to 150 with a quiet move that does not mate (9.6.2). */
    { "[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 149 80\"]\n[Result \"1/2-1/2\"]\n[Termination \"SEVENTYFIVE_MOVES\"]\n"
      "80. Ra2 1/2-1/2\n",
      ARB_CLAIM_SEVENTYFIVE, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "seventy-five-move rule at 80.Ra2" },
    { "[FEN \"8/8/8/4k3/8/8/8/R3K3 w - - 120 80\"]\n[Result \"1/2-1/2\"]\n[Termination \"75-move rule\"]\n"
      "80. Ra2 1/2-1/2\n",
      ARB_CLAIM_SEVENTYFIVE, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "it is 121" },
    /* A draw's claim against the win recorded. */
    { "[Result \"0-1\"]\n[Termination \"fivefold repetition\"]\n" FOOLS " 0-1\n", ARB_CLAIM_FIVEFOLD,
      ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "recorded is 0-1" },
    /* chess.com by era.  2015 and before, a flag fall: Black (to move) flagged with a queen
     * against a bare king, which cannot mate (Article 6.9). */
    { DRAWN("4k3/8/8/8/8/8/q7/4K3 w - - 0 1", "Game drawn by insufficient material", "Kf1"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONFIRMED, ARB_CONSISTENT, "a flag fall by Black" },
    /* A rook and a pawn against a king and a knight, which can mate with
     * their help: chess.com's own-material rule only. */
    { DRAWN("4k3/8/8/8/8/3p4/r7/3NK3 w - - 0 1", "Game drawn by insufficient material", "Nc3"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_SITE_RULE, ARB_CONSISTENT, "chess.com scores as a draw" },
    /* A rook against a queen: neither reading holds. */
    { DRAWN("4k3/8/8/8/8/8/q7/4K2R w - - 0 1", "Game drawn by insufficient material", "Kf1"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "can checkmate" },
    /* The dash forms read as the sentences with "by". */
    { DRAWN("8/8/3nk3/8/8/3N4/8/4K3 w - - 0 1", "Game drawn - insufficient material", "Kd2"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_SITE_RULE, ARB_CONSISTENT, NULL },
    /* The side with time left has a queen: a helpmate, whatever the site. */
    { DRAWN("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Game drawn by timeout vs insufficient material", "Ke2"),
      ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "White can checkmate" },
    { DRAWN("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "Game drawn - timeout vs insufficient material", "Ke2"),
      ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "White can checkmate" },
    /* Insufficient material read by its words: K+N v K+N is not dead, but
     * some sites' rules draw it; a rook against a knight is never drawn so. */
    { DRAWN("8/8/3nk3/8/8/3N4/8/4K3 w - - 0 1", "Draw - insufficient material", "Kd2"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, "minor pieces only" },
    { DRAWN("8/8/3nk3/8/8/3R4/8/4K3 w - - 0 1", "Draw - insufficient material", "Kd2"),
      ARB_CLAIM_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "White can checkmate" },
    /* Read by its words (a site's own sentence, the site unknown): a queen
     * is false by every rule, a knight against pawns only by FIDE's. */
    { "[FEN \"4k3/8/8/8/8/8/8/3QK3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. Ke2 {Draw by time and insufficient material.} "
      "1/2-1/2\n",
      ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONTRADICTED, ARB_WRONG_REASON, "White can checkmate" },
    { "[FEN \"8/8/4k3/8/8/3p4/8/3NK3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n1. Nc3 {Draw by time and insufficient "
      "material.} 1/2-1/2\n",
      ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_UNVERIFIABLE, ARB_CONSISTENT, "not shown unable" },
};

START_TEST(words_checked)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        expect_at("cases[]", (int)i, cases[i].pgn, cases[i].claim, cases[i].check, cases[i].verdict, cases[i].msg);
    /* The reading is in the record. */
    one_t o;
    const arb_game *g = read_one(&o, "[Result \"1/2-1/2\"]\n[Termination \"draw by repetition\"]\n1. e4 "
                                     "{Draw by 3-fold repetition} 1/2-1/2\n");
    CHECK(g->nreasons == 2 && g->reasons[0].reading == ARB_READ_WORDS && g->reasons[1].reading == ARB_READ_EXACT,
          "readings %d %d", (int)g->reasons[0].reading, (int)g->reasons[1].reading);
    arb_reader_free(o.r);
}
END_TEST
#undef DRAWN

START_TEST(chunking)
{
    const char *pgn = "[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# {-9.9/1 0.1s,\n Black mates} 0-1\n";
    arb_reader *r = arb_reader_new(NULL);
    const arb_game *g = NULL;
    for (size_t i = 0; pgn[i] && !g; i++) {
        arb_reader_feed(r, pgn + i, 1);
        g = arb_reader_next(r, NULL);
    }
    CHECK(g && g->nreasons == 1 && strcmp(g->reasons[0].text, "Black mates") == 0 && g->reasons[0].line == 3 &&
              g->reasons[0].col == 2,
          "byte by byte: %zu reasons", g ? g->nreasons : 0);
    arb_reader_free(r);

    /* A chunk that ends right after the comment is reused by the caller
     * (as the program reuses its buffer): the comment's end was kept. */
    char buf[128];
    const char *cut = strchr(pgn, '}') + 1;
    size_t n = (size_t)(cut - pgn);
    memcpy(buf, pgn, n);
    r = arb_reader_new(NULL);
    arb_reader_feed(r, buf, n);
    CHECK(arb_reader_next(r, NULL) == NULL, "no game yet");
    memset(buf, 'X', sizeof buf);
    memcpy(buf, cut, strlen(cut));
    arb_reader_feed(r, buf, strlen(cut));
    g = arb_reader_next(r, NULL);
    CHECK(g && g->nreasons == 1 && strcmp(g->reasons[0].text, "Black mates") == 0 && g->reasons[0].line == 3 &&
              g->reasons[0].col == 2,
          "chunk reused: %zu reasons, \"%s\" at %llu:%u", g ? g->nreasons : 0,
          g && g->nreasons ? g->reasons[0].text : "", g && g->nreasons ? (unsigned long long)g->reasons[0].line : 0,
          g && g->nreasons ? (unsigned)g->reasons[0].col : 0);
    arb_reader_free(r);

    /* The same where the sentence starts on the comment's first line and
     * goes on to the next: its place is counted from the comment's {
     * at column 21: the sentence at 2:22), which must outlive the chunk too. */
    const char *two = "[Result \"0-1\"]\n1. f3 e5 2. g4 Qh4# {Black\nmates} 0-1\n";
    const char *at = strchr(two, '}') + 1;
    for (int reuse = 0; reuse < 2; reuse++) {
        r = arb_reader_new(NULL);
        size_t k = reuse ? (size_t)(at - two) : strlen(two);
        memcpy(buf, two, k);
        arb_reader_feed(r, buf, k);
        g = arb_reader_next(r, NULL);
        if (reuse) {
            CHECK(g == NULL, "no game yet");
            memset(buf, 'X', sizeof buf);
            memcpy(buf, at, strlen(at));
            arb_reader_feed(r, buf, strlen(at));
            g = arb_reader_next(r, NULL);
        }
        if (!g) {
            arb_reader_finish(r);
            g = arb_reader_next(r, NULL);
        }
        CHECK(g && g->nreasons == 1 && strcmp(g->reasons[0].text, "Black mates") == 0 &&
                  g->reasons[0].line == 2 && g->reasons[0].col == 22,
              "%s: %zu reasons, at %llu:%u", reuse ? "chunk reused" : "one chunk", g ? g->nreasons : 0,
              g && g->nreasons ? (unsigned long long)g->reasons[0].line : 0,
              g && g->nreasons ? (unsigned)g->reasons[0].col : 0);
        arb_reader_free(r);
    }
}
END_TEST

/* ---- the memo: the same reading as reason_parse(), whatever came before ---- */

static bool same_parse(const reason_parsed_t *a, const reason_parsed_t *b)
{
    return a->claim == b->claim && a->winner == b->winner && a->implies == b->implies && a->site == b->site &&
           a->tablebase == b->tablebase && a->rank == b->rank && a->start == b->start && a->len == b->len &&
           a->user_start == b->user_start && a->user_len == b->user_len;
}

START_TEST(memo)
{
    /* Every tag text of the table under each result, three rounds over a
     * memo of four entries: hits, misses and replacements all come by. */
    static const char *const results[] = { NULL, "1-0", "0-1", "1/2-1/2", "1/2", "*" };
    reason_memo_t m = { 0 };
    size_t hits = 0;
    for (int round = 0; round < 3; round++)
        for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
            for (size_t k = 0; k < sizeof results / sizeof results[0]; k++) {
                const row_t *w = &rows[i];
                if (w->from == C)
                    continue;
                size_t len = strlen(w->text);
                reason_parsed_t want, got;
                bool ok = reason_parse(w->text, len, (arb_reason_from)w->from, results[k], &want);
                unsigned before = m.next;
                bool ok2 = reason_parse_tag(&m, w->text, len, (arb_reason_from)w->from, results[k], &got);
                hits += m.next == before;
                CHECK(ok == ok2 && (!ok || same_parse(&want, &got)), "memo: \"%s\" under %s: claim %s, want %s",
                      w->text, results[k] ? results[k] : "none", arb_claim_name(got.claim),
                      arb_claim_name(want.claim));
            }
    CHECK(hits > 0, "the memo was never used");
    /* A bare "time forfeit" drawn is a timeout draw, won a time claim: the
     * result is part of the key. */
    reason_parsed_t p;
    reason_memo_t t = { 0 };
    ck_assert(reason_parse_tag(&t, "Time forfeit", 12, ARB_FROM_TERMINATION, "1-0", &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_TIME);
    ck_assert(reason_parse_tag(&t, "Time forfeit", 12, ARB_FROM_TERMINATION, "1/2-1/2", &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_TIME_INSUFFICIENT);
    ck_assert(reason_parse_tag(&t, "Time forfeit", 12, ARB_FROM_TERMINATION, "1-0", &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_TIME);
    /* The same words in TerminationDetails are another key. */
    ck_assert(reason_parse_tag(&t, "Stalemate", 9, ARB_FROM_TERMINATION_DETAILS, NULL, &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_STALEMATE);
    ck_assert(reason_parse_tag(&t, "Stalemate", 9, ARB_FROM_TERMINATION, NULL, &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_STALEMATE);
    ck_assert(reason_parse_tag(&t, "Stalemate", 9, ARB_FROM_TERMINATION_DETAILS, NULL, &p));
    ck_assert_int_eq(p.claim, ARB_CLAIM_STALEMATE);
}
END_TEST

/* One reader, one stream: lichess values recur from game to game with
 * other results and other boards, and each game is read as if alone. */
START_TEST(recurring_values)
{
    static const struct {
        const char *pgn;
        arb_claim claim;
        arb_check check;
    } games[] = {
        { "[Result \"1-0\"]\n[Termination \"Normal\"]\n1. e4 e5 1-0\n\n", ARB_CLAIM_NORMAL, ARB_CHECK_UNVERIFIABLE },
        /* Normal again, moves played after the position was dead (5.2.2):
         * superseded; the first Normal's check must not carry over. */
        { "[FEN \"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1\"]\n[Result \"1-0\"]\n[Termination \"Normal\"]\n1. Kd2 Kd5 1-0\n\n",
          ARB_CLAIM_NORMAL, ARB_CHECK_SUPERSEDED },
        { "[Result \"1-0\"]\n[Termination \"Time forfeit\"]\n1. e4 e5 1-0\n\n", ARB_CLAIM_TIME, ARB_CHECK_CONFIRMED },
        /* The same value drawn: a timeout against a side that cannot mate. */
        { "[FEN \"8/8/8/4k3/8/8/8/2B1K3 w - - 0 1\"]\n[Result \"1/2-1/2\"]\n[Termination \"Time forfeit\"]\n"
          "1. Kd2 1/2-1/2\n\n",
          ARB_CLAIM_TIME_INSUFFICIENT, ARB_CHECK_CONFIRMED },
        { "[Result \"0-1\"]\n[Termination \"Time forfeit\"]\n1. e4 e5 0-1\n\n", ARB_CLAIM_TIME, ARB_CHECK_CONFIRMED },
        /* A Normal game ended by mate, with no move after it: unverifiable. */
        { "[Result \"0-1\"]\n[Termination \"Normal\"]\n" FOOLS " 0-1\n\n", ARB_CLAIM_NORMAL, ARB_CHECK_UNVERIFIABLE },
        /* Normal, the game unreadable: unverifiable, and says why. */
        { "[Result \"1-0\"]\n[Termination \"Normal\"]\n1. e5 1-0\n\n", ARB_CLAIM_NORMAL, ARB_CHECK_UNVERIFIABLE },
    };
    arb_reader *r = arb_reader_new(NULL);
    ck_assert_ptr_nonnull(r);
    char all[2048] = "";
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++)
        strcat(all, games[i].pgn);
    arb_reader_feed(r, all, strlen(all));
    arb_reader_finish(r);
    size_t i = 0;
    const arb_game *g;
    while ((g = arb_reader_next(r, NULL)) != NULL) {
        CHECK(i < sizeof games / sizeof games[0], "more games than fed");
        one_t o;
        const arb_game *alone = read_one(&o, games[i].pgn);
        CHECK(g->nreasons == 1 && alone->nreasons == 1, "game %zu: %zu reasons", i + 1, g->nreasons);
        const arb_reason *a = &g->reasons[0], *b = &alone->reasons[0];
        CHECK(a->claim == games[i].claim && a->check == games[i].check, "game %zu: %s %s, want %s %s", i + 1,
              arb_claim_name(a->claim), arb_check_name(a->check), arb_claim_name(games[i].claim),
              arb_check_name(games[i].check));
        CHECK(a->claim == b->claim && a->check == b->check && a->winner == b->winner &&
                  strcmp(a->message, b->message) == 0 && a->text_len == b->text_len &&
                  memcmp(a->text, b->text, a->text_len) == 0,
              "game %zu: \"%s\" in the stream, \"%s\" alone", i + 1, a->message, b->message);
        arb_reader_free(o.r);
        i++;
    }
    CHECK(i == sizeof games / sizeof games[0], "%zu games read", i);
    arb_reader_free(r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("reason");
    TCase *tc = tcase_create("reason");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, vocabulary);
    tcase_add_test(tc, sentence_and_user);
    tcase_add_test(tc, checkmate_and_stalemate);
    tcase_add_test(tc, repetition_and_fifty);
    tcase_add_test(tc, insufficient_material);
    tcase_add_test(tc, time);
    tcase_add_test(tc, adjudication_and_the_rest);
    tcase_add_test(tc, which_text_and_where);
    tcase_add_test(tc, chunking);
    tcase_add_test(tc, memo);
    tcase_add_test(tc, recurring_values);
    tcase_add_test(tc, words);
    tcase_add_test(tc, words_checked);
    suite_add_tcase(s, tc);
    return tu_run(s);
}

/* test_adjudicate.c: unit tests for adjudicate() (src/adjudicate.h), driven
 * with hand-built arb_game records, so that each rule of the ADJUDICATION
 * section of pgn-arbiter(1) is tested apart from the reader and the rules:
 *
 *   - the end of the game is the earliest of checkmate, stalemate, dead,
 *     fivefold and seventy-five (plus threefold and fifty under
 *     ARB_RULES_CLAIM), ties on one ply broken in that order, so that mate
 *     on the move that completes a repetition or reaches 150 plies is mate
 *     (FIDE 9.6);
 *   - the mated side follows from the side to move at ply 0 and the parity
 *     of the mate ply;
 *   - Article 6.9: a loss on time is a draw when the winner cannot mate;
 *   - the verdicts in their order of precedence, and the adjudication text.
 *
 * Every check prints the whole record (input and output) when it fails. */
#include <check.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adjudicate.h"
#include "testutil.h"

#define STR(s) ((s) ? (s) : "(null)")

static bool str_eq(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* ---- a game under test ---- */

typedef struct {
    arb_game g;
    char why[200];                 /* adjudicate_input_t.why */
    char moves[ARB_FACT_COUNT][32]; /* behind g.first_move[] */
    /* adjudicate()'s other inputs */
    int start_stm;
    bool cannot_mate[2];
    const char *termination;
    arb_policy policy;
    bool no_why;                   /* pass why = NULL */
} game_t;

/* A readable game with `plies` moves and Result tag `result` (NULL: none),
 * White to move at ply 0, no facts, FIDE policy. */
static void game_init(game_t *t, const char *result, uint32_t plies)
{
    memset(t, 0, sizeof *t);
    t->g.number = 1;
    t->g.status = ARB_OK;
    t->g.has_movetext = true;
    t->g.plies = plies;
    t->g.result = result;
    for (int f = 0; f < ARB_FACT_COUNT; f++) {
        t->g.first[f] = -1;
        t->g.first_move[f] = "";
    }
    t->policy = ARB_RULES_FIDE;
    /* Stale outputs, as a reused record would have: adjudicate() must set them all. */
    t->g.has_end = true;
    t->g.end_reason = ARB_STALEMATE;
    t->g.end_ply = 99;
    t->g.end_move = "stale";
    t->g.adjudicated = "stale";
    t->g.adjudication = "stale";
    t->g.verdict = ARB_UNREADABLE;
}

/* Fact f first holds at ply, reached by move ("" at ply 0). */
static void fact(game_t *t, arb_fact f, int32_t ply, const char *move)
{
    t->g.first[f] = ply;
    snprintf(t->moves[f], sizeof t->moves[f], "%s", move);
    t->g.first_move[f] = t->moves[f];
}

static void run(game_t *t)
{
    memset(t->why, 'X', sizeof t->why); /* no NUL: a missing terminator shows */
    t->why[sizeof t->why - 1] = '\0';
    adjudicate_input_t in = {
        .start_stm = t->start_stm,
        .cannot_mate = { t->cannot_mate[0], t->cannot_mate[1] },
        .termination = t->termination,
        .why = t->no_why ? NULL : t->why,
        .why_cap = t->no_why ? 0 : sizeof t->why,
    };
    adjudicate(&t->g, &in, t->policy);
}

/* Inputs and outputs, for failure messages. */
static const char *dump(const game_t *t)
{
    static char buf[2048];
    const arb_game *g = &t->g;
    int n = snprintf(buf, sizeof buf,
                     "  in: status %s plies %u result %s start_stm %d cannot_mate %d/%d termination %s policy %s\n"
                     "      first:",
                     arb_status_name(g->status), (unsigned)g->plies, STR(g->result), t->start_stm,
                     (int)t->cannot_mate[0], (int)t->cannot_mate[1], STR(t->termination),
                     t->policy == ARB_RULES_CLAIM ? "claim" : "fide");
    for (int f = 0; f < ARB_FACT_COUNT && n > 0 && (size_t)n < sizeof buf; f++)
        if (g->first[f] >= 0)
            n += snprintf(buf + n, sizeof buf - (size_t)n, " %s=%d(%s)", arb_fact_name((arb_fact)f),
                          (int)g->first[f], STR(g->first_move[f]));
    if (n > 0 && (size_t)n < sizeof buf) {
        if (g->has_end)
            n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  out: end %s at ply %d move %s",
                          arb_fact_name(g->end_reason), (int)g->end_ply, STR(g->end_move));
        else
            n += snprintf(buf + n, sizeof buf - (size_t)n, "\n  out: no end");
    }
    if (n > 0 && (size_t)n < sizeof buf)
        snprintf(buf + n, sizeof buf - (size_t)n, ", adjudicated %s, adjudication \"%s\", verdict %s\n",
                 STR(g->adjudicated), STR(g->adjudication), arb_verdict_name(g->verdict));
    return buf;
}

/* ---- expectations ---- */

/* The end: reason (or -1 for none), ply and move. */
static void expect_end_at(const char *file, int line, const game_t *t, int reason, int32_t ply, const char *move)
{
    const arb_game *g = &t->g;
    if (reason < 0) {
        CHECK(!g->has_end, "%s:%d: expected no end by rule\n%s", file, line, dump(t));
        return;
    }
    CHECK(g->has_end, "%s:%d: expected an end by %s at ply %d, got none\n%s", file, line,
          arb_fact_name((arb_fact)reason), (int)ply, dump(t));
    CHECK(g->end_reason == (arb_fact)reason && g->end_ply == ply,
          "%s:%d: expected the end by %s at ply %d, got %s at ply %d\n%s", file, line,
          arb_fact_name((arb_fact)reason), (int)ply, arb_fact_name(g->end_reason), (int)g->end_ply, dump(t));
    CHECK(str_eq(g->end_move, move), "%s:%d: end move \"%s\", expected \"%s\"\n%s", file, line, STR(g->end_move),
          move, dump(t));
}
#define END(t, reason, ply, move) expect_end_at(TU_WHERE, (t), (reason), (ply), (move))
#define NO_END(t) expect_end_at(TU_WHERE, (t), -1, 0, NULL)

/* adjudicated, adjudication (NULL: none) and verdict. */
static void expect_outcome_at(const char *file, int line, const game_t *t, const char *adjudicated,
                              const char *adjudication, arb_verdict verdict)
{
    const arb_game *g = &t->g;
    CHECK(str_eq(g->adjudicated, adjudicated), "%s:%d: adjudicated %s, expected %s\n%s", file, line,
          STR(g->adjudicated), STR(adjudicated), dump(t));
    CHECK(str_eq(g->adjudication, adjudication), "%s:%d: adjudication \"%s\", expected \"%s\"\n%s", file, line,
          STR(g->adjudication), STR(adjudication), dump(t));
    if (adjudication && !t->no_why)
        CHECK(g->adjudication == t->why, "%s:%d: the adjudication does not point at the why buffer\n%s", file,
              line, dump(t));
    CHECK(g->verdict == verdict, "%s:%d: verdict %s, expected %s\n%s", file, line, arb_verdict_name(g->verdict),
          arb_verdict_name(verdict), dump(t));
}
#define OUTCOME(t, adj, why, verdict) expect_outcome_at(TU_WHERE, (t), (adj), (why), (verdict))

/* The facts that can end a game, in the order that breaks ties. */
static const arb_fact enders[] = { ARB_CHECKMATE, ARB_STALEMATE, ARB_DEAD, ARB_FIVEFOLD, ARB_SEVENTYFIVE,
                                   ARB_THREEFOLD, ARB_FIFTY };
#define NENDERS (sizeof enders / sizeof enders[0])

/* ---- the end of the game ---- */

START_TEST(end_each_reason_alone)
{
    /* Each automatic end, alone, at the last ply (29). */
    static const char *const want_adj[] = { "1-0", "1/2-1/2", "1/2-1/2", "1/2-1/2", "1/2-1/2" };
    for (size_t i = 0; i < 5; i++) {
        game_t t;
        game_init(&t, want_adj[i], 29);
        fact(&t, enders[i], 29, "15.Qh7");
        run(&t);
        END(&t, enders[i], 29, "15.Qh7");
        OUTCOME(&t, want_adj[i], NULL, ARB_CONSISTENT);
    }
    /* Threefold and fifty alone end nothing under FIDE. */
    for (size_t i = 5; i < NENDERS; i++) {
        game_t t;
        game_init(&t, "1-0", 30);
        fact(&t, enders[i], 10, "6.Nf3");
        run(&t);
        NO_END(&t);
        OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
    }
    /* Insufficient material comes with dead at the same ply; the reason is dead (pgn-arbiter(1)). */
    game_t t;
    game_init(&t, "1/2-1/2", 12);
    fact(&t, ARB_INSUFFICIENT, 12, "6...Kxd4");
    fact(&t, ARB_DEAD, 12, "6...Kxd4");
    run(&t);
    END(&t, ARB_DEAD, 12, "6...Kxd4");
    OUTCOME(&t, "1/2-1/2", NULL, ARB_CONSISTENT);
}
END_TEST

START_TEST(end_is_the_earliest)
{
    /* For every pair of automatic ends at different plies, the earlier wins,
     * whichever of the two it is. */
    for (size_t a = 0; a < 5; a++)
        for (size_t b = 0; b < 5; b++) {
            if (a == b)
                continue;
            game_t t;
            game_init(&t, NULL, 60);
            fact(&t, enders[a], 21, "11.e4");
            fact(&t, enders[b], 40, "20...e5");
            run(&t);
            END(&t, enders[a], 21, "11.e4");
        }
    /* All five at once, the latest first in enum order. */
    game_t t;
    game_init(&t, "1/2-1/2", 200);
    fact(&t, ARB_CHECKMATE, 200, "100...Qh1#");
    fact(&t, ARB_STALEMATE, 180, "90...Kh8");
    fact(&t, ARB_DEAD, 170, "85...Kg7");
    fact(&t, ARB_FIVEFOLD, 160, "80...Kf8");
    fact(&t, ARB_SEVENTYFIVE, 150, "75...Ke8");
    run(&t);
    END(&t, ARB_SEVENTYFIVE, 150, "75...Ke8");
    OUTCOME(&t, "1/2-1/2", NULL, ARB_MOVES_AFTER_END);
}
END_TEST

START_TEST(end_ties_on_one_ply)
{
    /* Two reasons on one ply: the first of checkmate, stalemate, dead,
     * fivefold, seventyfive, threefold, fifty is the reason (pgn-arbiter(1),
     * "End of the game"); a mate that completes a fifth repetition or
     * reaches the 150th ply is checkmate. */
    for (size_t a = 0; a < NENDERS; a++)
        for (size_t b = a + 1; b < NENDERS; b++) {
            game_t t;
            game_init(&t, NULL, 150);
            t.policy = ARB_RULES_CLAIM; /* so that threefold and fifty take part */
            fact(&t, enders[b], 149, "75.Qg7");
            fact(&t, enders[a], 149, "75.Qg7");
            run(&t);
            END(&t, enders[a], 149, "75.Qg7");
        }
    game_t t;
    game_init(&t, "1/2-1/2", 150);
    fact(&t, ARB_SEVENTYFIVE, 150, "75...Qb2#");
    fact(&t, ARB_CHECKMATE, 150, "75...Qb2#");
    fact(&t, ARB_FIVEFOLD, 150, "75...Qb2#");
    run(&t);
    END(&t, ARB_CHECKMATE, 150, "75...Qb2#");
    OUTCOME(&t, "0-1", "checkmate at 75...Qb2#; recorded 1/2-1/2", ARB_WRONG_RESULT);
}
END_TEST

START_TEST(end_mating_side)
{
    /* The side to move at the mate ply is mated.  White to move at ply 0:
     * even plies have White to move.  Black to move (a FEN "b"): odd plies. */
    static const struct {
        int stm;
        int32_t ply;
        const char *want;
    } cases[] = {
        { 0, 4, "0-1" },  /* fool's mate, 2...Qh4# */
        { 0, 7, "1-0" },  /* scholar's mate, 4.Qxf7# */
        { 0, 0, "0-1" },  /* a FEN where White, to move, is mated */
        { 1, 0, "1-0" },  /* a FEN where Black, to move, is mated */
        { 1, 1, "0-1" },  /* Black mates with its first move */
        { 1, 2, "1-0" },  /* White mates with its first move */
        { 1, 101, "0-1" },
        { 0, 101, "1-0" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game_t t;
        game_init(&t, cases[i].want, (uint32_t)cases[i].ply);
        t.start_stm = cases[i].stm;
        fact(&t, ARB_CHECKMATE, cases[i].ply, cases[i].ply ? "m#" : "");
        run(&t);
        CHECK(str_eq(t.g.adjudicated, cases[i].want),
              "case %zu: %s to move at ply 0, mate at ply %d: adjudicated %s, expected %s\n%s", i,
              cases[i].stm ? "Black" : "White", (int)cases[i].ply, STR(t.g.adjudicated), cases[i].want, dump(&t));
        OUTCOME(&t, cases[i].want, NULL, ARB_CONSISTENT);
    }
    /* Recorded the other way round: a wrong result, and the text says why. */
    game_t t;
    game_init(&t, "1-0", 1);
    t.start_stm = 1;
    fact(&t, ARB_CHECKMATE, 1, "60...Qh2#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 60...Qh2#; recorded 1-0", ARB_WRONG_RESULT);
}
END_TEST

START_TEST(end_resets_a_reused_record)
{
    /* The reader reuses one record: an end, adjudication and verdict from
     * the game before must not survive (game_init() leaves stale values). */
    game_t t;
    game_init(&t, "1-0", 20);
    run(&t);
    NO_END(&t);
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);

    /* Twice on the same record: first decided, then not. */
    game_init(&t, "1-0", 4);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 2...Qh4#; recorded 1-0", ARB_WRONG_RESULT);
    t.g.first[ARB_CHECKMATE] = -1;
    run(&t);
    NO_END(&t);
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
}
END_TEST

/* ---- policies ---- */

START_TEST(policy_claim)
{
    /* Under ARB_RULES_CLAIM, threefold and fifty end the game at their first ply. */
    game_t t;
    game_init(&t, "1-0", 9);
    fact(&t, ARB_THREEFOLD, 8, "4...Ng8");
    t.policy = ARB_RULES_CLAIM;
    run(&t);
    END(&t, ARB_THREEFOLD, 8, "4...Ng8");
    OUTCOME(&t, "1/2-1/2", "threefold repetition claimed at 4...Ng8; recorded 1-0", ARB_WRONG_RESULT);
    /* The same under FIDE: a fact, not an end. */
    t.policy = ARB_RULES_FIDE;
    run(&t);
    NO_END(&t);
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);

    game_init(&t, "0-1", 130);
    fact(&t, ARB_FIFTY, 120, "70...Rb1");
    t.policy = ARB_RULES_CLAIM;
    run(&t);
    END(&t, ARB_FIFTY, 120, "70...Rb1");
    OUTCOME(&t, "1/2-1/2", "fifty-move rule claimed at 70...Rb1; recorded 0-1", ARB_WRONG_RESULT);
    t.policy = ARB_RULES_FIDE;
    run(&t);
    NO_END(&t);
    OUTCOME(&t, "0-1", NULL, ARB_CONSISTENT);

    /* A claim ends the game before a later automatic end; a right result
     * with moves after the claim is moves-after-end. */
    game_init(&t, "1/2-1/2", 20);
    fact(&t, ARB_THREEFOLD, 8, "4...Ng8");
    fact(&t, ARB_FIFTY, 12, "6...Nf6");
    fact(&t, ARB_FIVEFOLD, 16, "8...Ng8");
    t.policy = ARB_RULES_CLAIM;
    run(&t);
    END(&t, ARB_THREEFOLD, 8, "4...Ng8");
    OUTCOME(&t, "1/2-1/2", NULL, ARB_MOVES_AFTER_END);
    t.policy = ARB_RULES_FIDE;
    run(&t);
    END(&t, ARB_FIVEFOLD, 16, "8...Ng8");
    OUTCOME(&t, "1/2-1/2", NULL, ARB_MOVES_AFTER_END);

    /* An earlier automatic end still wins under the claim policy. */
    game_init(&t, "1/2-1/2", 20);
    fact(&t, ARB_STALEMATE, 20, "10...Kh8");
    fact(&t, ARB_FIFTY, 30, "15...Kg8");
    fact(&t, ARB_DEAD, 10, "5...Kxd4");
    t.policy = ARB_RULES_CLAIM;
    run(&t);
    END(&t, ARB_DEAD, 10, "5...Kxd4");
    /* Mate on the ply that makes a fifty-move claim possible is mate. */
    game_init(&t, "1-0", 101);
    fact(&t, ARB_FIFTY, 101, "51.Qg7#");
    fact(&t, ARB_CHECKMATE, 101, "51.Qg7#");
    t.policy = ARB_RULES_CLAIM;
    run(&t);
    END(&t, ARB_CHECKMATE, 101, "51.Qg7#");
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
}
END_TEST

/* ---- Article 6.9 ---- */

START_TEST(article_6_9)
{
    /* Lost on time by Black, White with a lone king: a draw. */
    static const char *const spellings[] = { "Time forfeit", "time forfeit", "TIME FORFEIT" };
    for (size_t i = 0; i < 3; i++) {
        game_t t;
        game_init(&t, "1-0", 80);
        t.termination = spellings[i];
        t.cannot_mate[0] = true;
        run(&t);
        NO_END(&t);
        OUTCOME(&t, "1/2-1/2", "Article 6.9: White cannot checkmate; recorded 1-0 on time", ARB_WRONG_RESULT);
    }
    /* Black the winner on time, unable to mate; both policies. */
    for (int p = 0; p < 2; p++) {
        game_t t;
        game_init(&t, "0-1", 81);
        t.termination = "Time forfeit";
        t.cannot_mate[1] = true;
        t.policy = p ? ARB_RULES_CLAIM : ARB_RULES_FIDE;
        run(&t);
        NO_END(&t);
        OUTCOME(&t, "1/2-1/2", "Article 6.9: Black cannot checkmate; recorded 0-1 on time", ARB_WRONG_RESULT);
    }
    /* A winner who can mate keeps the win, even if the loser could not have mated. */
    game_t t;
    game_init(&t, "1-0", 80);
    t.termination = "Time forfeit";
    t.cannot_mate[1] = true;
    run(&t);
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
    game_init(&t, "0-1", 80);
    t.termination = "Time forfeit";
    t.cannot_mate[0] = true;
    run(&t);
    OUTCOME(&t, "0-1", NULL, ARB_CONSISTENT);

    /* A draw or an unfinished game on time is left as recorded. */
    static const struct {
        const char *result;
        arb_verdict v;
    } alone[] = { { "1/2-1/2", ARB_CONSISTENT }, { "*", ARB_UNFINISHED }, { NULL, ARB_UNFINISHED } };
    for (size_t i = 0; i < 3; i++) {
        game_init(&t, alone[i].result, 80);
        t.termination = "Time forfeit";
        t.cannot_mate[0] = t.cannot_mate[1] = true;
        run(&t);
        NO_END(&t);
        OUTCOME(&t, alone[i].result, NULL, alone[i].v);
    }

    /* Another termination, or none: the win stands. */
    static const char *const others[] = { NULL, "normal", "time forfeit ", "time", "abandoned" };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        game_init(&t, "1-0", 80);
        t.termination = others[i];
        t.cannot_mate[0] = true;
        run(&t);
        OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
    }

    /* An end by rule takes precedence: the text names the rule. */
    game_init(&t, "1-0", 40);
    t.termination = "Time forfeit";
    t.cannot_mate[0] = true;
    fact(&t, ARB_DEAD, 40, "20...Kxe7");
    run(&t);
    END(&t, ARB_DEAD, 40, "20...Kxe7");
    OUTCOME(&t, "1/2-1/2", "dead position at 20...Kxe7; recorded 1-0", ARB_WRONG_RESULT);

    /* Without a why buffer the result still changes; there is no text. */
    game_init(&t, "1-0", 80);
    t.termination = "Time forfeit";
    t.cannot_mate[0] = true;
    t.no_why = true;
    run(&t);
    OUTCOME(&t, "1/2-1/2", NULL, ARB_WRONG_RESULT);
}
END_TEST

/* ---- verdicts ---- */

START_TEST(verdict_precedence)
{
    game_t t;
    /* unreadable before everything: a wrong result and moves after the end too. */
    static const arb_status bad[] = { ARB_ILLEGAL, ARB_SYNTAX, ARB_BADFEN, ARB_UNSUPPORTED };
    for (size_t i = 0; i < 4; i++) {
        game_init(&t, "1/2-1/2", 6);
        t.g.status = bad[i];
        t.g.has_error = true;
        fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
        run(&t);
        END(&t, ARB_CHECKMATE, 4, "2...Qh4#");
        OUTCOME(&t, "0-1", "checkmate at 2...Qh4#; recorded 1/2-1/2", ARB_UNREADABLE);
        /* and with nothing else to say */
        game_init(&t, NULL, 0);
        t.g.status = bad[i];
        run(&t);
        OUTCOME(&t, NULL, NULL, ARB_UNREADABLE);
    }

    /* wrong-result before moves-after-end. */
    game_init(&t, "1/2-1/2", 6);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 2...Qh4#; recorded 1/2-1/2", ARB_WRONG_RESULT);
    /* wrong-result: a "*" or a missing Result tag in a game that ended by rule. */
    game_init(&t, "*", 4);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 2...Qh4#; recorded *", ARB_WRONG_RESULT);
    game_init(&t, NULL, 4);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 2...Qh4#", ARB_WRONG_RESULT);
    game_init(&t, NULL, 17);
    fact(&t, ARB_STALEMATE, 17, "9.Qg6");
    run(&t);
    OUTCOME(&t, "1/2-1/2", "stalemate at 9.Qg6", ARB_WRONG_RESULT);
    /* A result that is not one of the four, in a game ended by rule. */
    game_init(&t, "1-0 {adjourned}", 16);
    fact(&t, ARB_FIVEFOLD, 16, "8...Ng8");
    run(&t);
    OUTCOME(&t, "1/2-1/2", "fivefold repetition at 8...Ng8; recorded 1-0 {adjourned}", ARB_WRONG_RESULT);

    /* moves-after-end: the result is right, the score goes on. */
    game_init(&t, "1/2-1/2", 17);
    fact(&t, ARB_FIVEFOLD, 16, "8...Ng8");
    run(&t);
    OUTCOME(&t, "1/2-1/2", NULL, ARB_MOVES_AFTER_END);
    game_init(&t, "0-1", 5);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", NULL, ARB_MOVES_AFTER_END);
    /* ... and one ply fewer: consistent. */
    game_init(&t, "0-1", 4);
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", NULL, ARB_CONSISTENT);

    /* self-contradictory: the Result tag and the termination marker give
     * two results and the rules decide neither.  After wrong-result (the
     * rules' answer is the stronger finding), before moves-after-end and
     * unfinished. */
    game_init(&t, "1-0", 1);
    t.g.marker = "0-1";
    run(&t);
    OUTCOME(&t, "1-0", NULL, ARB_SELF_CONTRADICTORY);
    game_init(&t, "*", 1);
    t.g.marker = "1/2-1/2";
    run(&t);
    OUTCOME(&t, "*", NULL, ARB_SELF_CONTRADICTORY);
    game_init(&t, "0-1", 5);
    t.g.marker = "1-0";
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", NULL, ARB_SELF_CONTRADICTORY);
    game_init(&t, "1-0", 4);
    t.g.marker = "0-1";
    fact(&t, ARB_CHECKMATE, 4, "2...Qh4#");
    run(&t);
    OUTCOME(&t, "0-1", "checkmate at 2...Qh4#; recorded 1-0", ARB_WRONG_RESULT);
    /* The same result in both, or only one of them: no contradiction. */
    game_init(&t, "1-0", 1);
    t.g.marker = "1-0";
    run(&t);
    OUTCOME(&t, "1-0", NULL, ARB_CONSISTENT);
    game_init(&t, NULL, 1);
    t.g.marker = "1-0";
    run(&t);
    OUTCOME(&t, NULL, NULL, ARB_UNFINISHED);

    /* unfinished: no end and "*" or no Result tag. */
    game_init(&t, "*", 30);
    run(&t);
    OUTCOME(&t, "*", NULL, ARB_UNFINISHED);
    game_init(&t, NULL, 30);
    run(&t);
    OUTCOME(&t, NULL, NULL, ARB_UNFINISHED);
    /* Facts that end nothing do not finish a game. */
    game_init(&t, "*", 30);
    fact(&t, ARB_THREEFOLD, 8, "4...Ng8");
    fact(&t, ARB_FIFTY, 28, "14...Kh8");
    run(&t);
    OUTCOME(&t, "*", NULL, ARB_UNFINISHED);

    /* consistent: a result from outside the board, right or free text. */
    static const char *const recorded[] = { "1-0", "0-1", "1/2-1/2", "?", "" };
    for (size_t i = 0; i < sizeof recorded / sizeof recorded[0]; i++) {
        game_init(&t, recorded[i], 30);
        run(&t);
        NO_END(&t);
        OUTCOME(&t, recorded[i], NULL, ARB_CONSISTENT);
        CHECK(t.g.adjudicated == recorded[i], "without an end, adjudicated is the Result tag itself\n%s", dump(&t));
    }
    /* An end at the last ply with the right result. */
    game_init(&t, "1/2-1/2", 150);
    fact(&t, ARB_SEVENTYFIVE, 150, "75...Kf8");
    run(&t);
    OUTCOME(&t, "1/2-1/2", NULL, ARB_CONSISTENT);
    /* An end at ply 0 of a game without moves. */
    game_init(&t, "1/2-1/2", 0);
    fact(&t, ARB_DEAD, 0, "");
    run(&t);
    END(&t, ARB_DEAD, 0, "");
    OUTCOME(&t, "1/2-1/2", NULL, ARB_CONSISTENT);
}
END_TEST

/* ---- the adjudication text ---- */

START_TEST(text_of_each_reason)
{
    static const struct {
        arb_fact f;
        int32_t ply;
        const char *move, *recorded, *want;
    } cases[] = {
        { ARB_CHECKMATE, 4, "2...Qh4#", "1-0", "checkmate at 2...Qh4#; recorded 1-0" },
        { ARB_STALEMATE, 19, "10.Qe6", "1-0", "stalemate at 10.Qe6; recorded 1-0" },
        { ARB_DEAD, 61, "31.Kxd4", "0-1", "dead position at 31.Kxd4; recorded 0-1" },
        { ARB_FIVEFOLD, 81, "41.Kf2", "1-0", "fivefold repetition at 41.Kf2; recorded 1-0" },
        { ARB_SEVENTYFIVE, 210, "105...Rb1", "*", "seventy-five-move rule at 105...Rb1; recorded *" },
        { ARB_THREEFOLD, 8, "4...Ng8", "0-1", "threefold repetition claimed at 4...Ng8; recorded 0-1" },
        { ARB_FIFTY, 120, "70...Rb1", "1-0", "fifty-move rule claimed at 70...Rb1; recorded 1-0" },
        /* ply 0: "the start" */
        { ARB_DEAD, 0, "", "1-0", "dead position at the start; recorded 1-0" },
        { ARB_CHECKMATE, 0, "", "1-0", "checkmate at the start; recorded 1-0" },
        { ARB_STALEMATE, 0, "", NULL, "stalemate at the start" },
        /* no Result tag: no "recorded" part */
        { ARB_FIVEFOLD, 81, "41.Kf2", NULL, "fivefold repetition at 41.Kf2" },
        { ARB_FIFTY, 100, "50...Kh8", NULL, "fifty-move rule claimed at 50...Kh8" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        game_t t;
        game_init(&t, cases[i].recorded, (uint32_t)cases[i].ply);
        t.policy = ARB_RULES_CLAIM;
        fact(&t, cases[i].f, cases[i].ply, cases[i].move);
        run(&t);
        CHECK(str_eq(t.g.adjudication, cases[i].want), "case %zu: adjudication \"%s\", expected \"%s\"\n%s", i,
              STR(t.g.adjudication), cases[i].want, dump(&t));
        CHECK(t.g.verdict == ARB_WRONG_RESULT, "case %zu: verdict %s\n%s", i, arb_verdict_name(t.g.verdict),
              dump(&t));
    }
}
END_TEST

START_TEST(text_only_when_the_result_changes)
{
    /* The rules confirm the result: no text. */
    game_t t;
    game_init(&t, "1/2-1/2", 81);
    fact(&t, ARB_FIVEFOLD, 81, "41.Kf2");
    run(&t);
    OUTCOME(&t, "1/2-1/2", NULL, ARB_CONSISTENT);
    game_init(&t, "1/2-1/2", 90);
    fact(&t, ARB_FIVEFOLD, 81, "41.Kf2");
    run(&t);
    OUTCOME(&t, "1/2-1/2", NULL, ARB_MOVES_AFTER_END);

    /* The text is cut to why_cap and stays a C string. */
    game_init(&t, "1-0", 81);
    fact(&t, ARB_FIVEFOLD, 81, "41.Kf2");
    char small[10];
    memset(small, 'X', sizeof small);
    adjudicate_input_t in = { .start_stm = 0, .why = small, .why_cap = sizeof small };
    adjudicate(&t.g, &in, ARB_RULES_FIDE);
    CHECK(t.g.adjudication == small && memcmp(small, "fivefold ", 10) == 0,
          "a 10-byte buffer holds \"fivefold \" and a NUL, got \"%.10s\"", small);
    CHECK(str_eq(t.g.adjudicated, "1/2-1/2") && t.g.verdict == ARB_WRONG_RESULT, "outcome\n%s", dump(&t));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("adjudicate");
    TU_CASE(s, end_each_reason_alone, 60);
    TU_CASE(s, end_is_the_earliest, 60);
    TU_CASE(s, end_ties_on_one_ply, 60);
    TU_CASE(s, end_mating_side, 60);
    TU_CASE(s, end_resets_a_reused_record, 60);
    TU_CASE(s, policy_claim, 60);
    TU_CASE(s, article_6_9, 60);
    TU_CASE(s, verdict_precedence, 60);
    TU_CASE(s, text_of_each_reason, 60);
    TU_CASE(s, text_only_when_the_result_changes, 60);
    return tu_run(s);
}

/* adjudicate.c: end of game, adjudicated result, verdict. */
#include "adjudicate.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* Automatic ends, in the order that breaks ties on one ply: checkmate
 * takes precedence (FIDE 9.6: mate on the last move stands). */
static const arb_fact automatic[] = {
    ARB_CHECKMATE, ARB_STALEMATE, ARB_DEAD, ARB_FIVEFOLD, ARB_SEVENTYFIVE,
    ARB_THREEFOLD, ARB_FIFTY, /* ends only when claims are taken */
};

static const char *winner_result(int color)
{
    return color == 0 ? "1-0" : "0-1";
}

/* The colour a decisive result names as winner, -1 if not decisive. */
static int result_winner(const char *result)
{
    if (!result)
        return -1;
    if (strcmp(result, "1-0") == 0)
        return 0;
    if (strcmp(result, "0-1") == 0)
        return 1;
    return -1;
}

bool adjudicate_is_result(const char *s)
{
    return s && (!strcmp(s, "1-0") || !strcmp(s, "0-1") || !strcmp(s, "1/2-1/2") || !strcmp(s, "*"));
}

/* The result recorded: the Result tag's, or the marker's when the tag
 * holds no result, as --fix would write it. */
static const char *recorded_result(const arb_game *g)
{
    return adjudicate_is_result(g->result) ? g->result : g->marker;
}

int adjudicate_time_winner(const arb_game *g, const char *termination)
{
    if (!termination || strcasecmp(termination, "time forfeit") != 0)
        return -1;
    return result_winner(recorded_result(g));
}

void adjudicate(arb_game *g, const adjudicate_input_t *in, arb_policy policy)
{
    g->has_end = false;
    g->adjudication = NULL;
    size_t reasons = sizeof automatic / sizeof automatic[0] - (policy == ARB_RULES_CLAIM ? 0 : 2);
    for (size_t i = 0; i < reasons; i++) {
        arb_fact f = automatic[i];
        if (g->first[f] >= 0 && (!g->has_end || g->first[f] < g->end_ply)) {
            g->has_end = true;
            g->end_reason = f;
            g->end_ply = g->first[f];
            g->end_move = g->first_move[f];
        }
    }

    static const char *const reason_words[ARB_FACT_COUNT] = {
        "checkmate", "stalemate", "insufficient material", "dead position",
        "fivefold repetition", "seventy-five-move rule", "threefold repetition claimed",
        "fifty-move rule claimed", "White cannot win", "Black cannot win",
    };
    g->adjudicated = g->result;
    if (g->has_end) {
        if (g->end_reason == ARB_CHECKMATE) {
            /* The side to move at the mate ply lost. */
            int loser = (in->start_stm + g->end_ply) & 1;
            g->adjudicated = winner_result(!loser);
        } else {
            g->adjudicated = "1/2-1/2";
        }
    } else {
        /* Article 6.9: a flag fall loses only if the opponent could mate by
         * some series of legal moves. */
        int winner = in->time_claim ? result_winner(recorded_result(g)) : adjudicate_time_winner(g, in->termination);
        if (winner >= 0 && in->cannot_mate[winner]) {
            g->adjudicated = "1/2-1/2";
            if (in->why)
                snprintf(in->why, in->why_cap, "Article 6.9: %s cannot checkmate; recorded %s on time",
                         winner == 0 ? "White" : "Black", recorded_result(g));
            g->adjudication = in->why;
        }
    }
    if (g->has_end && in->why && (!g->result || strcmp(g->result, g->adjudicated) != 0)) {
        const char *at = g->end_move && g->end_move[0] ? g->end_move : "the start";
        if (g->result)
            snprintf(in->why, in->why_cap, "%s at %s; recorded %s", reason_words[g->end_reason], at, g->result);
        else
            snprintf(in->why, in->why_cap, "%s at %s", reason_words[g->end_reason], at);
        g->adjudication = in->why;
    }

    if (g->status != ARB_OK)
        g->verdict = ARB_UNREADABLE;
    else if ((g->has_end || g->adjudicated != g->result) &&
             (!g->result || !g->adjudicated || strcmp(g->result, g->adjudicated) != 0))
        g->verdict = ARB_WRONG_RESULT;
    else if (g->result && g->marker && strcmp(g->result, g->marker) != 0)
        g->verdict = ARB_SELF_CONTRADICTORY; /* the record says two things; --check says which */
    else if (g->has_end && (uint32_t)g->end_ply < g->plies)
        g->verdict = ARB_MOVES_AFTER_END;
    else if (!g->has_end && (!g->result || strcmp(g->result, "*") == 0))
        g->verdict = ARB_UNFINISHED;
    else
        g->verdict = ARB_CONSISTENT;
}

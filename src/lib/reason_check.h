/* reason_check.h: a recorded reason weighed against the board.
 *
 * The facts come from the replay (the last position, its repetition count
 * and halfmove clock, mate and stalemate, the end by rule that adjudicate()
 * found) and from the dead-position analysis (dead.h) for the claims that
 * need to know whether a side can still mate.  The checks, claim by claim,
 * are the table of the END REASONS section of pgn-arbiter(1). */
#ifndef ARB_REASON_CHECK_H
#define ARB_REASON_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "dead.h"
#include "pgnarbiter.h"
#include "reason.h"
#include "rules.h"

typedef struct reason_board {
    const rules_t *rules;   /* the replay after rules_finish(); NULL if the game was not replayed */
    dead_search_t *dead;    /* the full analysis for insufficient-material and timeout claims;
                               NULL: only what cannot_mate[] proves */
    bool cannot_mate[2];    /* per colour, proved for the last position (as adjudicate() had them) */
    int start_stm;          /* side to move at ply 0 */
} reason_board_t;

/* 1 for 1-0, 2 for 0-1, 3 for 1/2-1/2, 4 for *, 0 for anything else
 * (NULL too), without a call: every game asks. */
static inline int reason_result_code(const char *s)
{
    if (!s)
        return 0;
    if (s[0] == '*' && !s[1])
        return 4;
    if (s[0] == '1' && s[1] == '-' && s[2] == '0' && !s[3])
        return 1;
    if (s[0] == '0' && s[1] == '-' && s[2] == '1' && !s[3])
        return 2;
    return s[0] == '1' && s[1] == '/' && memcmp(s, "1/2-1/2", 8) == 0 ? 3 : 0;
}

/* The colour that a decisive result names as winner, -1 if not decisive. */
static inline int reason_result_winner(const char *result)
{
    int c = reason_result_code(result);
    return c == 1 ? 0 : c == 2 ? 1 : -1;
}

/* The result recorded: the Result tag's, or the marker's when the tag
 * holds no result (as adjudicate() reads it); NULL if neither. */
static inline const char *reason_recorded(const arb_game *g)
{
    return reason_result_code(g->result) ? g->result : g->marker;
}

/* Weighs claim p, parsed from out->text, for game g (adjudicated already:
 * has_end, end_*, result, marker are set): sets out->check,
 * out->result_conflict and out->message, written into msg[0..cap). */
void reason_check_full(const arb_game *g, const reason_parsed_t *p, const reason_board_t *b, arb_reason *out,
                       char *msg, size_t cap);

/* The same, the usual lichess Normal without a call: a game replayed with
 * no end by rule before its last move, of which it says nothing the board
 * can weigh. */
/* The usual case without a call or a board: lichess's "Normal" in a game
 * replayed (`replayed`) that no rule ended before its last move, which
 * the board cannot weigh.  True when it was that case, with *out checked
 * as reason_check() would. */
static inline bool reason_check_usual(const arb_game *g, const reason_parsed_t *p, bool replayed, arb_reason *out,
                                      char *msg)
{
    if (p->claim == ARB_CLAIM_NORMAL && p->implies == IMPLIES_NOTHING && !p->user_len && g->status == ARB_OK &&
        replayed && (!g->has_end || (uint32_t)g->end_ply >= g->plies)) {
        msg[0] = '\0';
        out->message = msg;
        out->result_conflict = false;
        out->check = ARB_CHECK_UNVERIFIABLE;
        return true;
    }
    return false;
}

static inline void reason_check(const arb_game *g, const reason_parsed_t *p, const reason_board_t *b,
                                arb_reason *out, char *msg, size_t cap)
{
    if (!reason_check_usual(g, p, b->rules != NULL, out, msg))
        reason_check_full(g, p, b, out, msg, cap);
}

/* Does text a disagree with text b: both say how the game ended (rank 1
 * or more) and say it differently, or they imply different results? */
bool reason_disagree(const reason_parsed_t *a, const reason_parsed_t *b);

#endif
